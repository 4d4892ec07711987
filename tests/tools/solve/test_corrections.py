"""The corrections (attila_tools.solve.corrections, attila.opponent.opening's third part).

On the 12-square layout of test_card_cmd (four symmetries) with a setup
book that places on the lowest legal square, and a search of 8 nodes (at
the board's own budget the search of so small a board is exact and throws
nothing): every position of the board's second turn of play as the first
placer that the book and the first turn lead to, won, is kept by the
opponent with the table, and where the table has no record the opponent's
turn is the search's own, node for node. The search's answers are kept
between runs.
"""

import os

from attila.opponent.card import BLOCK
from attila.opponent.levels import STRONG
from attila.opponent.opening import FIXES, Opening, correction_blocks
from attila.opponent.planner import Planner
from attila.game.geometry import popcount
from attila.game.notation import parse_position, parse_turn
from attila_tools.solve import corrections
from attila_tools.solve.card_cmd import write_opening
from attila_tools.solve.corrections import Corrections, Searcher, position_text
from attila_tools.solve.replies import book_setups
from test_card_cmd import SMALL, _tables
from test_replies import _Lowest, _game_at

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
NODES = 8


def _keeps(tables, game, text):
    a, b, c = parse_turn(game.layout, text)
    me, opp = game.knights[game.side], game.knights[game.side ^ 1]
    return not tables.won(opp, me ^ (1 << a | 1 << b), game.scorched | 1 << c)


def test_the_corrections_keep_every_win_the_search_would_throw(tmp_path):
    tables = _tables(SMALL)
    layout = tables.layout
    plan = Corrections(tables, _Lowest(), Searcher(str(tmp_path), quiet=True), (NODES,))
    thrown = plan.search()[NODES]
    records = plan.records(lines=False)
    won = plan.positions[NODES]
    assert len(won) > 1000 and 100 < len(thrown) < len(won) // 2, (len(won), len(thrown))
    # Folded by the four symmetries: a record may stand for more than one position.
    assert len(records) <= len(thrown) and len({k for k, _a in records}) == len(records)
    assert [k for k, _a in records] == sorted(k for k, _a in records)
    path = str(tmp_path / "t.opening")
    size = write_opening(tables, path, _Lowest(), records)
    searched = plan.searcher.choices(layout, [position_text(layout, *p) for p in won], NODES)
    with open(path, "rb") as f:
        table = Opening(f, layout)
        assert table.corrections == len(records)
        assert size == (table._cfirst + correction_blocks(len(records))) * BLOCK
        p = Planner(STRONG, 2000, card=table)
        p.node_budget = NODES
        fixed = 0
        for position in won:
            text = position_text(layout, *position)
            game = parse_position(text)
            turn = p.decide(game, lambda: 0)
            assert _keeps(tables, game, turn), text
            if p.nodes == 0:  # the table's
                fixed += 1
            else:  # none there: the search's own turn
                assert not table.lost and turn == searched[text], text
        assert fixed >= len(thrown)


def test_strong_play_on_both_sides_keeps_every_win_at_each_sides_second_turn(tmp_path):
    """After any setup one side placed from the book, both sides played by the
    board's own opponent (as a player following its hints plays): at the
    second turn of play of either side (two and three squares scorched) no
    win is thrown, and without the lines' records some are."""
    tables = _tables(SMALL)
    layout = tables.layout
    plan = Corrections(tables, _Lowest(), Searcher(str(tmp_path), quiet=True), (NODES,))
    plan.search()
    on_lines = plan.lines()[NODES]
    assert on_lines and set(on_lines).isdisjoint(plan.thrown[NODES])
    setups = sorted(book_setups(layout, _Lowest(), True) | book_setups(layout, _Lowest(), False))
    for with_lines in (True, False):
        path = str(tmp_path / ("lines.opening" if with_lines else "t.opening"))
        write_opening(tables, path, _Lowest(), plan.records(with_lines))
        with open(path, "rb") as f:
            p = Planner(STRONG, 2000, card=Opening(f, layout))
            p.node_budget = NODES
            lost = 0
            for first, second in setups:
                game = _game_at(layout, first, second, 0)
                while game.movable() and popcount(game.scorched) < 4:
                    text = p.decide(game, lambda: 0)
                    if popcount(game.scorched) >= 2 and tables.won(
                            game.knights[game.side], game.knights[game.side ^ 1], game.scorched):
                        lost += not _keeps(tables, game, text)
                    a, b, c = parse_turn(layout, text)
                    game.move(a, b)
                    game.scorch(c)
        assert (lost == 0) == with_lines, (with_lines, lost)


