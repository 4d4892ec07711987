"""`attila card --opening` and the board's reader of its file (attila.opponent.opening).

The opening table holds the positions with at most one square scorched,
folded by the layout's symmetries. Its answers are checked against the
retrograde tables they come from, every such position of small layouts
with eight, four, two symmetries and none, and the 4x5 table that ships in
boards/solved against the search solver (attila_tools.solve.solver), an
independent program. Damaged, foreign and misplaced files each get their
one-line CardError.
"""

import os

import pytest

from attila.opponent.card import BLOCK, FILE, CardError
from attila.game.layoutfile import load
from attila.opponent.opening import Opening, map_blocks
from attila.game.rules import MOVE, Game
from attila_tools import cli
from attila_tools.solve import retro
from attila_tools.solve.card_cmd import write_card, write_opening
from attila_tools.solve.retro_index import placements
from attila_tools.solve.symmetry import automorphisms
from attila_tools.squares import bits
from test_card_cmd import SMALL, WIDER, _tables

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PORTABLE = os.path.join(ROOT, "tests", "portable")
SQUARE = {"name": "square", "custom": True, "rows": ["...", "...", "..."]}
GATE = {"name": "gate", "custom": True, "rows": ["....", "....", ".--."]}


def _first_turn(tables):
    """Every position with at most one square scorched: (mover, other, scorched)."""
    ix = tables.index
    for mover, other in placements(ix):
        yield mover, other, 0
        for c in bits(ix.all & ~(mover | other)):
            yield mover, other, 1 << c


@pytest.mark.parametrize("data,symmetries", [(SQUARE, 8), (SMALL, 4), (GATE, 2), (WIDER, 1)],
                         ids=["9 squares", "12 squares", "10 squares", "14 squares"])
def test_the_opening_table_answers_as_the_tables(tmp_path, data, symmetries):
    tables = _tables(data)
    assert len(automorphisms(tables.layout)) == symmetries
    path = str(tmp_path / "t.opening")
    size = write_opening(tables, path)
    assert size == os.path.getsize(path)
    with open(path, "rb") as f:
        table = Opening(f, tables.layout)
        count = 0
        step = 1 if tables.layout.size < 14 else 9  # 14 squares: every 9th (540,540 in all)
        for k, p in enumerate(_first_turn(tables)):
            if k % step == 0:
                assert table.won(*p) == tables.won(*p), p
                count += 1
    assert count == (tables.index.rows * (tables.index.m + 1) + step - 1) // step


def test_folding_keeps_a_quarter_of_the_4x5_table():
    """375 KB in 750 blocks: the head, 5 blocks of fold map, 744 of table
    (then the reply table's 733: tests/tools/solve/test_replies.py)."""
    layout = load(os.path.join(ROOT, "boards", "4x5.json"))[0]
    path = os.path.join(ROOT, "boards", "solved", "4x5.opening")
    with open(path, "rb") as f:
        table = Opening(f, layout, "4x5.opening")
        assert table.title == "4x5" and table._rfirst == 750 and map_blocks(20) == 5
        for k in range(750):  # every block's trailer: number, layout, sum
            table._read(k)
        # 294 of the 1,140 placements of the other side are kept: 1140 / 4 plus
        # those a symmetry maps onto themselves.
        assert table._canon == 294


# Positions of 4x5 (mover, other, scorched) the search solver settles within a
# second each: four won and two lost, one with nothing scorched.
_SOLVER_CHECKS = (
    ("c1 a4 d4", "a1 e1 e4", "d2"),
    ("b2 c2 a4", "a3 c3 c4", "d3"),
    ("d2 c3 a4", "b3 d3 c4", "d4"),
    ("a1 e2 d3", "d1 c4 e4", ""),
    ("b1 c3 e4", "d2 a3 a4", "d1"),
    ("e1 e3 d4", "a1 d1 b3", "c1"),
)


def test_the_4x5_table_agrees_with_the_search_solver():
    from attila_tools.solve.solver import Solver

    layout = load(os.path.join(ROOT, "boards", "4x5.json"))[0]
    solver = Solver(layout)
    where = {(layout.files[i], layout.ranks[i]): i for i in range(layout.size)}

    def mask(names):
        return sum(1 << where[ord(n[0]) - 97, int(n[1:]) - 1] for n in names.split())

    with open(os.path.join(ROOT, "boards", "solved", "4x5.opening"), "rb") as f:
        table = Opening(f, layout)
        seen = set()
        for mover, other, scorched in _SOLVER_CHECKS:
            me, opp, sc = mask(mover), mask(other), mask(scorched)
            won = table.won(me, opp, sc)
            assert won == bool(solver.win(me, opp, layout.all & ~(me | opp | sc))), mover
            seen.add(won)
    assert seen == {0, 1}


