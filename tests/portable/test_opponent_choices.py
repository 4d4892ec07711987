"""The opponent's choices at fixed node budgets, recorded: both kernels make them.

opponent_choices.json holds choices recorded from the recursive search the
resumable one replaced (commit c5b44c9), re-recorded when the strong level's
root got its null-window scout (the lower levels' entries came out the
same; tests/opponent/record_choices.py): positions in setup, play and
the scorch step on every 20-square layout, random small layouts and the
8x8 board, at every level and fixed node budgets. The same action must come
out after the same number of nodes, with the kernel this port has (viper on
MicroPython unix; the portable one on CPython and WebAssembly), in slices
of any size, and both kernels must agree where both run.
"""

import json

import check

from attila.opponent.levels import reseed
from attila.opponent.planner import Planner
from attila.opponent import search
from attila.game.geometry import from_rows
from attila.game.notation import parse_position, play
from attila.game.rules import OVER, Game

try:
    _HERE = __file__.rsplit("/", 1)[0]
except NameError:  # a port without __file__
    _HERE = "tests/portable"
BIG = 10 ** 9  # a time budget that never runs out


def entries(most_nodes):
    """The recorded choices with a node budget up to most_nodes, one at a time."""
    with open(_HERE + "/opponent_choices.json") as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                e = json.loads(line.rstrip(","))
                if e["nodes"] <= most_nodes:
                    yield e


def game_of(e):
    game = parse_position(e["pos"], e["tiles"])
    if e["half"]:
        a, b = e["half"].split("-")
        game.move(game.layout.index(a), game.layout.index(b))
    return game


def decide(planner, e):
    planner.level = e["level"]
    planner.node_budget = e["nodes"]
    reseed(e["seed"])
    text = planner.decide(game_of(e), lambda: 0)
    return text, planner.nodes


def check_all(planner, most_nodes, every=1):
    count = 0
    for k, e in enumerate(entries(most_nodes)):
        if k % every:
            continue
        got = decide(planner, e)
        assert got == (e["choice"], e["searched"]), (e, got)
        count += 1
    return count


def test_same_choices_as_the_recursive_search():
    if search.NATIVE:
        assert check_all(Planner(budget_ms=BIG), 20000) == 629
    else:
        # The portable kernel is slow on WebAssembly: the small budgets here,
        # all of them on CPython (tests/opponent/test_same_choices.py).
        assert check_all(Planner(budget_ms=BIG), 600) > 250


def test_slices_of_any_size_give_the_same_choices():
    for size in (1, 7, 1000):
        assert check_all(Planner(budget_ms=BIG, slice_nodes=size), 600, 5) > 50


def test_both_kernels_choose_alike():
    if not search.NATIVE:
        # No native emitter (CPython, WebAssembly): the portable kernel runs.
        import sys

        assert sys.implementation.name != "micropython" or sys.platform == "webassembly"
        check.skip("no viper kernel on %s: one kernel only" % sys.platform)
    assert check_all(Planner(budget_ms=BIG, native=False), 600) > 250


def test_both_kernels_choose_alike_up_to_30_squares():
    # The viper kernel's limit: every mask bit of a 6x5 board, all game long.
    if not search.NATIVE:
        import sys

        check.skip("no viper kernel on %s: one kernel only" % sys.platform)
    layout = from_rows(["......"] * 5)
    assert layout.size == 30 and search.kernel(layout).MAX_SQUARES == 30
    bigger = from_rows(["......"] * 5 + [".-----"])  # 31 squares: the portable kernel
    assert search.kernel(bigger) is not search.kernel(layout)
    fast = Planner(budget_ms=BIG)
    slow = Planner(budget_ms=BIG, native=False)
    for first in (0, 1):
        game = Game(layout, first)
        turn = 0
        while game.phase != OVER:
            level = turn % 4
            answers = []
            for p in (fast, slow):
                p.level = level
                p.node_budget = 400
                reseed(turn)
                answers.append((p.decide(game, lambda: 0), p.nodes))
            assert answers[0] == answers[1], (level, answers)
            assert fast._search.native and not slow._search.native
            play(game, answers[0][0])
            turn += 1
        assert turn > 10
