"""The watchdog is never starved by the opponent's longest decisions, on the chip.

On the emulated RP2040 (MicroPython's own build, the firmware as `make
flash` builds it), machine.WDT runs with the reference profile's timeout
and is fed before every decision, as the main loop feeds it before a step
in which the board decides. Each level decides, with the profile's
budget_ms, in the positions where it thinks longest: the empty board (20
placements), right after setup (the most moves), and mid-game. A decision
longer than the watchdog resets the chip: the test names the level and the
position that did it.

The same boot checks the flashed setup book (layout.book, next to
layout.json): the board's first placement at NORMAL is the book's, decided
without a search, and a lookup's cost in emulated µs is printed.
"""

import json
import os

from attila import book, layoutfile
from attila import profile as profiles
from attila.rules import Game

from conftest import LAYOUT, ROOT, profile
from pico.chip import PicoError

POSITIONS = (
    ("empty board", "...../...../...../..... R"),
    ("after setup", ".H.../H.R.R/.H.../.R... R"),
    ("mid-game", "R.x.H/.x.../H.x.R/..HR. R"),
)

ON_CHIP = """
import json, machine, time
from attila import opponent
from attila.notation import parse_position
wdt = machine.WDT(timeout=%(wdt)d)
for level in range(4):
    for name, text in %(positions)r:
        game = parse_position(text)
        wdt.feed()
        t = time.ticks_ms()
        opponent.choose(game, level=level, budget_ms=%(budget)d, seed=1)
        ms = time.ticks_diff(time.ticks_ms(), t)
        wdt.feed()
        print(json.dumps([opponent.LEVEL_NAMES[level], name, ms, opponent.stats()[0]]))
from attila import book, layoutfile
from attila.rules import Game
layout = layoutfile.load("layout.json")[0]
b = book.open("layout.book", layout)
game = Game(layout)
t = time.ticks_us()
square = b.placement(game)
us = time.ticks_diff(time.ticks_us(), t)
p = opponent.Planner(opponent.NORMAL, book=b)
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
    # The flashed book answers on the chip as on the host: the empty board's c2.
    assert len(booked) == 1, lines
    _, square, us, busy, stepped, text, nodes = booked[0]
    print("book lookup on the chip: %d us" % us)
    layout = layoutfile.load(LAYOUT)[0]
    host = book.open(os.path.join(ROOT, "boards", "solved", "4x5.book"), layout)
    assert square == host.placement(Game(layout)) == layout.index("c2")
    host.close()
    assert (busy, stepped, text, nodes) == (False, True, "@c2", 0)
