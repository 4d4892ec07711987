"""The opponent under MicroPython: nodes/s per kernel, the cost of one loop step, heap.

A plain MicroPython script that prints its figures, so it runs unchanged
on the unix port (make bench: tools/bench/run.py runs it with
MICROPYPATH=firmware:tools/bench) and on a board or the emulated Pico (copy
firmware/attila and this file, run it). Time is read with time.ticks_us,
which on the emulated RP2040 counts emulated cycles. On a chip (sys.platform
"rp2") the node budgets are smaller so that it ends in minutes.

Figures:
- node rate per kernel (viper where the port compiles it, portable):
  decisions of the strong level at a fixed node budget, read in one go
  (kernel speed) and in the kernel's default slices through Planner.step
  (what the board gets);
- one loop step: worst and mean time of step() at the default slice over
  whole decisions, the time of the root's own work included;
- heap: the modules; the first decision on a layout (its tables, stack and
  rows); a later decision (start() only: steps allocate nothing);
- exact solves by free squares left, and the lower levels' node counts.
"""

import gc
import sys
import time

import attila.game.notation  # noqa: F401  (the core, counted by mpy_core)
import attila.game.rules  # noqa: F401

gc.collect()
_base = gc.mem_alloc()
from attila.opponent.levels import LEVEL_NAMES, STRONG
from attila.opponent.planner import Planner, choose, stats
from attila.opponent import kernel, search

gc.collect()
_module = gc.mem_alloc() - _base

from attila.game.geometry import from_rows  # noqa: E402
from attila.game.notation import parse_position, play  # noqa: E402
from attila.game.rules import MOVE, OVER, Game  # noqa: E402

CHIP = sys.platform == "rp2"
NEVER = 10 ** 9  # a time budget that never runs out: node budgets decide
RATE_NODES = 4000 if CHIP else 40000  # per decision, viper
PORTABLE_NODES = 400 if CHIP else 8000  # per decision, portable kernel

POSITIONS = (
    ("empty board", "...../...../...../..... R"),
    ("last placement", "RH.H./....R/.R.../..H.. H"),
    ("after setup", "RH.H./....R/.R.../..H.. R"),
    ("after setup 2", ".H.../H.R.R/.H.../.R... R"),
    ("12 free", "x..../RH.../..R.x/.H.RH R"),
    ("10 free", "xx.x./RHx../..R.x/.H.RH R"),
)


def kernels():
    """(name, native flag, default slice) of the kernels this port runs."""
    portable = ("portable", False, kernel.SLICE)
    if search.NATIVE:
        from attila.opponent import kernelv

        return (("viper", True, kernelv.SLICE), portable)
    return (portable,)


def _us():
    return time.ticks_us()


def planner(native, nodes, slice_nodes=None):
    """A strong Planner with a node budget, its layout's tables made already."""
    p = Planner(STRONG, NEVER, slice_nodes, native)
    p.node_budget = nodes
    p.decide(parse_position(POSITIONS[0][1]), _zero)
    return p


def _zero():
    return 0


def decisions(native, nodes, slice_nodes=None):
    """Strong decisions over the positions, stepped on a 10 ms loop clock.

    (nodes/s, worst step µs, mean step µs, worst start() µs).
    """
    p = planner(native, nodes, slice_nodes)
    total = 0
    us = 0
    worst = 0
    worst_start = 0
    count = 0
    for _, text in POSITIONS:
        game = parse_position(text)
        t = _us()
        p.start(game, 0)
        dt = time.ticks_diff(_us(), t)
        worst_start = max(worst_start, dt)
        us += dt
        now = 0
        done = False
        while not done:
            now += 10
            t = _us()
            done = p.step(now)
            dt = time.ticks_diff(_us(), t)
            worst = max(worst, dt)
            us += dt
            count += 1
        total += p.nodes
    return total * 1000000 // max(1, us), worst, us // count, worst_start


def heap(native):
    """Bytes allocated by the first decision on a layout, by a later one, by its steps."""
    p = Planner(STRONG, NEVER, None, native)
    p.node_budget = 2000
    out = []
    for _, text in POSITIONS[:3]:
        game = parse_position(text)
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        p.start(game, 0)
        started = gc.mem_alloc()
        now = 0
        while not p.step(now):
            now += 10
        after = gc.mem_alloc()
        gc.enable()
        out.append((started - before, after - started))
    return out


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
            play(game, choose(game, level=0, budget_ms=NEVER, nodes=60, seed=seed))
        if game.phase == MOVE:
            out.append(game)
    return out


def main():
    print("platform: %s, viper kernel: %s" % (sys.platform, search.NATIVE))
    print("heap: opponent modules (imported): %d bytes" % _module)
    for name, native, size in kernels():
        nodes = RATE_NODES if native else PORTABLE_NODES
        print("node rate %s, in one go: %d nodes/s" % (name, decisions(native, nodes, NEVER)[0]))
        speed, worst, mean, start = decisions(native, nodes)
        print("node rate %s, %d-node slices: %d nodes/s" % (name, size, speed))
        print("step %s (%d-node slices): worst %d us, mean %d us; start() worst %d us"
              % (name, size, worst, mean, start))
        for k, (started, stepped) in enumerate(heap(native)):
            print("heap %s decision %d: start() %d bytes, its steps %d bytes"
                  % (name, k + 1, started, stepped))
    if CHIP:
        return
    for free_left in (5, 6, 7, 8):
        counts = []
        for game in _lcg_games(10, free_left):
            choose(game, STRONG, NEVER, nodes=10 ** 6)
            counts.append(stats()[0])
        counts.sort()
        print("exact solve %d free: median %d nodes, worst %d nodes"
              % (free_left, counts[len(counts) // 2], counts[-1]))
    for level in range(3):
        choose(parse_position(POSITIONS[2][1]), level, NEVER, seed=1)
        print("%s after setup: %d nodes" % (LEVEL_NAMES[level], stats()[0]))


main()
