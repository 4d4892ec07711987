"""The setup books in boards/solved/: made from their certificates, read by attila.opponent.book."""

import os

import pytest

from attila.opponent.book import key as book_key
from attila.opponent.book import open as open_book
from attila.game.rules import Game
from attila_tools import cli
from attila_tools.solve import bookmaker, retro, retro_cert

SOLVED = os.path.join(retro.ROOT, "boards", "solved")
CERTS = sorted(f for f in os.listdir(SOLVED) if f.endswith(".cert.json.gz"))


def _stand(layout, first, second):
    game = Game(layout)
    fs = [layout.index(n) for n in first.split()]
    ss = [layout.index(n) for n in second.split()]
    while fs or ss:
        game.place((fs if game.side == game.first else ss).pop(0))
    return game


@pytest.mark.parametrize("name", CERTS)
def test_each_book_is_made_from_its_certificate(name):
    cert = retro_cert.read(os.path.join(SOLVED, name))
    layout, perms, recs = bookmaker.records(cert)
    path = os.path.join(SOLVED, name.replace(".cert.json.gz", ".book"))
    with open(path, "rb") as f:
        assert f.read() == bookmaker.encode(layout, perms, recs)
    assert os.path.getsize(path) < 18 * 1024  # 5-byte records: the largest, staircase, 17.5 KB


@pytest.mark.parametrize("name", CERTS)
def test_the_reader_answers_as_the_certificate_everywhere_in_the_book(name):
    cert = retro_cert.read(os.path.join(SOLVED, name))
    layout = retro_cert.layout_of(cert)
    book = open_book(os.path.join(SOLVED, name.replace(".cert.json.gz", ".book")), layout)
    for first, second, answer in cert["book"]:
        game = _stand(layout, first, second)
        assert book.placement(game) == layout.index(answer), (first, second, answer)
    book.close()


def test_the_portable_tests_answers_are_the_4x5_certificates():
    cert = retro_cert.read(os.path.join(SOLVED, "4x5.cert.json.gz"))
    with open(os.path.join(retro.ROOT, "tests", "portable", "book_4x5.txt")) as f:
        assert f.read().splitlines() == bookmaker.answer_lines(cert)


def test_the_4x5_book_plays_the_winning_side_from_the_empty_board():
    # The second placer wins 4x5: whatever the first placer does, the board's
    # answers keep it on the strategy tree of the certificate.
    cert = retro_cert.read(os.path.join(SOLVED, "4x5.cert.json.gz"))
    assert cert["first_placer_wins"] is False
    layout = retro_cert.layout_of(cert)
    book = open_book(os.path.join(SOLVED, "4x5.book"), layout)
    lines = set(" ".join(l.split()[:-1]) for l in cert["strategy"])
    game = Game(layout)
    played = []

    def walk(depth):
        if depth == 6:
            assert " ".join(played) in lines
            return 1
        if depth % 2 == 1:
            c = book.placement(game)
            assert c >= 0
            squares = [c]
        else:
            squares = [i for i in range(layout.size) if game.placements() >> i & 1]
        leaves = 0
        for c in squares:
            game.place(c)
            played.append("@" + layout.names[c])
            leaves += walk(depth + 1)
            played.pop()
            game.undo()
        return leaves

    assert walk(0) == len(lines) == 5116
    book.close()


def test_no_damaged_record_of_the_4x5_book_is_ever_played():
    # Every record, every byte, a low and a high bit flipped: at each position
    # of the certificate that record answers, the reader gives no answer (-1:
    # the board searches), never another square.
    import io

    from attila.opponent.book import Book
    from attila_tools.solve.retro_setup import canonical
    from attila_tools.solve.symmetry import automorphisms

    cert = retro_cert.read(os.path.join(SOLVED, "4x5.cert.json.gz"))
    layout = retro_cert.layout_of(cert)
    perms = automorphisms(layout)
    data = bytearray(open(os.path.join(SOLVED, "4x5.book"), "rb").read())
    base = 8 + 2 * layout.size + (len(perms) - 1) * layout.size
    at_key = {}
    for first, second, _ in cert["book"]:
        f0 = sum(1 << layout.index(n) for n in first.split())
        s0 = sum(1 << layout.index(n) for n in second.split())
        _, f, s = canonical(perms, f0, s0)
        at_key.setdefault(book_key(layout.size, f, s), []).append(_stand(layout, first, second))
    records = (len(data) - base) // 5
    assert records == len(at_key) == 1443
    checked = 0
    for r in range(records):
        at = base + 5 * r
        games = at_key[int.from_bytes(data[at:at + 3], "big")]
        for offset in range(5):
            for flip in (0x01, 0x80):
                data[at + offset] ^= flip
                book = Book(io.BytesIO(bytes(data)), layout)
                for game in games:
                    assert book.placement(game) == -1, (r, offset, flip)
                    checked += 1
                data[at + offset] ^= flip
    assert checked == 10 * len(cert["book"]) == 46970


def test_book_command_writes_and_refuses_to_overwrite_a_foreign_file(tmp_path, capsys):
    cert = os.path.join(SOLVED, "cross.cert.json.gz")
    out = tmp_path / "cross.book"
    assert cli.main(["book", cert, "--out", str(out)]) == 0
    assert out.read_bytes() == open(os.path.join(SOLVED, "cross.book"), "rb").read()
    foreign = tmp_path / "notes.book"
    foreign.write_text("my notes")
    assert cli.main(["book", cert, "--out", str(foreign)]) == 2
    err = capsys.readouterr().err
    assert err == "attila book: %s exists and is not a setup book: not overwritten\n" % foreign
    assert foreign.read_text() == "my notes"


def test_book_entries_that_disagree_with_a_symmetric_image_are_refused(tmp_path, capsys):
    from attila_tools.solve.symmetry import automorphisms

    path = os.path.join(SOLVED, "4x5.cert.json.gz")
    cert = retro_cert.read(path)
    layout = retro_cert.layout_of(cert)
    mirror = automorphisms(layout)[1]
    first, second, answer = cert["book"][1]
    names = layout.names

    def image(text):
        return " ".join(names[mirror[layout.index(n)]] for n in text.split())

    wrong = [n for n in names[:layout.size]
             if n != names[mirror[layout.index(answer)]]][0]
    cert["book"].append([image(first), image(second), wrong])
    with pytest.raises(bookmaker.BookWriteError) as e:
        bookmaker.records(cert, "x.cert")
    assert str(e.value) == "x.cert: book entries %r disagree with a symmetric image" % (
        [image(first), image(second), wrong],)
