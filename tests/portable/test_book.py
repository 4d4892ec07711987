"""The setup book's reader (attila.opponent.book) answers as the certificate, at every position of the book.

book_4x5.txt is the 4x5 certificate's book section as text (attila book
boards/solved/4x5.cert.json.gz --answers tests/portable/book_4x5.txt; the
host test tests/tools/solve/test_retro_book.py checks that it matches the certificate).
"""

import check
from attila.opponent.book import Book, BookError, crc8, key, rank
from attila.opponent.book import open as open_book
from attila.game.geometry import from_rows
from attila.game.rules import Game

# The repository root (the files are read from it; MicroPython runs from there).
try:
    _ROOT = "/".join(__file__.replace("\\", "/").split("/")[:-3])
except NameError:  # pragma: no cover - a MicroPython build without __file__
    _ROOT = ""
_ROOT = _ROOT + "/" if _ROOT else ""

RECT = from_rows(["....."] * 4)
BOOK = _ROOT + "boards/solved/4x5.book"
ANSWERS = _ROOT + "tests/portable/book_4x5.txt"


def stand(layout, first, second):
    """A game at the setup position (placements alternate, first placer first)."""
    game = Game(layout)
    fs = [layout.index(n) for n in first.split(",")] if first != "-" else []
    ss = [layout.index(n) for n in second.split(",")] if second != "-" else []
    while fs or ss:
        game.place((fs if game.side == game.first else ss).pop(0))
    return game


def test_every_position_of_the_4x5_book_gets_the_certificates_answer():
    book = open_book(BOOK, RECT)
    checked = 0
    with open(ANSWERS) as f:
        for line in f:
            first, second, answer = line.split()
            game = stand(RECT, first, second)
            got = book.placement(game)
            assert got == RECT.index(answer), (line, got)
            checked += 1
    book.close()
    assert checked == 4697, checked


def test_no_answer_outside_the_book_or_outside_setup():
    book = open_book(BOOK, RECT)
    # After a1 the board (second placer) answers c2, so a second placer on b1
    # is not a position the board can meet.
    game = stand(RECT, "a1,e4", "b1")
    assert book.placement(game) == -1
    game = stand(RECT, "a3,a2,b3", "d2,c2,d4")
    assert game.phase == 1
    assert book.placement(game) == -1
    book.close()


def test_the_book_refuses_another_layout_and_damaged_files():
    other = from_rows(["....", "....", "....", "....", "...."])
    msg = check.raises(BookError, open_book, BOOK, other)
    assert msg == "%s: the book is for another layout" % BOOK, msg
    small = from_rows(["...", "...", "..."])
    msg = check.raises(BookError, open_book, BOOK, small)
    assert msg == "%s: the book is for 20 squares, the layout has 9" % BOOK, msg
    msg = check.raises(BookError, open_book, ANSWERS, RECT)
    assert msg == "%s: not a setup book" % ANSWERS, msg
    msg = check.raises(BookError, open_book, _ROOT + "boards/solved/none.book", RECT)
    assert msg == "%s: cannot open the book" % (_ROOT + "boards/solved/none.book"), msg


def test_keys_rank_positions_within_their_counts():
    assert rank(0) == 0 and rank(0b1) == 0 and rank(0b10) == 1 and rank(0b111) == 0
    assert rank(0b1011) == 1 and rank(0b1000 << 16) == 19
    assert key(20, 0, 0) == 0
    assert key(20, 1, 0) == 4 << 20
    assert key(20, 0b111 << 17, 0b111 << 14) == (15 << 20) | 1139 * 680 + 679


def test_lookups_allocate_nothing():
    import gc

    if not hasattr(gc, "mem_alloc"):
        check.skip("no gc.mem_alloc on CPython: nothing to measure")
    book = open_book(BOOK, RECT)
    game = stand(RECT, "a1,e4", "c2")
    want = book.placement(game)
    assert want >= 0
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(50):
        book.placement(game)
    used = gc.mem_alloc() - before
    gc.enable()
    book.close()
    assert used < 64, used


