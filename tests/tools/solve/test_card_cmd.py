"""`attila card` and the board's reader of its file (attila.opponent.card), on small layouts.

The card's answers are checked against the retrograde tables they come
from, position by position; damaged, foreign and cut-short cards each get
their one-line CardError.
"""

import io
import itertools
import json
import os
import sys

import pytest
import retrokit

from attila.opponent.card import BLOCK, FILE, Card, CardError
from attila.errors import AttilaError
from attila.game.notation import parse_position, replay
from attila.game.rules import Game
from attila_tools import cli
from attila_tools.solve import retro
from attila_tools.solve.card_cmd import write_card
from attila_tools.solve.retro_index import placements
from attila_tools.squares import bits

# 12 squares (m = 6: one word a row) and 14 (m = 8: rows of 256 bits, blocks
# holding parts of two rows).
SMALL = {"name": "small", "custom": True, "rows": ["....", "....", "...."]}
WIDER = {"name": "wider", "custom": True, "rows": ["....", "....", "....", "--.."]}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(retro, "CACHE", str(tmp_path / "retro"))
    return tmp_path


def _layout_file(folder, data):
    path = folder / (data["name"] + ".json")
    path.write_text(json.dumps(data))
    return str(path)


_SOLVED = {}


def _tables(data):
    """The retrograde tables of a layout (solved once per test run)."""
    key = data["name"]
    if key not in _SOLVED:
        from attila.game.geometry import from_rows

        lay = from_rows(data["rows"])
        lay.name = data["name"]
        _SOLVED[key] = retro.solve(lay, threads=1)
    return _SOLVED[key]


def _card_file(tmp_path, data):
    tables = _tables(data)
    path = str(tmp_path / (data["name"] + ".tbl"))
    write_card(tables, path)
    return tables, path


@pytest.mark.parametrize("data", [SMALL, WIDER], ids=["12 squares", "14 squares"])
def test_the_card_answers_as_the_tables(tmp_path, data):
    tables, path = _card_file(tmp_path, data)
    ix = tables.index
    rng = retrokit.rng_of(17)
    with open(path, "rb") as f:
        card = Card(f, tables.layout)
        assert card.title == data["name"]
        for _ in range(3000):
            mover, other, scorched = retrokit.random_position(ix, rng)
            assert card.won(mover, other, scorched) == tables.won(mover, other, scorched)
    assert os.path.getsize(path) == (1 + card.blocks) * BLOCK


def test_the_card_reads_from_a_block_device_at_an_offset(tmp_path):
    tables, path = _card_file(tmp_path, WIDER)

    class Disk:
        """A block device whose file starts at block 7 (as on a FAT card)."""

        def __init__(self, data):
            self.data = bytes(7 * BLOCK) + data

        def readblocks(self, n, buf):
            buf[:] = self.data[n * BLOCK:(n + 1) * BLOCK]

    with open(path, "rb") as f:
        disk = Disk(f.read())
    card = Card(disk, tables.layout, start=7)
    rng = retrokit.rng_of(3)
    for _ in range(500):
        p = retrokit.random_position(tables.index, rng)
        assert card.won(*p) == tables.won(*p)


def test_a_winning_turn_wins_and_a_lost_position_has_none(tmp_path):
    tables, path = _card_file(tmp_path, WIDER)
    lay = tables.layout
    rng = retrokit.rng_of(5)
    won = lost = 0
    with open(path, "rb") as f:
        card = Card(f, lay)
        for _ in range(300):
            mover, other, scorched = retrokit.random_position(tables.index, rng, free_at_least=1)
            game = Game(lay)
            game.knights = [mover, other]
            game.scorched = scorched
            game.settle(1)  # MOVE (or OVER when the side to move is stuck)
            if game.phase != 1:
                continue
            turn = card.winning_turn(game)
            if tables.won(mover, other, scorched):
                won += 1
                a, b, c = turn >> 12 & 63, turn >> 6 & 63, turn & 63
                assert turn >> 18 == 1
                game.move(a, b)
                # In the scorch step, the card finishes the turn it started: the same tile.
                assert card.winning_turn(game) == turn
                game.scorch(c)
                assert not tables.won(game.knights[game.side], game.knights[game.side ^ 1],
                                      game.scorched)
            else:
                lost += 1
                assert turn == -1
    assert won > 50 and lost > 50


