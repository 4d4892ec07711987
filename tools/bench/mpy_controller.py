"""Controller benchmark under MicroPython (unix port): cost per event and tick, heap.

Run by tools/bench/run.py as  MICROPYPATH=firmware:tools/bench micropython mpy_controller.py
(it runs on CPython too, for comparison). Prints `name: value unit` lines:

- idle tick: Controller.tick() with nothing to redraw (steady setup colours),
  and within a blink quantum (a correction blinking, between two redraws);
- redraw tick: a tick that re-renders the frame (blink, game-over pulse);
- unchanged reading: sense() with the same mask (the debouncer's steady state);
- sensor event: sense() with a new mask over a whole game of 32 actions by
  hand (lift, put, scorch; each re-renders), then the tick once the squares
  have settled (the save through a RAM store happens there), and the same
  without a store;
- heap: the controller modules' code, a Controller on the 4x5 board (frame,
  back buffer, Game), and the peak while a whole game is played, after
  gc.collect() (live objects only).

Unix-port times are for comparing versions; a Pico runs about 10-20x slower.
"""

import gc
import sys

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    import time

    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b


gc.collect()
_base = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
import attila.game.rules  # noqa: E402,F401
import attila.game.notation  # noqa: E402,F401

gc.collect()
_core = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
from attila.play.controller import Controller
from attila.play.presses import BUTTON_MENU
from attila.play.settling import CALM_MS
from attila.saves.store import MemoryStore  # noqa: E402
from attila.game.geometry import from_rows  # noqa: E402

gc.collect()
_ctl = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0

RECT = from_rows(["....."] * 4)
GAME = (
    "@a1 @b1 @c1 @d1 @e1 @a2 a1-c2,a1 b1-d2,b1 c1-e2,c1 d1-b2,d1 e1-d3,e1 "
    "a2-c3,a2 c2-a3,c2 b2-a4,b2 e2-d4,e2 d2-b3,d2 a3-c4,a3 c3-e4,c3 d3-b4,d3"
)


def masks():
    """The occupancy after every hand movement of GAME (lift, put, scorch)."""
    out = []
    m = 0
    for item in GAME.split():
        if item[0] == "@":
            m |= 1 << RECT.index(item[1:])
            out.append(m)
            continue
        m &= ~(1 << RECT.index(item[0:2]))
        out.append(m)
        m |= 1 << RECT.index(item[3:5])
        out.append(m)
        m |= 1 << RECT.index(item[6:8])
        out.append(m)
    return out


def main():
    impl = sys.implementation
    print("interpreter: %s %s" % (impl.name, ".".join(str(v) for v in impl.version[:3])))
    events = masks()

    # -- sensor events over a whole game --------------------------------------
    for label, keep in (("with RAM store", True), ("without store", False)):
        total = 0
        runs = 5
        for _ in range(runs):
            c = Controller(RECT, store=MemoryStore() if keep else None)
            c.sense(0, 0)
            t = 100
            t0 = ticks_us()
            for m in events:
                c.sense(m, t)
                c.tick(t + CALM_MS)  # settled: the save
                t += CALM_MS + 100
            total += ticks_diff(ticks_us(), t0)
            assert c.mode == 2, c.status()  # OVER
        print("sensor event and settled tick %s: %d us (mean of %d events)"
              % (label, total // (runs * len(events)), runs * len(events)))

    # -- idle paths -------------------------------------------------------------
    c = Controller(RECT)
    c.sense(0, 0)
    c.tick(0)
    n = 2000
    t0 = ticks_us()
    for i in range(n):
        c.tick(1000)
    print("idle tick, steady frame: %.1f us" % (ticks_diff(ticks_us(), t0) / n))
    t0 = ticks_us()
    for i in range(n):
        c.sense(0, 1000)
    print("unchanged reading: %.1f us" % (ticks_diff(ticks_us(), t0) / n))
    c.sense(1 << 12 | 1 << 7, 1000)  # two pieces at once: a correction, blinking
    c.tick(1000)
    t0 = ticks_us()
    for i in range(n):
        c.tick(1010)  # within the same 50 ms quantum: no redraw
    print("idle tick, blinking, between redraws: %.1f us" % (ticks_diff(ticks_us(), t0) / n))
    t = 2000
    t0 = ticks_us()
    for i in range(n):
        c.tick(t)
        t += 50
    print("redraw tick (correction blinking): %.1f us" % (ticks_diff(ticks_us(), t0) / n))
    over = Controller(RECT)
    over.sense(0, 0)
    for m in events:
        over.sense(m, 100)
    t0 = ticks_us()
    for i in range(n):
        over.tick(t)
        t += 50
    print("redraw tick (game over pulse): %.1f us" % (ticks_diff(ticks_us(), t0) / n))
    t0 = ticks_us()
    for i in range(200):
        over.status()
    print("status line: %.1f us" % (ticks_diff(ticks_us(), t0) / 200))

    # -- heap -------------------------------------------------------------------
    if hasattr(gc, "mem_alloc"):
        print("heap modules rules+notation+geometry: %d bytes" % (_core - _base))
        print("heap modules controller+palette+store (selftest, words load on demand): %d bytes" % (_ctl - _core))
        del c, over
        gc.collect()
        before = gc.mem_alloc()
        c = Controller(RECT, store=MemoryStore())
        c.sense(0, 0)
        gc.collect()
        print("heap Controller on 4x5 (frame, buffers, Game): %d bytes"
              % (gc.mem_alloc() - before))
        peak = gc.mem_alloc() - before
        t = 100
        for m in events:
            c.sense(m, t)
            c.tick(t + CALM_MS)
            t += CALM_MS + 100
            gc.collect()
            used = gc.mem_alloc() - before
            if used > peak:
                peak = used
        c.press(BUTTON_MENU, t)
        print("heap Controller peak over a whole game (with its save text): %d bytes" % peak)


main()
