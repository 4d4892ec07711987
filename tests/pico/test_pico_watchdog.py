"""The watchdog is never starved by the opponent's longest decisions, on the chip.

On the emulated RP2040 (MicroPython's own build, the firmware as `make
flash` builds it), machine.WDT runs with the reference profile's timeout
and is fed before every decision, as the main loop feeds it before a step
in which the board decides. Each level decides, with the profile's
budget_ms, in the positions where it thinks longest: the empty board (20
placements), right after setup (the most moves), and mid-game. A decision
longer than the watchdog resets the chip: the test names the level and the
position that did it.
"""

import json

from attila import profile as profiles

from conftest import profile
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
        for level, name, ms, nodes in said:
            print("%-8s %-12s %6d ms %6d nodes" % (level, name, ms, nodes))
        resets = board.pico.resets
    assert resets == [], "the watchdog reset the chip after: %s" % (said[-1:] or "nothing")
    assert len(said) == 4 * len(POSITIONS)
    slowest = max(said, key=lambda s: s[2])
    assert slowest[2] < prof.watchdog_ms, slowest