def test_setup_and_other_supplies_are_not_for_the_card(tmp_path):
    tables, path = _card_file(tmp_path, SMALL)
    with open(path, "rb") as f:
        card = Card(f, tables.layout)
        assert card.winning_turn(Game(tables.layout)) == -1  # setup: the book's
        game = parse_position("..../..../.... R")
        game = Game(tables.layout, tiles=3)
        game.knights = [0b111, 0b111 << 9]
        game.settle(1)
        assert card.winning_turn(game) == -1


def test_damaged_foreign_and_short_cards_are_told_apart(tmp_path):
    tables, path = _card_file(tmp_path, WIDER)
    lay = tables.layout
    with open(path, "rb") as f:
        whole = f.read()
    bad = bytearray(whole)
    bad[3 * BLOCK + 100] ^= 0x10  # one bit of block 3
    damaged = tmp_path / "damaged.tbl"
    damaged.write_bytes(bytes(bad))
    with open(str(damaged), "rb") as f:
        card = Card(f, lay, where="damaged.tbl")
        with pytest.raises(CardError, match=r"damaged.tbl: block 3 is damaged or out of place"):
            for mover, other, scorched in _positions(tables):
                card.won(mover, other, scorched)
    short = tmp_path / "short.tbl"
    short.write_bytes(whole[:-BLOCK])
    with open(str(short), "rb") as f, pytest.raises(CardError, match=r"cut short at block"):
        Card(f, lay, where="short.tbl")
    _, other_path = _card_file(tmp_path, SMALL)
    with open(other_path, "rb") as f, pytest.raises(
            CardError, match=r"^x.tbl: the tables are for another layout \(small, 12 squares\)$"):
        Card(f, lay, where="x.tbl")
    junk = tmp_path / "junk.tbl"
    junk.write_bytes(bytes(4 * BLOCK))
    with open(str(junk), "rb") as f, pytest.raises(CardError, match=r"block 0 is damaged"):
        Card(f, lay, where="junk.tbl")
    moved = bytearray(whole)  # blocks 2 and 3 swapped: a fragmented copy
    moved[2 * BLOCK:3 * BLOCK], moved[3 * BLOCK:4 * BLOCK] = whole[3 * BLOCK:4 * BLOCK], \
        whole[2 * BLOCK:3 * BLOCK]
    swapped = tmp_path / "swapped.tbl"
    swapped.write_bytes(bytes(moved))
    with open(str(swapped), "rb") as f:
        card = Card(f, lay, where="swapped.tbl")
        with pytest.raises(CardError, match=r"block [23] is damaged or out of place"):
            for p in _positions(tables):
                card.won(*p)


def _positions(tables, rows=60):
    """Positions in the table's order (the card's first blocks), from its first rows."""
    ix = tables.index
    for mover, other in itertools.islice(placements(ix), rows):
        rest = list(bits(ix.all & ~(mover | other)))
        for e in range(1 << ix.m):
            yield mover, other, sum(1 << rest[i] for i in range(ix.m) if e >> i & 1)


# -- the command ---------------------------------------------------------------


