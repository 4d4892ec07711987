"""Board loop benchmark under MicroPython (unix port): cost per tick and heap.

Run by tools/bench/run.py from the repository root with
MICROPYPATH=firmware:tools/bench; the fake `machine`/`neopixel` of
tests/ports/fakes stand in for the hardware. Prints one line per figure:

- one idle Board.step() (scan, wiring, debounce, controller tick, frame
  compare), with a scanner that costs nothing and with the 74HC165
  bit-banged through the fake pins (those are Python objects; a real
  machine.Pin is C, so the real scan is cheaper than this line);
- one sensor event: the step in which a debounced change reaches the
  controller, is rendered and written;
- the pieces alone: wiring.squares(), Debouncer.update(), Leds.render();
- the heap the loop objects keep (controller, wiring, renderer, debouncer,
  board, scanner, strip), after gc.collect().

Unix-port times are for comparing versions; a Pico runs about 10-20x slower.
"""

import gc
import sys
import time

sys.path.append("tests/ports/fakes")

import machine  # noqa: E402  (the fake)
import physical  # noqa: E402

from attila.game import layoutfile  # noqa: E402
from attila.board import Board  # noqa: E402
from attila.controls import Controls  # noqa: E402
from attila.leds.strip import Leds  # noqa: E402
from attila.game.modules import compose  # noqa: E402,F401
from attila.sensing.scanners import ShiftScanner  # noqa: E402
from attila.sensing.debounce import Debouncer  # noqa: E402
from attila.sensing.wiring import Wiring  # noqa: E402

try:
    from attila.play.controller import Controller
except ImportError:
    Controller = None

ticks_us = time.ticks_us
diff = time.ticks_diff
N = 2000


class Still:
    def __init__(self):
        self.raw = 0

    def scan(self):
        return self.raw


class Strip:
    def __init__(self, n):
        self.buf = bytearray(n)
        self.writes = 0

    def write(self):
        self.writes += 1


class Stub(Controls):
    def __init__(self, size):
        self.frame = bytearray(3 * size)

    def sense(self, mask, now):
        self.frame[0] = mask & 255

    def press(self, b, now):
        pass

    def tick(self, now):
        return False


def per_call(fn, arg_fn, n=N):
    t0 = ticks_us()
    for i in range(n):
        fn(arg_fn(i))
    return diff(ticks_us(), t0) / n


def main():
    layout, modules, _ = layoutfile.load("boards/4x5.json")
    print("controller: %s" % ("attila.play.controller" if Controller else "stub (no attila.play.controller)"))

    gc.collect()
    a0 = gc.mem_alloc()
    controller = Controller(layout) if Controller else Stub(layout.size)
    gc.collect()
    a1 = gc.mem_alloc()
    wiring = Wiring(layout, modules)
    leds = Leds(wiring, "GRB", 160)
    deb = Debouncer(layout.size)
    scanner = Still()
    strip = Strip(60)
    board = Board(controller, scanner, strip, wiring, deb, None, leds)
    gc.collect()
    a2 = gc.mem_alloc()
    print("heap controller (Controller(layout), empty game): %d bytes" % (a1 - a0))
    print("heap wiring+leds+debouncer+board+strip: %d bytes" % (a2 - a1))

    t = [0]

    def step(_):
        board.step(t[0])
        t[0] += 10

    for _ in range(10):
        step(0)
    us = per_call(step, lambda i: i)
    print("idle Board.step(), 4x5, no-cost scanner: %.1f us" % us)

    # Sensor events: a square filled then emptied; time only the step in
    # which the debouncer hands the change over.
    total = 0
    events = 0
    sq_bits = (wiring.chain(1 << layout.index("e1")), 0)
    for k in range(200):
        scanner.raw = sq_bits[k & 1]
        board.step(t[0])
        t[0] += 30
        t0 = ticks_us()
        board.step(t[0])
        total += diff(ticks_us(), t0)
        events += 1
        t[0] += 10
    print("sensor event step (sense + render + write): %.1f us" % (total / events))

    frame = bytearray(b"\x80" * 60)
    buf = strip.buf
    print("Leds.render, 20 LEDs: %.1f us" % per_call(lambda _: leds.render(frame, buf), lambda i: i))
    print("wiring.squares: %.2f us" % per_call(wiring.squares, lambda i: i & 0xFFFFF))
    d2 = Debouncer(20)
    d2.update(0, 0)
    print("Debouncer.update, idle: %.2f us" % per_call(lambda i: d2.update(5, i), lambda i: i + 100))

    # The 74HC165 chain bit-banged through the fake pins.
    chain = physical.HC165Chain(13, 10, 12, 4)
    sc = ShiftScanner(machine.Pin(13, machine.Pin.OUT), machine.Pin(10, machine.Pin.OUT),
                      machine.Pin(12, machine.Pin.IN), wiring.registers)
    chain.close(0, 0)
    print("74HC165 scan, 4 registers, fake Python pins: %.1f us" % per_call(
        lambda _: sc.scan(), lambda i: i, 500))
    board = Board(controller, sc, strip, wiring, Debouncer(layout.size), None, leds)
    for _ in range(10):
        step(0)
    print("idle Board.step(), 74HC165 on fake pins: %.1f us" % per_call(step, lambda i: i, 500))


main()
