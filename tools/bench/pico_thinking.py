"""The board thinking inside main.py's loop on the emulated Pico, per level.

    python tools/bench/pico_thinking.py          (make bench)

MicroPython's own RP2040 build (rp2040js; emulated time, a lower bound for a
real Pico: see tools/pico/README.md), the firmware as `make flash` builds it
(.mpy, the viper kernel for armv6m), the reference profile
(boards/profiles/pico.json): its loop, watchdog and budget_ms. For each
level and position a saved game is resumed with the pieces on the emulated
reed switches and main.run() steps the board (every loop_ms, a step right
after another while it searches), the watchdog fed, while the Planner
searches a slice a tick and the thinking light
animates (tools/pico/thinking.py). Printed per decision: its time on the
board's loop clock (from the loop that starts the search to the one that
shows the decision), the nodes searched, nodes per second in the loop, and
the loop steps (ticks_us around Board.step()): the one that starts the
search (it also saves the settled game to flash), then the median and the
longest of the others against the 10 ms loop. The same figures come out on
every run.
"""

import sys
import tempfile

from benchkit import LAYOUT, PROFILE  # (first: the paths)
from chipkit import POSITIONS

from pico import thinking
from pico.board import PicoBoard


def line(r):
    return ("%-8s %-14s %5d ms %5d nodes %5d nodes/s  %-10s steps: the start %5d us, then %3d:"
            " median %4d us, longest %5d us"
            % (r.level, r.name, r.ms, r.nodes, r.nodes * 1000 // max(r.ms, 1), r.action,
               r.start, r.steps, r.median, r.longest))


def main():
    folder = tempfile.mkdtemp(prefix="attila-bench-pico-")
    board = PicoBoard.flashed(folder, LAYOUT, PROFILE, extra={"maintenance": b""}).start()
    prof = board.prof
    print("pico.json: loop_ms %d, watchdog_ms %d, budget_ms %d (the board's loop clock)"
          % (prof.loop_ms, prof.watchdog_ms, prof.budget_ms))
    todo = [(level, name, log) for level in range(4) for name, log in POSITIONS]
    try:
        rows = thinking.decisions(board, todo, out=lambda r: (print(line(r)), sys.stdout.flush()))
        if board.pico.resets:
            raise SystemExit("the chip reset: %r" % board.pico.resets)
    finally:
        board.close()
    worst = max(rows, key=lambda r: r.longest)
    print("longest loop step while thinking: %d us (%s, %s) of the %d ms loop"
          % (worst.longest, worst.level, worst.name, prof.loop_ms))
    start = max(rows, key=lambda r: r.start)
    print("longest step starting a search (the save to flash, the search's tables): %d us (%s, %s)"
          % (start.start, start.level, start.name))
    strong = [r for r in rows if r.level == "strong"]
    print("strong level in the loop: %d nodes/s at the slowest, its longest decision %d ms"
          % (min(r.nodes * 1000 // r.ms for r in strong), max(r.ms for r in strong)))


if __name__ == "__main__":
    main()
