"""The board's loop on the emulated Pico: MicroPython's own RP2040 build, the firmware as flashed.

    python tools/bench/pico_board.py          (make bench)

Every figure is emulated time on the RP2040 at 125 MHz (rp2040js; a flash
read costs one cycle there, so these are lower bounds for a real Pico: see
tools/pico/README.md), read from the chip's own ticks_us() or from the
edges on its pins. The same figures come out on every run.

- idle Board.step(): the loop body with nothing new, on the chip (ticks_us);
- a sensor event to LED bytes on the pin: a magnet put down while the loop
  sleeps, to the end of the first LED frame that shows it (the debounce
  holds 30 ms of it), and the part of it in the loop step that took it;
- one LED frame on the wire: first rising to last falling edge, 20 LEDs;
- heap: gc.mem_free() after main.py has built the board, and its lowest
  value over a whole scripted game (tests/pico/game.txt) played through the
  reed switches, measured after every loop step (gc.mem_free() itself takes
  about 9 ms on the chip, so that run steps every 25 ms instead of 10).
"""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.join(ROOT, "tools"), os.path.join(ROOT, "firmware")]

from attila_sim import actions  # noqa: E402

from pico.board import PicoBoard  # noqa: E402
from pico.hands import Mirror  # noqa: E402

LAYOUT = os.path.join(ROOT, "boards", "4x5.json")
PROFILES = os.path.join(ROOT, "boards", "profiles")
GAME = os.path.join(ROOT, "tests", "pico", "game.txt")

IDLE_STEPS = """
import gc, time, main
from attila import layoutfile, profile
prof = profile.load("profile.json")
layout, modules, tiles = layoutfile.load("layout.json")
board = main.build(prof, layout, modules, tiles)
now = time.ticks_ms()
for _ in range(20):
    board.step(now)
    now += 10
n = 100
t = time.ticks_us()
for _ in range(n):
    board.step(now)
    now += 10
print("idle Board.step(): %.0f us" % (time.ticks_diff(time.ticks_us(), t) / n))
t = time.ticks_us()
for _ in range(n):
    board.scanner.scan()
print("  of it the sensor scan: %.0f us" % (time.ticks_diff(time.ticks_us(), t) / n))
"""

HEAP_GAME = """
import gc, main
from attila import layoutfile, profile
prof = profile.load("profile.json")
layout, modules, tiles = layoutfile.load("layout.json")
board = main.build(prof, layout, modules, tiles, main._store("game.txt"))
gc.collect()
print("heap free after boot: %d bytes (used %d)" % (gc.mem_free(), gc.mem_alloc()))
low = [gc.mem_free()]
step = board.step
def measured(now):
    r = step(now)
    f = gc.mem_free()
    if f < low[0]:
        low[0] = f
    return r
board.step = measured
main.run(board, 25, None, STEPS)  # gc.mem_free() takes 9 ms: a longer loop
print("heap free low-water over the game: %d bytes" % low[0])
"""


def board_for(name, extra=None):
    folder = tempfile.mkdtemp(prefix="attila-bench-pico-")
    b = PicoBoard.flashed(folder, LAYOUT, os.path.join(PROFILES, name), extra=extra)
    return b.start()


def idle_step(name):
    b = board_for(name, {"maintenance": b""})
    try:
        b.pico.wait_for(b">>> ", 20000, since=0)
        out = b.pico.exec(IDLE_STEPS)
    finally:
        b.close()
    return out.strip().splitlines()


def latency_and_frame():
    b = board_for("pico.json")
    try:
        b.boot()
        b.run_ms(200)
        b.pico.run_to_idle()
        before = len(b.pico.frames)
        t0 = b.pico.us
        b.set_squares(1 << b.layout.index("c2"))
        b.run_ms(100)
        frame = next(f for f in b.pico.frames[before:] if f.t0 > t0)
        step = max(s for s in b.pico.scans if s[0] < frame.t0)
        wire = [f.t1 - f.t0 for f in b.pico.frames]
    finally:
        b.close()
    return [
        "sensor event to LED bytes on the pin: %.1f ms (debounce %d ms included)"
        % ((frame.t1 - t0) / 1000, b.prof.debounce_ms),
        "  of it the loop step that took it, scan to the frame's last bit: %.0f us"
        % (frame.t1 - step[0]),
        "one LED frame on the wire (20 LEDs, GRB): %.0f us (%.2f us per LED)"
        % (max(wire), max(wire) / 20),
    ]


def heap_over_game():
    with open(GAME) as f:
        lines = f.read().splitlines()
    b = board_for("pico.json", {"maintenance": b""})
    try:
        b.pico.wait_for(b">>> ", 20000, since=0)
        rig = None
        steps = 400
        b.pico.mark()
        b.pico.write(b"\x03\x01")
        b.pico.wait_for(b"raw REPL; CTRL-B to exit\r\n>", 5000)
        b.pico.mark()
        b.pico.write(HEAP_GAME.replace("STEPS", str(steps)).encode() + b"\x04")
        b.pico.wait_for(b"heap free after boot", 20000)
        rig = Mirror(b)
        for _n, _text, todo in actions.parse_lines(rig.layout, lines):
            rig.do(todo)
        b.pico.wait_for(b"low-water", 60000)
        b.pico.wait_for(b"\n", 1000, since=b.pico.serial.find(b"low-water"))
        out = b.pico.output().replace("OK", "", 1)
        mode = rig.mode_name()
    finally:
        b.close()
    return [line for line in out.splitlines() if line.startswith("heap")] + [
        "  (the game ended in mode %r; main.run stepped %d times)" % (mode, steps)]


def main():
    for name in ("pico.json", "pico-spi.json", "pico-matrix.json", "pico-direct.json"):
        lines = idle_step(name)
        print("%s: %s" % (name, lines[0]))
        for line in lines[1:]:
            print("%s: %s" % (name, line))
    for line in latency_and_frame():
        print("pico.json: " + line)
    for line in heap_over_game():
        print("pico.json: " + line)


if __name__ == "__main__":
    main()
