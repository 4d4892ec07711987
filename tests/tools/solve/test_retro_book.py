"""The setup books in boards/solved/: made from their certificates, read by attila.book."""

import os

import pytest

from attila.book import open as open_book
from attila.rules import Game
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
    assert os.path.getsize(path) < 16 * 1024


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


def test_book_command_writes_and_refuses_to_overwrite_a_foreign_file(tmp_path, capsys):
    cert = os.path.join(SOLVED, "cross.cert.json.gz")
    out = tmp_path / "cross.book"
    assert bookmaker.main([cert, "--out", str(out)]) == 0
    assert out.read_bytes() == open(os.path.join(SOLVED, "cross.book"), "rb").read()
    foreign = tmp_path / "notes.book"
    foreign.write_text("my notes")
    assert bookmaker.main([cert, "--out", str(foreign)]) == 2
    err = capsys.readouterr().err
    assert err == "%s exists and is not a setup book: not overwritten\n" % foreign
    assert foreign.read_text() == "my notes"
