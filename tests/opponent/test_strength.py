"""The strong level keeps the win, at the board's own node budget.

Two sets of won positions of the 4x5 board, each with its winning turns
from the retrograde tables (attila_tools.solve.retro: every turn after which the
other side is lost), written here so that the test needs no 1.6 GB table:

- strength_4x5.txt: make bench's own sample (tools/bench/bench_strength.py,
  its seeded games), the first three won positions of each stage from 14
  free squares down to 9 and each side to act, none picked by hand
  (tests/opponent/record_strength.py);
- HARD: positions of the stages where the strong level is weakest, each with
  one to five winning turns among 60 to 112, picked because the search found
  them hard. At the board's budget it still throws one of them away (13
  free squares; THROWN: a strict xfail, so that a search that keeps it
  says so); the last one (12 free) it kept only once the hard stage
  searched four times the nodes (DEEP_FREE). The
  first two are first turns of play that the search alone throws away
  (FIRST_TURNS): the board keeps them with its opening table.

The decision is the board's: its node budget (NODES[STRONG]; the
same search makes the same choice at the same nodes on every machine) and
its opening table (boards/solved/4x5.opening, attila.opponent.opening), as a flashed
board has them (make bench's strength table has the rates).
"""

import os

import pytest

from attila.opponent.levels import NODES, STRONG, deepening
from attila.opponent.planner import choose, stats
from attila.game.geometry import popcount
from attila.game.notation import parse_position

HERE = os.path.dirname(os.path.abspath(__file__))
FIRST_TURNS = (
    ("..H../.R.HR/....R/.H... R", {"e2-c3,d2"}, "e2-c1,a3"),
    ("R...H/R...R/....H/..H.. R", {"e3-c2,d4"}, "a4-c3,d2"),
)
HARD = tuple((text, wins) for text, wins, _searched in FIRST_TURNS) + (
    ("R..../R...H/..RHH/..... R", {"a4-c3,c1"}),
    (".RH.R/....H/...RH/..... R", {"e4-c3,c1", "e4-c3,d4"}),
    (".R.R./.R.../..xH./.H.H. R", {"d4-e2,b2"}),
    ("..H../..R../.HHxR/..R.. R", {"c1-d3,a3", "c1-d3,e3"}),
    ("x...H/...../HRH.R/...Rx R", {"d1-c3,d2"}),
    ("H.H../..x.R/.Rx../.RH.. R", {"b2-d3,b2"}),
    ("R..../.HxR./...H./RHx.. R", {"a4-b2,a3", "a4-b2,c4", "a4-b2,d4", "a4-b2,e2", "a4-b2,e3"}),
)
# Thrown away at the board's 22,000 nodes (the turn it plays instead).
THROWN = {
    ".R.R./.R.../..xH./.H.H. R": "d4-e2,e3",
}


def _sample():
    with open(os.path.join(HERE, "strength_4x5.txt")) as f:
        rows = [line.rstrip("\n").split("  ") for line in f if not line.startswith("#")]
    return [(text, set(wins.split())) for _stage, text, wins in rows]


_OPENING = []


def _opening(layout):
    """The 4x5 opening table, open (once)."""
    if not _OPENING:
        from attila.opponent.opening import Opening

        path = os.path.join(os.path.dirname(os.path.dirname(HERE)), "boards", "solved",
                            "4x5.opening")
        _OPENING.append(Opening(open(path, "rb"), layout, path))
    return _OPENING[0]


def _choose(text, opening=True):
    game = parse_position(text)
    action = choose(game, STRONG, budget_ms=10 ** 9,
                             card=_opening(game.layout) if opening else None)
    deep = deepening(STRONG, popcount(game.free()))
    assert stats()[0] <= NODES[STRONG] * deep
    return action


@pytest.mark.parametrize("text,winning", _sample())
def test_the_strong_level_keeps_the_win_in_make_benchs_sample(text, winning):
    action = _choose(text)
    assert action in winning, (text, action)


@pytest.mark.parametrize("text,winning", [
    pytest.param(text, winning, marks=pytest.mark.xfail(
        strict=True, reason="thrown at the board's node budget: plays %s" % THROWN[text]))
    if text in THROWN else (text, winning) for text, winning in HARD])
def test_the_strong_level_keeps_the_win_in_hard_positions(text, winning):
    action = _choose(text)
    assert action in winning, (text, action)


def test_the_thrown_ones_are_thrown_as_recorded():
    for text, action in THROWN.items():
        assert _choose(text) == action


@pytest.mark.parametrize("text,winning,searched", FIRST_TURNS)
def test_the_search_alone_throws_the_first_turns_the_opening_table_keeps(text, winning, searched):
    assert _choose(text, opening=False) == searched
    assert searched not in winning
