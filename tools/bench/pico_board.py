"""The board's loop on the emulated Pico: MicroPython's own RP2040 build, the firmware as flashed.

    python tools/bench/pico_board.py          (make bench)

Every figure is emulated time on the RP2040 at 125 MHz (rp2040js; a flash
read costs one cycle there, so these are lower bounds for a real Pico: see
tools/pico/README.md), read from the chip's own ticks_us() or from its pins
and its core. The same figures come out on every run.

- the idle loop step, per Pico profile: main.py itself running (empty board,
  nothing changing, its power-up save done), measured from outside: the
  time the core runs without sleeping around each sensor scan (the step,
  the watchdog feed, the loop's clock), over 100 loops;
- its breakdown, on the chip (ticks_us), on the board main.py builds (its
  setup book, opening table and store; main.main() run from the REPL for
  1.5 s, then stepped with the clock's time): each piece of Board.step() as
  an idle step runs it, each called from a function of its own (the cost of
  calling an empty one taken off), the fastest of five tries of 50 calls:
  now and then the port's USB work runs between two bytecodes and lands in
  a try. Pieces timed apart add up to the step only roughly; the loop
  figure above is the one that counts;
- a sensor event to LED bytes on the pin: a magnet put down while the loop
  sleeps, to the end of the first LED frame that shows it (the debounce
  holds 30 ms of it), and the part of it in the loop step that took it;
  the same while the board thinks (a knight lifted 300 ms into its strong
  search: the first frame whose LED bytes are none of the same run's
  without it);
- one LED frame on the wire: first rising to last falling edge, 20 LEDs;
- heap: gc.mem_free() after main.py has built the board, after the board's
  opponent has made its first decision (its search's tables are kept from
  then on), and its lowest value over a whole scripted game
  (tests/pico/game.txt) played through the reed switches, measured after
  every loop step (gc.mem_free() itself takes about 9 ms on the chip, so
  that run steps every 25 ms instead of 10).
"""

import json
import os
import tempfile

from benchkit import GAME, PROFILES  # (first: the paths)
from chipkit import STEP_PIECES, board_for, idle_loop, latency_and_frame

from attila_sim import actions

from pico.hands import Mirror

PICO_PROFILES = ("pico.json", "pico-spi.json", "pico-matrix.json", "pico-direct.json")

# Each piece as Board.step() runs it when nothing changes (firmware/attila/board.py).
BREAKDOWN = """
import os, time, main
# main.py's own board: its book, its opening table, its store, built by
# main.main() as at power-up and run 1.5 s (the power-up save done)
os.remove("maintenance")
main.hardware.watchdog = lambda timeout_ms: None  # the REPL stays ours
board = main.main(ticks=150)
squares = board.wiring.squares
now = [time.ticks_ms()]  # (the clock of a loop step now: the board is at rest)

""" + STEP_PIECES + """

def unpack():
    squares(raw)

def update():
    deb.update(inputs._squares, now[0])

def render():
    leds.render(frame, board.strip.buf)

def write():
    board.strip.write()

def nothing():
    pass

def per_call(fn, n=50, tries=5):
    # the fastest of a few tries: USB work the port runs between bytecodes
    # now and then lands in one of them
    us = time.ticks_us
    d = time.ticks_diff
    best = 1 << 30
    for _ in range(tries):
        t = us()
        for _ in range(n):
            fn()
        best = min(best, d(us(), t))
    return best / n

for _ in range(30):
    step()
time.sleep_ms(50)  # the status line printed: USB idle again
raw = scan()
held = read() if read is not None else 0
call = per_call(nothing)
out = [("Board.step(), idle", step), ("  sensor scan", scan),
       ("  scan unchanged, debouncer quiet: skipped", skip_scan)]
if read is not None:
    out += [("  buttons read", read), ("  buttons unchanged, debouncer quiet: skipped", skip_buttons)]
out += [("  controller.tick()", tick), ("  cue, sound and status line checks", checks),
        ("  brightness comparison (tick() says when the frame changed)", compare),
        ("  (on a new scan: wiring.squares()", unpack),
        ("  (on a new scan: debouncer.update()", update),
        ("  (on a new frame: Leds.render(), 20 LEDs", render),
        ("  (on a new frame: strip.write(), 20 LEDs on the wire", write)]
for name, fn in out:
    print("%s: %.0f us%s" % (name, per_call(fn) - call, ")" if name.startswith("  (") else ""))
"""

