"""The opponent under MicroPython (unix port): time, nodes and heap per decision.

Run by tools/bench/run.py as  MICROPYPATH=firmware:tools/bench micropython mpy_opponent.py

The reference board is an RP2040 at 125 MHz. We assume MicroPython there runs
this search RP2040_FACTOR times slower than the unix port on the host (see the
README), so the board's 2 s budget is emulated here as 2000 / RP2040_FACTOR ms.
Heap: each decision runs with the garbage collector disabled, so
gc.mem_alloc() after minus before is everything it allocated (an upper bound
on the extra heap it needs); the module itself is counted apart.
"""

import gc
import time

import attila.notation  # noqa: E402,F401  (the core, counted by mpy_core)
import attila.rules  # noqa: E402,F401

gc.collect()
_base = gc.mem_alloc()
from attila import opponent  # noqa: E402

gc.collect()
_module = gc.mem_alloc() - _base

from attila.geometry import from_rows  # noqa: E402
from attila.notation import parse_position, play  # noqa: E402
from attila.rules import MOVE, OVER, Game  # noqa: E402

RP2040_FACTOR = 40
BOARD_BUDGET_MS = 2000

POSITIONS = (
    ("empty board", "...../...../...../..... R"),
    ("last placement", "RH.H./....R/.R.../..H.. H"),
    ("after setup", "RH.H./....R/.R.../..H.. R"),
    ("after setup 2", ".H.../H.R.R/.H.../.R... R"),
    ("12 free", "x..../RH.../..R.x/.H.RH R"),
    ("10 free", "xx.x./RHx../..R.x/.H.RH R"),
)


def _decide(game, level, budget_ms, nodes=None):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    t = time.ticks_ms()
    text = opponent.choose(game, level=level, budget_ms=budget_ms, nodes=nodes, seed=1)
    ms = time.ticks_diff(time.ticks_ms(), t)
    used = gc.mem_alloc() - before
    gc.enable()
    n, stopped = opponent.stats()
    return text, ms, used, n, stopped


def _lcg_games(count, free_left):
    """Positions in play with `free_left` free squares, from seeded random games."""
    layout = from_rows(["....."] * 4)
    seed = 7
    out = []
    while len(out) < count:
        game = Game(layout)
        while game.phase != OVER:
            seed = (seed * 1664525 + 1013904223) & 0x3FFFFFFF
            if game.phase == MOVE and bin(game.free()).count("1") <= free_left:
                break
            # A weak but varied line: the beginner level with a fresh seed.
            play(game, opponent.choose(game, level=0, budget_ms=10 ** 6, nodes=60, seed=seed))
        if game.phase == MOVE:
            out.append(game)
    return out


def main():
    budget = BOARD_BUDGET_MS // RP2040_FACTOR
    print("assumed RP2040 slowdown vs host unix port: %d x" % RP2040_FACTOR)
    print("emulated board budget on host: %d ms" % budget)
    print("heap opponent module (source import): %d bytes" % _module)
    worst_heap = 0
    worst_ms = 0
    for name, text in POSITIONS:
        game = parse_position(text)
        _, ms, used, n, stopped = _decide(game, opponent.STRONG, budget)
        worst_heap = max(worst_heap, used)
        worst_ms = max(worst_ms, ms)
        print("strong %s nodes: %d nodes" % (name, n))
        print("strong %s time: %d ms" % (name, ms))
        print("strong %s heap allocated: %d bytes" % (name, used))
    print("strong worst time per decision (host): %d ms" % worst_ms)
    print("strong worst time per decision (RP2040 est.): %d ms" % (worst_ms * RP2040_FACTOR))
    print("strong worst heap allocated per decision: %d bytes" % worst_heap)
    # Node rate with a fixed node budget.
    game = parse_position(POSITIONS[2][1])
    _, ms, used, n, _ = _decide(game, opponent.STRONG, 10 ** 6, 4000)
    print("node rate (host): %d nodes/s" % (n * 1000 // max(1, ms)))
    print("node rate (RP2040 est.): %d nodes/s" % (n * 1000 * 1 // max(1, ms * RP2040_FACTOR)))
    # Exact endgames: how much an exact solve takes by free squares left.
    for free_left in (5, 6, 7, 8):
        costs = []
        counts = []
        for game in _lcg_games(10, free_left):
            _, ms, used, n, stopped = _decide(game, opponent.STRONG, 10 ** 6, 10 ** 6)
            costs.append(ms)
            counts.append(n)
            worst_heap = max(worst_heap, used)
        costs.sort()
        counts.sort()
        print("exact solve %d free median: %d nodes" % (free_left, counts[len(counts) // 2]))
        print("exact solve %d free worst: %d nodes" % (free_left, counts[-1]))
        print("exact solve %d free worst (RP2040 est.): %d ms"
              % (free_left, costs[-1] * RP2040_FACTOR))
    for level in range(3):
        game = parse_position(POSITIONS[2][1])
        _, ms, used, n, _ = _decide(game, level, budget)
        print("%s after setup: %d nodes, %d ms" % (opponent.LEVEL_NAMES[level], n, ms))
    print("worst heap allocated per decision: %d bytes" % worst_heap)


main()
