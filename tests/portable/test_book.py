"""The setup book's reader (attila.book) answers as the certificate, at every position of the book.

book_4x5.txt is the 4x5 certificate's book section as text (attila book
boards/solved/4x5.cert.json.gz --answers tests/portable/book_4x5.txt; the
host test tests/tools/solve/test_retro_book.py checks that it matches the certificate).
"""

import check
from attila.book import BookError, key, rank
from attila.book import open as open_book
from attila.geometry import from_rows
from attila.rules import Game

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
        return  # CPython: nothing to measure
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
    from attila import opponent

    book = open_book(BOOK, RECT)
    game = stand(RECT, "a1", "-")
    for level in (opponent.NORMAL, opponent.STRONG):
        p = opponent.Planner(level, 2000, book=book)
        p.start(game, 0)
        # Decided in start(): ready at the first step, nothing searched.
        assert not p.busy and p.step(0) and p.result() == "@c2" and p.nodes == 0
    assert opponent.choose(game, opponent.STRONG, book=book) == "@c2"
    p = opponent.Planner(opponent.BEGINNER, 2000, book=book)
    p.node_budget = 64  # the search starts; its answer is not the point here
    p.start(game, 0)
    assert p.busy
    p.cancel()
    book.close()


def test_a_book_that_cannot_be_read_answers_nothing_and_the_search_plays():
    from attila import opponent

    book = open_book(BOOK, RECT)
    book.close()  # reads fail from now on (a failing flash)
    game = stand(RECT, "a1", "-")
    assert book.placement(game) == -1
    p = opponent.Planner(opponent.STRONG, 2000, book=book)
    p.node_budget = 64
    p.start(game, 0)
    assert p.busy  # searching
    p.cancel()
