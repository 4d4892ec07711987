"""The watchdog is never starved by the opponent's longest decisions, on the chip.

On the emulated RP2040 (MicroPython's own build, the firmware as `make
flash` builds it), machine.WDT runs with the reference profile's timeout.

In main.py's loop (the board's own way of thinking): each level makes its
longest decision of the bench's game (make bench, pico_thinking: beginner
and easy right after setup, normal and strong with 12 free squares:
strong's hard stage, four times its budgets), the profile's budget_ms, a
slice a loop, while main.run() feeds the watchdog; the decision is shown
within its budget_ms and no reset happens.

Blocking (choose, as a port without the Planner would call it):
the watchdog is fed before every decision; each level decides in the
positions where it thinks longest: the empty board (20 placements), right
after setup (the most moves), and mid-game (11 free squares: strong's hard
stage, where a blocking call still keeps to budget_ms). A decision longer
than the watchdog resets the chip: the test names the level and the
position.

The same boot checks the flashed setup book (layout.book, next to
layout.json): the board's first placement at NORMAL is the book's, decided
without a search, and a lookup's cost in emulated µs is printed.
"""

import json
import os

from attila.opponent.levels import BEGINNER, DEEP, EASY, LEVEL_NAMES, NODES, NORMAL, STRONG, deepening
from attila.opponent import book
from attila.game import layoutfile
from attila import profile as profiles
from attila.game.geometry import popcount
from attila.game.notation import replay
from attila.game.rules import Game

from conftest import LAYOUT, ROOT, profile
from tools.pico import thinking
from tools.pico.chip import PicoError

SETUP = "@a1 @b1 @c1 @d1 @e1 @a2"
LONGEST = (  # each level's longest decision in make bench's game (pico_thinking)
    (BEGINNER, "after setup", SETUP),
    (EASY, "after setup", SETUP),
    (NORMAL, "12 free", SETUP + " a1-c2,a1 b1-d2,b1"),
    (STRONG, "12 free", SETUP + " a1-c2,a1 b1-d2,b1"),
)

POSITIONS = (
    ("empty board", "...../...../...../..... R"),
    ("after setup", ".H.../H.R.R/.H.../.R... R"),
    ("mid-game", "R.x.H/.x.../H.x.R/..HR. R"),
)

ON_CHIP = """
import json, machine, time
from attila.opponent.levels import LEVEL_NAMES, NORMAL
from attila.opponent.planner import Planner, choose, stats
from attila.game.notation import parse_position
wdt = machine.WDT(timeout=%(wdt)d)
for level in range(4):
    for name, text in %(positions)r:
        game = parse_position(text)
        wdt.feed()
        t = time.ticks_ms()
        choose(game, level=level, budget_ms=%(budget)d, seed=1)
        ms = time.ticks_diff(time.ticks_ms(), t)
        wdt.feed()
        print(json.dumps([LEVEL_NAMES[level], name, ms, stats()[0]]))
from attila.opponent import book
from attila.game import layoutfile
from attila.game.rules import Game
layout = layoutfile.load("layout.json")[0]
b = book.open("layout.book", layout)
game = Game(layout)
t = time.ticks_us()
square = b.placement(game)
us = time.ticks_diff(time.ticks_us(), t)
p = Planner(NORMAL, book=b)
p.start(game, 0)
print(json.dumps(["book", square, us, p.busy, p.step(0), p.result(), p.nodes]))
print("done")
"""


def test_no_opponent_decision_starves_the_watchdog(flashed):
    prof = profiles.load(profile("pico.json"))
    board = flashed("pico.json", extra={"maintenance": b""})
    code = ON_CHIP % {"wdt": prof.watchdog_ms, "budget": prof.budget_ms,
                      "positions": POSITIONS}
    with board:
        board.pico.wait_for(b">>> ", 20000, since=0)
        board.pico.mark()
        board.pico.write(b"\x03\x01")  # raw REPL, then the script
        board.pico.wait_for(b"raw REPL; CTRL-B to exit\r\n>", 5000)
        board.pico.mark()
        board.pico.write(code.encode() + b"\x04")
        try:
            board.pico.wait_for(b"done", max_ms=4 * len(POSITIONS) * prof.watchdog_ms)
        except PicoError:
            pass  # a reset, or a hang: said below
        lines = board.pico.output().replace("OK", "", 1).splitlines()  # raw REPL: OK, output
        said = [json.loads(line) for line in lines if line.startswith("[")]
        booked = [s for s in said if s[0] == "book"]
        said = [s for s in said if s[0] != "book"]
        for level, name, ms, nodes in said:
            print("%-8s %-12s %6d ms %6d nodes" % (level, name, ms, nodes))
        resets = board.pico.resets
    assert resets == [], "the watchdog reset the chip after: %s" % (said[-1:] or "nothing")
    assert len(said) == 4 * len(POSITIONS)
    slowest = max(said, key=lambda s: s[2])
    assert slowest[2] < prof.watchdog_ms, slowest
    # Each within budget_ms, give or take a slice between clock readings
    # (64 nodes: about 3 ms), strong's hard stage too (mid-game: 11 free).
    assert slowest[2] <= prof.budget_ms + 10, slowest
    # The flashed book answers on the chip as on the host: the empty board's c2.
    assert len(booked) == 1, lines
    _, square, us, busy, stepped, action, nodes = booked[0]
    print("book lookup on the chip: %d us" % us)
    layout = layoutfile.load(LAYOUT)[0]
    host = book.open(os.path.join(ROOT, "boards", "solved", "4x5.book"), layout)
    assert square == host.placement(Game(layout)) == layout.index("c2")
    host.close()
    assert (busy, stepped, action, nodes) == (False, True, layout.index("c2"), 0)  # @c2


def _free(log):
    """Free squares after the actions of `log` on the reference layout."""
    game = Game(layoutfile.load(LAYOUT)[0])
    replay(game, log)
    return popcount(game.free())


def test_the_longest_decision_of_each_level_in_main_loop_keeps_the_watchdog_fed(flashed):
    board = flashed("pico.json", extra={"maintenance": b""})
    prof = board.prof
    rows = []
    with board:
        try:
            thinking.decisions(board, LONGEST, out=rows.append)
        except PicoError:
            pass  # a reset, or a hang: said below
        resets = board.pico.resets
    for r in rows:
        print("%-8s %-12s %5d ms %5d nodes, steps: start %d us, longest %d us"
              % (r.level, r.name, r.ms, r.nodes, r.start, r.longest))
    assert resets == [], "the watchdog reset the chip after: %s" % (rows[-1:] or "nothing")
    assert [(r.level, r.name) for r in rows] == [
        (LEVEL_NAMES[level], name) for level, name, _log in LONGEST]
    deep = [deepening(level, _free(log)) for level, _name, log in LONGEST]
    for r, d in zip(rows, deep):
        assert r.action, r  # a decision, shown
        assert r.ms <= prof.budget_ms * d, r
    # Normal and strong stop on their node budget, not on budget_ms (a cap):
    # the same search on a faster machine; strong's 12 free squares are its
    # hard stage, four times both.
    assert deep == [1, 1, 1, DEEP]
    assert [r.nodes for r in rows[2:]] == [NODES[NORMAL],
                                          NODES[STRONG] * DEEP]