def test_the_searchers_answers_are_kept_and_a_cut_line_searched_again(tmp_path):
    tables = _tables(SMALL)
    layout = tables.layout
    plan = Corrections(tables, _Lowest(), Searcher(str(tmp_path), quiet=True), (NODES,))
    texts = [position_text(layout, *p) for p in sorted(plan.second_turns(NODES))[:300]]
    first = Searcher(str(tmp_path), quiet=True)
    got = first.choices(layout, texts, NODES)
    assert first.searched == 300
    again = Searcher(str(tmp_path), quiet=True)
    assert again.choices(layout, texts, NODES) == got and again.searched == 0
    [kept] = os.listdir(str(tmp_path))
    with open(os.path.join(str(tmp_path), kept)) as f:
        lines = f.readlines()
    with open(os.path.join(str(tmp_path), kept), "w") as f:
        f.writelines(lines[:-1] + [lines[-1].rsplit(" ", 1)[0] + "\n"])  # a stop mid-line
    last = Searcher(str(tmp_path), quiet=True)
    assert last.choices(layout, texts, NODES) == got and last.searched == 1
    # The same answers without MicroPython (the portable kernel here).
    here = Searcher(None, quiet=True, exe=None)
    assert here.choices(layout, texts[:40], NODES) == {t: got[t] for t in texts[:40]}


def test_the_budgets_are_the_ports():
    """A Pico's (the strong level's own, its hard stage included) and
    CircuitPython's, its port's pace (attila.opponent.levels)."""
    from attila.opponent.levels import CIRCUITPYTHON_NODES, STRONG, pace

    assert CIRCUITPYTHON_NODES == (400, 500, 500, 500)
    assert pace("circuitpython", STRONG) == (8, 4, 500)
    assert corrections.budgets() == (None, 500)
    assert FIXES == 84


