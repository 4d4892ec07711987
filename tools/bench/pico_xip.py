"""The board's figures with the RP2040's XIP cache misses charged, beside rp2040js's own.

    python tools/bench/pico_xip.py          (make bench)

rp2040js answers every read of the flash in one cycle, as if the firmware
sat in the XIP cache: every figure of the other pico_*.py scripts is a
lower bound. Here the same measures run twice on MicroPython's own RP2040
build, the reference profile (boards/profiles/pico.json) on boards/4x5.json:
as rp2040js has it, and with the chip's --xip-cache option
(tools/pico/xip.mjs: the 16 kB two-way cache of 8-byte lines, a miss
stalling the core 66 cycles for the line's quad-SPI read at clk_sys / 2,
an uncached read 50): how much slower each figure is, and whether it still
keeps to its budget:

- the idle loop step of main.py (pico_board.py's measure): its median under
  1 ms of its 10 ms loop;
- a sensor event to LED bytes on the pin, and the loop step that took it
  (pico_board.py; no budget: that step renders and writes a new frame and
  overruns the 10 ms loop on rp2040js already, delaying the next step);
- the strong level's decisions in main.py's loop (pico_thinking.py's
  measure, tools/pico/thinking.py) after setup and at 12 free squares (the
  hard stage: 4 times the node budget): the decision within its budget_ms
  (2000 ms; 8000 at the hard stage, the watchdog 5000 ms fed all along),
  at least 5,000 nodes/s, and the longest loop step while it thinks;
- the CircuitPython port's idle loop step (pico_circuitpython.py's measure,
  CircuitPython 10.2.1's own build, circuitpython-pico.json), whose
  interpreter and background work run from the flash too.
"""

import statistics
import tempfile

from benchkit import LAYOUT, PROFILE  # (first: the paths)
from chipkit import CP_PROFILE, POSITIONS, cp_idle_steps, idle_loop, latency_and_frame

from pico import thinking
from pico.board import PicoBoard

STRONG = 3
HARD = 4  # the strong level's hard stage searches 4 times its budget (and budget_ms)
NODES_S = 5000  # the strong opponent's speed target (docs/pages/inside/benchmarks.md)
IDLE_US = 1000  # the idle loop step's target


def decisions(xip):
    """Strong after setup and at 12 free squares: [thinking.Decision]."""
    folder = tempfile.mkdtemp(prefix="attila-bench-pico-")
    board = PicoBoard.flashed(folder, LAYOUT, PROFILE, extra={"maintenance": b""})
    board.pico.xip_cache = xip
    board.start()
    todo = [(STRONG, name, log) for name, log in POSITIONS if name in ("after setup", "12 free")]
    try:
        rows = thinking.decisions(board, todo)
        return rows, board.pico.xip
    finally:
        board.close()


def cp_idle(xip):
    """code.py's idle loop step on CircuitPython: (median, longest) us."""
    from pico import circuitpy

    if circuitpy.available():
        return None
    folder = tempfile.mkdtemp(prefix="attila-bench-cp-")
    board = PicoBoard.flashed(folder, LAYOUT, CP_PROFILE)
    board.pico.xip_cache = xip
    with board:
        board.pico.wait_for(b"attila:", 20000, since=0)
        steps = cp_idle_steps(board.pico, board.prof.loop_ms)
    return statistics.median(steps), max(steps)


def figures(xip):
    """{figure: value} of the reference board, and the cache's hits and misses."""
    out = {}
    median, worst, _loop_ms = idle_loop("pico.json", xip=xip)
    out["idle loop step, median (us)"] = median
    out["idle loop step, longest (us)"] = worst
    lines = latency_and_frame(xip=xip)
    out["sensor event to LED bytes (ms)"] = float(lines[0].split(": ")[1].split()[0])
    out["  its loop step, scan to last bit (us)"] = float(lines[1].split(": ")[1].split()[0])
    rows, counts = decisions(xip)
    for r in rows:
        out["strong %s: decision (ms)" % r.name] = r.ms
        out["strong %s: nodes/s" % r.name] = r.nodes * 1000 // max(r.ms, 1)
        out["strong %s: longest loop step (us)" % r.name] = r.longest
    cp = cp_idle(xip)
    if cp is not None:
        out["CircuitPython: idle loop step, median (us)"] = cp[0]
        out["CircuitPython: idle loop step, longest (us)"] = cp[1]
    return out, counts


def budget(name):
    """(the budget a figure keeps to, True if a figure must stay at or under it)."""
    if "idle loop step, median" in name:  # (the longest of CircuitPython's passes 1 ms on
        return IDLE_US, True              # rp2040js already: its sleep busy-waits a tick)
    if name.endswith("nodes/s"):
        return NODES_S, False
    if "longest loop step" in name:
        return 10000, True
    if name.endswith("decision (ms)"):
        return (HARD * 2000 if "12 free" in name else 2000), True
    return None, True


def main():
    ideal, _ = figures(False)
    charged, counts = figures(True)
    print("pico.json on 4x5, MicroPython 1.27: rp2040js (every flash read 1 cycle) beside the "
          "RP2040's XIP cache misses charged (16 kB, 2 ways, 8-byte lines, 66 cycles a miss)")
    print("%-44s %10s %10s %8s  %s" % ("figure", "rp2040js", "XIP", "slower", "budget"))
    for name, value in ideal.items():
        got = charged[name]
        limit, most = budget(name)
        if limit is None:
            verdict = ""
        else:
            ok = got <= limit if most else got >= limit
            verdict = "%s %s: %s" % ("at most" if most else "at least", limit,
                                     "kept" if ok else "MISSED")
        if name.endswith("nodes/s"):
            slower = "%+.1f %%" % (100.0 * (value / got - 1)) if got else "-"
        else:
            slower = "%+.1f %%" % (100.0 * (got / value - 1)) if value else "-"
        print("%-44s %10.1f %10.1f %8s  %s" % (name, value, got, slower, verdict))
    if counts:
        total = counts["hits"] + counts["misses"]
        print("XIP cache over the decisions' run: %d reads of the flash, %.2f %% missed"
              % (total, 100.0 * counts["misses"] / max(total, 1)))


if __name__ == "__main__":
    main()