def test_the_opponent_places_from_the_book_at_normal_and_strong_only():
    from attila.opponent.levels import BEGINNER, NORMAL, STRONG
    from attila.opponent.planner import Planner, choose

    book = open_book(BOOK, RECT)
    game = stand(RECT, "a1", "-")
    for level in (NORMAL, STRONG):
        p = Planner(level, 2000, book=book)
        assert p.start(game, 0)  # decided in start(): nothing searched
        assert not p.busy and p.result() == RECT.index("c2") and p.nodes == 0
    assert choose(game, STRONG, book=book) == "@c2"
    p = Planner(BEGINNER, 2000, book=book)
    p.node_budget = 64  # the search starts; its answer is not the point here
    p.start(game, 0)
    assert p.busy
    p.cancel()
    book.close()


def test_a_book_that_cannot_be_read_answers_nothing_and_the_search_plays():
    from attila.opponent.levels import STRONG
    from attila.opponent.planner import Planner

    book = open_book(BOOK, RECT)
    book.close()  # reads fail from now on (a failing flash)
    game = stand(RECT, "a1", "-")
    assert book.placement(game) == -1
    p = Planner(STRONG, 2000, book=book)
    p.node_budget = 64
    p.start(game, 0)
    assert p.busy  # searching
    p.cancel()


def _book_bytes():
    with open(BOOK, "rb") as f:
        return bytearray(f.read())


def _record_at(data, k):
    """The byte offset of the record with key k (a scan: tests only)."""
    base = 8 + 2 * data[4] + data[4] * data[5]
    for at in range(base, len(data), 5):
        if data[at] << 16 | data[at + 1] << 8 | data[at + 2] == k:
            return at
    raise AssertionError("no record with key %d" % k)


def _reader(data):
    import io

    return Book(io.BytesIO(bytes(data)), RECT, "damaged.book")


def test_a_record_with_a_damaged_byte_is_never_played():
    # The empty board's record (key 0): its answer is c2. Any changed bit of
    # its key, answer or check byte: no answer (the search places), never
    # another square; the other records still answer.
    data = _book_bytes()
    at = _record_at(data, 0)
    assert _reader(data).placement(Game(RECT)) == RECT.index("c2")
    tried = 0
    for offset in range(5):
        for flip in (0x01, 0x04, 0x80, 0xFF):
            data[at + offset] ^= flip
            book = _reader(data)
            got = book.placement(Game(RECT))
            assert got == -1, (offset, flip, got)
            assert book.placement(stand(RECT, "a1", "-")) == RECT.index("c2")
            data[at + offset] ^= flip
            tried += 1
    assert tried == 20


def test_a_record_that_names_an_occupied_square_is_never_played():
    # A record whose check byte is right (made so, or a damage the check
    # cannot tell) and whose answer is a1, where the Romans already stand: the
    # reader's legality guard refuses it; the board searches instead.
    data = _book_bytes()
    at = _record_at(data, key(20, 1, 0))  # a1 placed (its canonical image), Huns to place
    assert data[at + 3] == RECT.index("c2")
    data[at + 3] = RECT.index("a1")
    data[at + 4] = crc8(data[at:at + 4], 4)
    book = _reader(data)
    game = stand(RECT, "a1", "-")
    assert book.placement(game) == -1
    assert book.placement(Game(RECT)) == RECT.index("c2")  # the rest still answers
    data[at + 3] = 31  # no square of this layout
    data[at + 4] = crc8(data[at:at + 4], 4)
    assert _reader(data).placement(game) == -1


def test_check_bytes_are_the_crc8_of_each_record():
    assert crc8(b"123456789", 9) == 0xFB  # CRC-8 with a start of 0xFF: its check value
    assert crc8(bytes(4), 4) != 0 and crc8(b"\xff" * 4, 4) != 0xFF  # zeroed, erased
    data = _book_bytes()
    base = 8 + 2 * 20 + 20 * data[5]
    count = 0
    for at in range(base, len(data), 5):
        assert crc8(data[at:at + 4], 4) == data[at + 4], at
        count += 1
    assert count == data[6] << 8 | data[7] == 1443, count


def test_a_book_of_the_older_format_is_refused_with_what_to_do():
    import io

    data = _book_bytes()
    data[0:4] = b"ATB1"
    msg = check.raises(BookError, Book, io.BytesIO(bytes(data)), RECT, "old.book")
    assert msg == ("old.book: a setup book of an older format (no check bytes): "
                   "make it again with attila book"), msg