def test_attila_card_opening_finds_the_corrections_where_the_layout_has_a_book(
        tmp_path, capsys, monkeypatch):
    """The 12-square layout solved with its book: its search, at either port's
    budget, is exact there and throws nothing; the command says so."""
    import json

    from attila_tools import cli
    from attila_tools.solve import retro, retro_cmd

    monkeypatch.setattr(retro, "CACHE", str(tmp_path / "retro"))
    monkeypatch.setattr(corrections, "CACHE", str(tmp_path / "kept"))
    layout = tmp_path / "small.json"
    layout.write_text(json.dumps(SMALL))
    solved = tmp_path / "solved"
    assert cli.main(["solve", "--from-setup", str(layout), "--out", str(solved),
                     "--keep-tables", "--quiet"]) == 0
    monkeypatch.setattr(retro_cmd, "SOLVED", str(solved))
    capsys.readouterr()
    assert cli.main(["card", "--opening", str(layout), str(solved), "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("small: the board's second turn of play, searched as the board searches "
                      "it (MicroPython unix; kept in %s)" % os.path.relpath(str(tmp_path / "kept")))
    assert out[1].startswith("small: at the board's budget the search throws 0 of ")
    assert out[1].endswith(" won positions as the first placer, and 0 more where both sides "
                           "play as the strong level")
    assert out[2].startswith("small: at 500 nodes the search throws 0 of ")
    assert out[3].endswith(" led; 0 corrections of the board's second turn (0 KB)")
    assert len(os.listdir(str(tmp_path / "kept"))) == 2  # the searches, a file a budget
    assert cli.main(["card", "--opening", str(layout), str(solved), "--quiet",
                     "--no-corrections"]) == 0
    assert capsys.readouterr().out.endswith(" led\n")


# boards/solved/4x5.opening: the records the board reads, and three of its
# positions, each with the table's turn and the board's search's (at its own
# budget, 88,000 nodes: its hard stage), judged by the search solver.
TABLE_4X5 = os.path.join(ROOT, "boards", "solved", "4x5.opening")
RECORDS_4X5 = 7918
CORRECTED = (
    # 12 free: the board placed first from its book, played its first turn
    # from the table, and the player a turn (tests/pico/test_pico_reply.py).
    ("...../.R.H./x.R../xRHH. R", "b1-c3,b2", "b1-c3,e2"),
    # 11 free: the Huns after following the strong level's hints against it
    # (tests/sim/test_sim_hints.py).
    (".x.H./..R.x/HHRx./..R.. H", "b2-d3,a3", "b2-d3,b1"),
)
# 12 free, where the book and the table lead; the search keeps the win there
# at either port's budget: no record, the board's search in full.
SEARCHED = ("...../.R.R./HxR.H/xH... R", "b3-d2,c3")


def test_the_4x5_corrections_are_whole_and_sorted():
    from attila.game.layoutfile import load

    layout = load(os.path.join(ROOT, "boards", "4x5.json"))[0]
    with open(TABLE_4X5, "rb") as f:
        table = Opening(f, layout, "4x5.opening")
        assert table.corrections == RECORDS_4X5
        first = table._cfirst
        assert table.blocks == first - 1 + correction_blocks(RECORDS_4X5)
        keys = []
        for k in range(correction_blocks(RECORDS_4X5)):
            table._read(first + k)  # its check: number, layout, sum
            for i in range(min(FIXES, RECORDS_4X5 - k * FIXES)):
                keys.append(int.from_bytes(table._buf[i * 6:i * 6 + 4], "big"))
    assert keys == sorted(set(keys))
    two = [k for k in keys if k < 1 << 29]  # two squares scorched, then three
    assert 7000 < len(two) < len(keys) and keys[-1] < 3 << 29


def _solver_keeps(game, text):
    from attila_tools.solve.solver import Solver

    layout = game.layout
    a, b, c = parse_turn(layout, text)
    me, opp = game.knights[game.side], game.knights[game.side ^ 1]
    me1 = me ^ (1 << a | 1 << b)
    free = layout.all & ~(me1 | opp | game.scorched | 1 << c)
    return not Solver(layout).win(opp, me1, free)


def test_the_board_plays_the_4x5_corrections_where_its_search_throws():
    from attila.opponent.planner import choose

    with open(TABLE_4X5, "rb") as f:
        for text, fixed, searched in CORRECTED:
            game = parse_position(text)
            p = Planner(STRONG, 2000, card=Opening(f, game.layout))
            assert p.decide(game, lambda: 0) == fixed and p.nodes == 0
            assert choose(game, STRONG, budget_ms=10 ** 9) == searched
            assert _solver_keeps(game, fixed) and not _solver_keeps(game, searched)


def test_a_position_the_corrections_lack_is_searched_in_full():
    """Its hard stage included, as without the table: not the held-out search
    of a position the table found lost."""
    from attila.opponent.planner import choose, stats

    text, turn = SEARCHED
    game = parse_position(text)
    assert choose(game, STRONG, budget_ms=10 ** 9) == turn and stats()[0] == 88000
    with open(TABLE_4X5, "rb") as f:
        p = Planner(STRONG, 2000, card=Opening(f, game.layout))
        assert p.decide(game, lambda: 0) == turn
        assert p.nodes == 88000 and not p.card.lost