def test_damaged_foreign_and_misplaced_tables_say_why(tmp_path):
    tables = _tables(SMALL)
    lay = tables.layout
    path = tmp_path / "t.opening"
    write_opening(tables, str(path))
    data = path.read_bytes()

    def opened(raw):
        path.write_bytes(raw)
        return Opening(open(str(path), "rb"), lay, "layout.opening")

    def fails(raw):
        with pytest.raises(CardError) as e:
            table = opened(raw)
            for p in _first_turn(tables):
                table.won(*p)
        return str(e.value)

    damaged = bytearray(data)
    damaged[1 * BLOCK + 3] ^= 4  # the fold map: read as the table opens
    assert fails(bytes(damaged)) == "layout.opening: block 1 is damaged or out of place"
    damaged = bytearray(data)
    damaged[(map_blocks(12) + 2) * BLOCK + 40] ^= 1  # the table: read when asked
    assert fails(bytes(damaged)) == ("layout.opening: block %d is damaged or out of place"
                                     % (map_blocks(12) + 2))
    assert fails(data[:-BLOCK]) == "layout.opening: cut short at block %d" % (len(data) // BLOCK - 1)
    # A map entry out of range in a block whose check passes (a faulty writer):
    # said at the lookup, never read past the table.
    from attila.opponent.card import seal, tag

    wrong = bytearray(data)
    block = bytearray(wrong[BLOCK:2 * BLOCK])
    block[0] = 7 << 5  # symmetry 7 of the 3 the file has
    seal(block, 1, tag(lay))
    wrong[BLOCK:2 * BLOCK] = block
    assert fails(bytes(wrong)) == "layout.opening: the fold map is damaged"
    write_card(tables, str(tmp_path / FILE))
    assert fails((tmp_path / FILE).read_bytes()) == "layout.opening: not an opening table"
    other = _tables(WIDER)
    path2 = tmp_path / "w.opening"
    write_opening(other, str(path2))
    assert fails(path2.read_bytes()) == (
        "layout.opening: the tables are for another layout (wider, 14 squares)")


def test_a_winning_first_turn_and_none_after_it(tmp_path):
    """ask() covers the first turn of play; from the first scorch the search decides."""
    tables = _tables(SMALL)
    lay = tables.layout
    path = str(tmp_path / "t.opening")
    write_opening(tables, path)
    won = lost = 0
    with open(path, "rb") as f:
        table = Opening(f, lay)
        for mover, other in list(placements(tables.index))[::7]:
            game = Game(lay)
            game.knights = [mover, other]
            game.scorched = 0
            game.settle(0)
            if game.phase != MOVE or game.knights[game.side] != mover:
                continue
            turn = table.winning_turn(game)
            if tables.won(mover, other, 0):
                a, b, c = turn >> 12 & 63, turn >> 6 & 63, turn & 63
                assert turn >> 18 == 1 and lay.knight[a] >> b & 1
                mover1 = mover ^ (1 << a | 1 << b)
                assert not tables.won(other, mover1, 1 << c)
                won += 1
            else:
                assert turn == -1
                lost += 1
            game.scorched = 1 << bits(lay.all & ~(mover | other))[0]
            assert not table.ask(game)
    assert won > 100 and lost > 5, (won, lost)


def test_attila_card_opening_writes_the_table_of_a_solved_layout(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(retro, "CACHE", str(tmp_path / "retro"))
    layout = tmp_path / "small.json"
    import json

    layout.write_text(json.dumps(SMALL))
    dest = tmp_path / "solved"
    assert cli.main(["card", "--opening", str(layout), str(dest), "--quiet"]) == 2
    assert capsys.readouterr().err == (
        "attila card: small is not solved: run attila solve --from-setup %s --keep-tables "
        "(or attila card --solve)\n" % layout)
    assert cli.main(["card", "--opening", str(layout), str(dest), "--solve", "--quiet"]) == 0
    path = dest / "small.opening"
    assert capsys.readouterr().out == (
        "small: opening table %s (6 KB): the first turn of play, folded\n" % path)
    assert os.path.getsize(str(path)) == 11 * BLOCK
    expected = tmp_path / "x.opening"
    write_opening(_tables(SMALL), str(expected))
    assert path.read_bytes() == expected.read_bytes()


def test_the_portable_tests_table_is_what_attila_card_writes(tmp_path):
    """tests/portable/opening_12.opening and .txt (read on MicroPython) match the tables."""
    tables = _tables(SMALL)
    path = tmp_path / "t.opening"
    write_opening(tables, str(path))
    with open(os.path.join(PORTABLE, "opening_12.opening"), "rb") as g:
        assert path.read_bytes() == g.read()
    with open(os.path.join(PORTABLE, "opening_12.txt")) as f:
        rows = [[int(w) for w in line.split()] for line in f if not line.startswith("#")]
    assert len(rows) == 400
    for mover, other, scorched, won in rows:
        assert bin(scorched).count("1") <= 1
        assert tables.won(mover, other, scorched) == won


def write_portable_files():  # pragma: no cover - run by hand when the format changes
    """python -c 'import test_opening_cmd as t; t.write_portable_files()' (from this folder)."""
    import random

    tables = _tables(SMALL)
    write_opening(tables, os.path.join(PORTABLE, "opening_12.opening"))
    rng = random.Random(12)
    every = list(_first_turn(tables))
    with open(os.path.join(PORTABLE, "opening_12.txt"), "w") as f:
        f.write("# mover other scorched won: 400 positions of opening_12.opening (layout "
                "'small', 3x4), from the retrograde tables\n")
        for mover, other, scorched in rng.sample(every, 400):
            f.write("%d %d %d %d\n" % (mover, other, scorched, tables.won(mover, other, scorched)))
