"""The opponent on the emulated Pico: nodes per second and blocking decision time per level.

    python tools/bench/pico_opponent.py          (make bench)

MicroPython's own RP2040 build at 125 MHz (rp2040js; emulated time, a lower
bound for a real Pico: see tools/pico/README.md), the firmware compiled with
mpy-cross as `make flash` puts it on a board. Decisions use the reference
profile's budget (boards/profiles/pico.json, game.budget_ms) and seed 1, so
every run prints the same figures. The search speed is given for the viper
kernel (what the board runs) and the portable one (its fallback), both
blocking; the board's own decisions, a slice per loop, are pico_thinking's.
"""

import sys
import tempfile

from benchkit import LAYOUT, PROFILE  # (first: the paths)

from attila import profile as profiles

from pico.board import PicoBoard

POSITIONS = (
    ("empty board", "...../...../...../..... R"),
    ("last placement", "RH.H./....R/.R.../..... H"),
    ("after setup", ".H.../H.R.R/.H.../.R... R"),
    ("12 free", "x..../RH.../..R.x/.H.RH R"),
    ("mid-game", "R.x.H/.x.../H.x.R/..HR. R"),
    ("10 free", "xx.x./RHx../..R.x/.H.RH R"),
)

ON_CHIP = """
import time
from attila.opponent.levels import LEVEL_NAMES
from attila.opponent.planner import Planner, choose, stats
from attila.game.notation import parse_position
def decide(text, level, budget, nodes=None):
    game = parse_position(text)
    t = time.ticks_us()
    action = choose(game, level=level, budget_ms=budget, seed=1, nodes=nodes)
    us = time.ticks_diff(time.ticks_us(), t)
    return action, us, stats()[0]
_, us, n = decide("%(rate)s", 3, 10 ** 6, 3000)
print("strong search speed, viper kernel (3000 nodes, after setup, blocking): %%d nodes/s"
      " (wanted: at least 5,000)" %% (n * 1000000 // us))
portable = Planner(3, 10 ** 6, native=False)
portable.node_budget = 3000
game = parse_position("%(rate)s")
t = time.ticks_us()
portable.decide(game, time.ticks_ms)
us = time.ticks_diff(time.ticks_us(), t)
print("strong search speed, portable kernel (3000 nodes, after setup, blocking): %%d nodes/s"
      %% (portable.nodes * 1000000 // us))
print("blocking decisions (opponent.choose), per level (in the loop: pico_thinking):")
for level in range(4):
    worst = 0
    for name, text in %(positions)r:
        action, us, n = decide(text, level, %(budget)d)
        worst = max(worst, us)
        print("%%-8s %%-15s %%6d ms %%6d nodes %%6d nodes/s  %%s"
              %% (LEVEL_NAMES[level], name, us // 1000, n, n * 1000000 // us, action))
    print("%%-8s longest decision: %%d ms" %% (LEVEL_NAMES[level], worst // 1000))
"""


def main():
    prof = profiles.load(PROFILE)
    folder = tempfile.mkdtemp(prefix="attila-bench-pico-")
    board = PicoBoard.flashed(folder, LAYOUT, PROFILE, extra={"maintenance": b""}).start()
    try:
        board.pico.wait_for(b">>> ", 20000, since=0)
        print("budget_ms %d (pico.json), watchdog_ms %d" % (prof.budget_ms, prof.watchdog_ms))
        code = ON_CHIP % {"rate": POSITIONS[2][1], "positions": POSITIONS, "budget": prof.budget_ms}
        board.pico.exec(code, max_ms=600000,
                        echo=lambda b: (sys.stdout.write(b.decode().replace("\r\n", "\n")),
                                        sys.stdout.flush()))
    finally:
        board.close()


if __name__ == "__main__":
    main()