HEAP_GAME = """
import gc, main
from attila import profile
from attila.game import layoutfile
prof = profile.load("profile.json")
layout, modules, tiles = layoutfile.load("layout.json")
board = main.build(prof, layout, modules, tiles, main._store("game.txt"))
gc.collect()
print("heap free after boot: %d bytes (used %d)" % (gc.mem_free(), gc.mem_alloc()))
# The board's opponent decides once, as for its first turn or a hint: the
# search's tables, stack and rows are made then, and kept.
planner = board.controller.plan.opponent
planner.start(board.controller.game, 0)
while not planner.step(0):
    pass
planner.cancel()
gc.collect()
print("heap free after the opponent's first decision (its search kept): %d bytes" % gc.mem_free())
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


def breakdown(name):
    b = board_for(name, {"maintenance": b""})
    try:
        b.pico.wait_for(b">>> ", 20000, since=0)
        out = b.pico.exec(BREAKDOWN)
    finally:
        b.close()
    return [line for line in out.strip().splitlines() if " us" in line]


# The board (the Huns, strong) thinking after the Romans' first turn: its
# setup from the book, the Romans' placements and turn by hand.
THINKING = ["@a1", "@c2", "@e4", "@d2", "@d1", "@e3", "a1-b3,a1"]


def _frames_while_thinking(lift, offset_us=0):
    """The chip's LED frames from 300 ms into the Huns' search, a Roman knight
    lifted offset_us later when `lift`; (frames, the lift's time in us)."""
    with open(os.path.join(PROFILES, "pico.json")) as f:
        prof = json.load(f)
    prof["game"] = {"computer": "H", "level": "strong"}
    folder = tempfile.mkdtemp(prefix="attila-bench-pico-")
    path = os.path.join(folder, "pico-huns.json")
    with open(path, "w") as f:
        json.dump(prof, f)
    b = board_for(path)
    try:
        b.boot()
        rig = Mirror(b)
        for _n, _text, todo in actions.parse_lines(rig.layout, THINKING):
            rig.do(todo)
        rig.advance(300)  # the squares settled, the search under way
        b.pico.run_to_idle()
        before = len(b.pico.frames)
        if offset_us:
            b.pico.run_us(offset_us)
        t0 = b.pico.us
        if lift:
            b.set_squares(b.squares & ~(1 << b.layout.index("b3")))
        b.run_ms(200)
        frames = [(f.t0, f.t1, f.data) for f in b.pico.frames[before:]]
    finally:
        b.close()
    return frames, t0


def latency_while_thinking(offsets=(0, 2500, 5000, 7500)):
    """A sensor event while the board thinks, at a few moments of a loop step:
    the first frame after it whose LED bytes are none of the same run's
    without the event (the thinking light's frames; the emulation is
    deterministic: a frame that only comes a little later is no answer);
    the shortest and longest."""
    calm, _ = _frames_while_thinking(False)
    shown = set(data for _t0, _t1, data in calm)
    spans = []
    for offset in offsets:
        moved, t0 = _frames_while_thinking(True, offset)
        first = next(f for f in moved if f[0] >= t0 and f[2] not in shown)
        spans.append((first[1] - t0) / 1000)
    return ["sensor event to LED bytes on the pin while the board thinks (strong, a knight"
            " lifted at %d moments of a loop step): %.1f-%.1f ms (debounce included)"
            % (len(offsets), min(spans), max(spans))]


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
    for name in PICO_PROFILES:
        median, worst, loop_ms = idle_loop(name)
        print("%s: idle loop step of main.py: %.0f us (max %.0f) of its %d ms loop: %.1f %%"
              % (name, median, worst, loop_ms, median / (10 * loop_ms)))
        for line in breakdown(name):
            print("%s: %s" % (name, line))
    for line in latency_and_frame():
        print("pico.json: " + line)
    for line in latency_while_thinking():
        print("pico.json: " + line)
    for line in heap_over_game():
        print("pico.json: " + line)


if __name__ == "__main__":
    main()