def test_attila_card_writes_the_file_of_a_solved_layout(cache, capsys):
    layout = _layout_file(cache, SMALL)
    dest = cache / "sd"
    assert cli.main(["card", layout, str(dest), "--quiet"]) == 2
    assert capsys.readouterr().err == (
        "attila card: small is not solved: run attila solve --from-setup %s --keep-tables "
        "(or attila card --solve)\n" % layout)
    assert not dest.exists()
    assert cli.main(["card", layout, str(dest), "--solve", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["small: 12 squares, card file %s (0.2 MB)" % (dest / FILE),
                   "small: done; copy attila.tbl to the root of a FAT32 microSD card"]
    tables = _tables(SMALL)
    with open(str(dest / FILE), "rb") as f:
        card = Card(f, tables.layout)
        rng = retrokit.rng_of(1)
        for _ in range(300):
            p = retrokit.random_position(tables.index, rng)
            assert card.won(*p) == tables.won(*p)
    # Solved now and kept: the next card needs no --solve.
    assert cli.main(["card", layout, str(cache / "sd2")]) == 0
    err = capsys.readouterr().err
    assert "writing [##############################] 100%" in err


def test_attila_card_refuses_what_it_cannot_write(cache, capsys):
    big = _layout_file(cache, {"name": "big", "custom": True, "rows": ["......"] * 4})
    assert cli.main(["card", big, str(cache / "sd")]) == 2
    assert capsys.readouterr().err == (
        "attila card: big: 24 squares: no card, the retrograde solver reaches 7 to 20 squares\n")
    short = _layout_file(cache, dict(SMALL, name="short", tiles=3))
    assert cli.main(["card", short, str(cache / "sd")]) == 2
    assert capsys.readouterr().err == (
        "attila card: short: a supply of 3 tiles; a card holds the default supply (6)\n")
    small = _layout_file(cache, SMALL)
    afile = cache / "afile"
    afile.write_text("x")
    assert cli.main(["card", small, str(afile), "--solve"]) == 2
    assert capsys.readouterr().err == "attila card: %s: not a folder\n" % afile
    assert cli.main(["card", str(cache / "none.json"), str(cache / "sd")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "none.json" in err
    assert not (cache / "sd").exists()


def test_the_portable_tests_card_is_what_attila_card_writes(tmp_path):
    """tests/portable/card_9.tbl and card_9.txt (read on MicroPython) match the tables."""
    portable = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "portable")
    nine = {"name": "nine", "rows": ["....", "...-", "..--"]}
    tables, path = _card_file(tmp_path, nine)
    with open(path, "rb") as f, open(os.path.join(portable, "card_9.tbl"), "rb") as g:
        assert f.read() == g.read()
    with open(os.path.join(portable, "card_9.txt")) as f:
        rows = [[int(w) for w in line.split()] for line in f if not line.startswith("#")]
    assert len(rows) == 400
    for mover, other, scorched, won in rows:
        assert tables.won(mover, other, scorched) == won


def test_attila_choose_with_the_card_keeps_every_win(tmp_path, capsys):
    """`attila choose --card DIR`: the board's decision with that card (14 squares)."""
    from attila.game.notation import format_position

    tables = _tables(WIDER)
    layout = _layout_file(tmp_path, WIDER)
    write_card(tables, str(tmp_path / FILE))
    lay = tables.layout
    rng = retrokit.rng_of(8)
    texts = []
    while len(texts) < 40:
        mover, other, scorched = retrokit.random_position(tables.index, rng, free_at_least=1)
        game = Game(lay)
        game.knights = [mover, other]
        game.scorched = scorched
        game.settle(1)
        if game.phase == 1 and tables.won(mover, other, scorched):
            try:
                parse_position(format_position(game))
            except AttilaError:
                continue  # a position the notation refuses (a knight stuck since setup)
            texts.append(format_position(game))
    stdin = io.StringIO("\n".join(texts) + "\n")
    old = sys.stdin
    sys.stdin = stdin
    try:
        assert cli.main(["choose", "--layout", layout, "--card", str(tmp_path), "-"]) == 0
    finally:
        sys.stdin = old
    actions = capsys.readouterr().out.split()
    assert len(actions) == 40
    for text, action in zip(texts, actions):
        game = parse_position(text)
        replay(game, action)
        me, opp = game.knights[game.side], game.knights[game.side ^ 1]
        assert not tables.won(me, opp, game.scorched), (text, action)
    # A damaged card: each decision that meets the damage says so (exit 2).
    data = bytearray((tmp_path / FILE).read_bytes())
    for k in range(2, len(data) // BLOCK - 1):
        data[k * BLOCK + 5] ^= 1
    (tmp_path / FILE).write_bytes(bytes(data))
    sys.stdin = io.StringIO(texts[0] + "\n")
    try:
        assert cli.main(["choose", "--layout", layout, "--card", str(tmp_path), "-"]) == 2
    finally:
        sys.stdin = old
    err = capsys.readouterr().err
    assert err.startswith("attila choose: line 1: the card failed: %s: block " % (tmp_path / FILE))
    assert err.endswith(" is damaged or out of place\n")
