"""The CircuitPython port on CircuitPython 10.2.1's own RP2040 build, in the emulated Pico.

    python tools/bench/pico_circuitpython.py          (make bench)

The board's CIRCUITPY is what `attila flash --drive` writes (the .mpy files
from CircuitPython's own mpy-cross), boards/profiles/circuitpython-pico.json
on boards/4x5.json. Emulated time at 125 MHz (rp2040js; a lower bound for a
real Pico, see tools/pico/README.md); the same figures on every run.

- power-up to code.py's first line ("attila: ..."): a cold boot, with
  CircuitPython's own 1 s safe-mode wait and its USB start;
- the idle loop step: code.py running, empty board, the time the core runs
  without sleeping around each watchdog feed (the loop's step, its feed,
  its clock), over 100 loops; and what of it is CircuitPython's own: the
  same code.run() loop, the same keypad scanners and watchdog, around a
  step that does nothing (from the raw REPL). time.sleep() busy-waits the
  part of its time left after the last 1/1024 s tick that woke the core
  (supervisor/shared/tick.c, mp_hal_delay_ms), and keypad keeps that tick
  on: up to 977 us of every sleep's end is spent awake, a half tick on
  average; each tick runs CircuitPython's background work, each 5 ms
  keypad's scans;
- the idle step's pieces on the chip (time.monotonic_ns, 30.5 us steps:
  each piece called 50 times from a function of its own, the cost of
  calling an empty one taken off, the fastest of five tries), as Board.step()
  runs them when nothing changes, and code.run()'s loop without its sleep
  and what it allocates (a loop that allocates nothing never sets off
  CircuitPython's garbage collector);
- CIRCUITPY: what `attila flash --drive` puts there (the opening table,
  layout.opening, the biggest file) and the room left on the 1 MiB drive;
- heap (gc.mem_free()) with the board built as code.py builds it (setup
  book and opening table open; after a soft reload, so the measures above
  leave nothing behind), what the opening table takes of it, and its
  lowest value over the decisions below;
- the game's first turn of play with 14 free squares (a position won for
  the side to move where the port's search alone throws the win away):
  the strong level's decision in the loop from the opening table, read a
  few lookups a step from CIRCUITPY, and the search's without it;
- the opponent: CircuitPython has no viper, so the portable kernel searches
  (attila.opponent.kernel): its speed blocking, and each level's decision as the
  board makes it (paced for its port: attila.opponent.levels.pace) in three positions of pico_opponent: its time on the loop's
  clock (steps x loop_ms: every slice fits a step) and its longest slice.
"""

import os
import statistics
import sys
import tempfile

from benchkit import LAYOUT  # (first: the paths)
# The idle step's pieces, timed as MicroPython's breakdown times them.
from chipkit import CP_PROFILE as PROFILE, LOOPS, STEP_PIECES, cp_idle_steps, idle_steps

from attila import profile as profiles

from pico import circuitpy
from pico.board import PicoBoard

# pico_opponent's positions where the levels think longest.
POSITIONS = (
    ("empty board", "...../...../...../..... R"),
    ("after setup", ".H.../H.R.R/.H.../.R... R"),
    ("12 free", "x..../RH.../..R.x/.H.RH R"),
)

# The first turn of play, 14 free squares: the Romans to move win; the
# port's search alone plays d1-b2,c3 and loses (tests/pico/test_cp_opening.py).
FIRST_TURN = "...../.R.HH/..R.H/...R. R"

ON_CHIP = """
import gc, time, code
from attila import profile
from attila.opponent.chooser import action_text
from attila.opponent.levels import CIRCUITPYTHON_NODES, CIRCUITPYTHON_SLICE, LEVEL_NAMES, reseed
from attila.opponent.planner import Planner, chooser
from attila.game import layoutfile
from attila.opponent import search
from attila.assembly import open_book, open_opening
from attila.game.notation import parse_position
prof = profile.load("profile.json")
layout, modules, tiles = layoutfile.load("layout.json")
book, _ = open_book(code.BOOK, layout)
from attila.play import controller  # (the board's own modules: not the table's cost)
gc.collect()
before = gc.mem_free()
opening, said = open_opening(code.OPENING, layout)
gc.collect()
cost = before - gc.mem_free()
board = code.build(prof, layout, modules, tiles, book=book, card=opening)
gc.collect()
low = gc.mem_free()
print("heap free with the board built (setup book and opening table open): %%d bytes (used %%d)" %% (low, gc.mem_alloc()))
print("of it the opening table (attila.opponent.card, attila.opponent.opening, the open file and its fold map): %%d bytes" %% cost)
print("viper kernel: %%s" %% ("yes" if search.NATIVE else "no (CircuitPython has no native emitter): the portable kernel searches"))
def us():
    return time.monotonic_ns() // 1000
print("first turn of play, 14 free squares (%(first)s), strong, in code.py's loop:")
for card, name in ((opening, "opening table"), (None, "search alone")):
    p = chooser(3, prof.budget_ms, book, card, prof.port)
    game = parse_position("%(first)s")
    now = 0
    p.start(game, now)
    steps = longest = 0
    while True:
        t = us()
        done = p.step(now)
        longest = max(longest, us() - t)
        steps += 1
        now += prof.loop_ms
        if done:
            break
    reads = card.reads if card is not None else 0
    gc.collect()
    low = min(low, gc.mem_free())
    print("  %%-13s %%5d ms in the loop, %%3d nodes, %%2d blocks read, longest step %%5d us  %%s" %% (name, now, p.nodes, reads, longest, action_text(game.layout, p.result())))
p = Planner(3, 10 ** 6, native=False)
p.node_budget = 1000
t = us()
p.decide(parse_position("%(rate)s"), lambda: (time.monotonic_ns() // 1000000))
dt = us() - t
print("strong search speed, portable kernel (1000 nodes, after setup, blocking): %%d nodes/s" %% (p.nodes * 1000000 // dt))
print("decisions in code.py's loop: the port's Planner (%%d nodes a step, node budgets %%r), one slice a %%d ms step" %% (CIRCUITPYTHON_SLICE, CIRCUITPYTHON_NODES, prof.loop_ms))
for level in range(4):
    worst = 0
    for name, text in %(positions)r:
        p = chooser(level, prof.budget_ms, None, None, prof.port)
        reseed(1)
        game = parse_position(text)
        now = 0
        p.start(game, now)
        steps = longest = first = 0
        while True:
            t = us()
            done = p.step(now)
            if steps:
                longest = max(longest, us() - t)
            else:
                first = us() - t
            steps += 1
            now += prof.loop_ms
            if done:
                break
        worst = max(worst, now)
        gc.collect()
        low = min(low, gc.mem_free())
        print("%%-8s %%-12s %%5d ms in the loop %%5d nodes, first slice %%5d us, longest other %%5d us  %%s" %% (LEVEL_NAMES[level], name, now, p.nodes, first, longest, action_text(game.layout, p.result())))
    print("%%-8s longest decision: %%d ms in the loop (budget_ms %%d, watchdog %%d ms)" %% (LEVEL_NAMES[level], worst, prof.budget_ms, prof.watchdog_ms))
print("heap free, lowest after a decision: %%d bytes" %% low)
"""


# The idle step's pieces, each as Board.step() (firmware/attila/board.py) and
# code.run() run them when nothing changes.
BREAKDOWN = """
import gc, time, code, supervisor
from attila import profile
from attila.game import layoutfile
from attila.assembly import open_book, open_opening
prof = profile.load("profile.json")
layout, modules, tiles = layoutfile.load("layout.json")
keys = code.hardware.buttons(prof)
store, _ = code._store(layout, tiles)
book, _ = open_book(code.BOOK, layout)
card, _ = open_opening(code.OPENING, layout)
board = code.build(prof, layout, modules, tiles, store, keys=keys, book=book, card=card)
said = board.console
clock = supervisor.ticks_ms
now = [clock()]
ns = time.monotonic_ns

""" + STEP_PIECES + """

def drain():
    said.drain()

def nothing():
    pass

def nap(ms):  # (the loop's sleep left out)
    pass

def loop():
    code.run(board, prof.loop_ms, None, 50, None, nap)

def per_call(fn, n=50, tries=5):
    best = 1 << 62
    for _ in range(tries):
        t = ns()
        for _ in range(n):
            fn()
        best = min(best, ns() - t)
    return best / n / 1000

for _ in range(100):
    step()
    said.drain()
time.sleep(0.1)  # the status line sent: USB idle again
step()
raw = scan()
held = read()
call = per_call(nothing)

def allocated(loops):
    gc.collect()
    free = gc.mem_free()
    code.run(board, prof.loop_ms, None, loops, None, nap)
    return free - gc.mem_free()

grown = allocated(101) - allocated(1)  # (what run() makes once left out)
print("code.run()'s loop without its sleep (clock, step, status line, clock): %.0f us a loop, %d bytes allocated over 100 loops" % (per_call(loop, 1) / 50 - call, grown))
for name, fn in (("Board.step(), idle", step), ("  sensor scan (keypad's queue, empty)", scan),
                 ("  scan unchanged, debouncer quiet: skipped", skip_scan),
                 ("  buttons read (keypad's queue, empty)", read),
                 ("  buttons unchanged, debouncer quiet: skipped", skip_buttons),
                 ("  controller.tick()", tick), ("  cue, sound and status line checks", checks),
                 ("  brightness comparison (tick() says when the frame changed)", compare),
                 ("the status line's drain, nothing to send", drain)):
    print("%s: %.0f us" % (name, per_call(fn) - call))
"""

# Adafruit's NeoPixel library (the pinned adafruit-circuitpython-neopixel,
# compiled with CircuitPython's mpy-cross and put on CIRCUITPY for this
# measure only) beside neopixel_write from a buffer, as the port writes:
# heap and the time of one 20-LED frame, on a fresh heap with nothing
# imported (pins GP20 and GP21: free on the reference board).
LEDS = """
import gc, time, board, digitalio, neopixel_write
gc.collect()
f0 = gc.mem_free()
import neopixel
gc.collect()
f1 = gc.mem_free()
px = neopixel.NeoPixel(board.GP21, 20, bpp=3, brightness=1.0, auto_write=False, pixel_order="GRB")
gc.collect()
f2 = gc.mem_free()
pin = digitalio.DigitalInOut(board.GP20)
pin.switch_to_output(value=False)
raw = bytearray(60)
gc.collect()
f3 = gc.mem_free()
ns = time.monotonic_ns
nap = time.sleep
whole = slice(None)
def per_frame(fn, n=20, tries=5):  # (a 1 ms pause after each: the chain's latch is not waited for)
    best = 1 << 62
    for _ in range(tries):
        t = ns()
        for _ in range(n):
            fn()
            nap(0.001)
        best = min(best, ns() - t)
    return best / n / 1000
show = px.show
def library():
    px[whole] = raw
    show()
def shown():
    show()
def alone():
    neopixel_write.neopixel_write(pin, raw)
def nothing():
    pass
pause = per_frame(nothing)
lib = per_frame(library) - pause
only = per_frame(shown) - pause
direct = per_frame(alone) - pause
gc.collect()
free = gc.mem_free()
for _ in range(50):
    library()
grown = free - gc.mem_free()
print("Adafruit's NeoPixel library (adafruit-circuitpython-neopixel 6.4.2 over CircuitPython's built-in adafruit_pixelbuf; not used by the port): heap %d bytes (neopixel.mpy %d, a NeoPixel of 20 LEDs %d), where the port's neopixel_write pin and buffer take %d" % (f0 - f2, f0 - f1, f1 - f2, f2 - f3))
print("  a 20-LED frame: set and shown through the library %.0f us (its show() alone %.0f us, %d bytes allocated over 50 frames), neopixel_write from a buffer %.0f us" % (lib, only, grown, direct))
"""


def neopixel_mpy():
    """The pinned NeoPixel library as CircuitPython's mpy-cross compiles it (bytes)."""
    from attila_tools.board import build, drive

    src = os.path.join(sys.prefix, "circuitpython", "neopixel.py")
    with open(build.compile_one(src, "neopixel.py", tempfile.mkdtemp(), exe=drive.mpy_cross()),
              "rb") as f:
        return f.read()


def put_file(pico, name, data):
    """Write a file on CIRCUITPY from the REPL (boot.py gave the board the drive)."""
    import base64

    pico.exec("import binascii\nwith open(%r, 'wb') as f:\n    f.write(binascii.a2b_base64(%r))\n"
              % (name, base64.b64encode(data).decode()), max_ms=20000)


# code.run() around a step that does nothing: what of the idle step is CircuitPython's.
FLOOR = """
import code, microcontroller
from attila import profile
from attila.game import layoutfile
prof = profile.load("profile.json")
layout, modules, tiles = layoutfile.load("layout.json")
sensors = code.hardware.scanner(prof, prof.wiring(layout, modules))
keys = code.hardware.buttons(prof)

class Idle:
    console = None

    def step(self, now):
        return False

code.run(Idle(), prof.loop_ms, code.hardware.watchdog(prof.watchdog_ms), %(loops)d)
microcontroller.watchdog.mode = None  # (stopped: the REPL goes on)
sensors.deinit()
keys.deinit()
"""


def fresh_repl(pico):
    """A soft reload (every pin and the heap anew; code.py starts again), then the REPL."""
    at = pico.mark()
    pico.write(b"\x04")
    pico.wait_for(b"attila:", 20000, since=pico.wait_for(b"soft reboot", 5000, since=at))
    pico.repl()


def drive_room(folder):
    """What `attila flash --drive` put on CIRCUITPY, and the room left (mtools)."""
    drive = circuitpy.folder_files(os.path.join(folder, "CIRCUITPY"))
    with open(os.path.join(folder, "flash.bin"), "rb") as f:
        flash = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        img = os.path.join(tmp, "fat.img")
        with open(img, "wb") as f:
            f.write(flash[circuitpy.FS_OFFSET:])
        listing = circuitpy.mtools(["mdir", "-/", "-a", "::"], img).decode()
    free = [line for line in listing.splitlines() if line.strip().endswith("bytes free")]
    room = int("".join(ch for ch in free[-1] if ch.isdigit()))  # ("526 336 bytes free")
    return ("CIRCUITPY (%d KiB FAT12) after attila flash --drive: %d files, %d bytes "
            "(layout.opening %d, layout.book %d); %d bytes free" % (
                circuitpy.SECTORS * circuitpy.SECTOR // 1024, len(drive),
                sum(len(v) for v in drive.values()), len(drive.get("layout.opening", b"")),
                len(drive.get("layout.book", b"")), room))


def main():
    why = circuitpy.available()
    if why:
        print("skipped: %s" % why)
        return
    prof = profiles.load(PROFILE)
    folder = tempfile.mkdtemp(prefix="attila-bench-cp-")
    board = PicoBoard.flashed(folder, LAYOUT, PROFILE)
    with board:
        pico = board.pico
        at = pico.wait_for(b"attila:", 20000, since=0)
        first = pico.us
        pico.wait_for(b"\n", 1000, since=at)
        print("CircuitPython %s, %s on %s" % (".".join(map(str, circuitpy.VERSION)),
                                              board.layout.name, prof.name))
        print("power-up to first words (\"%s\"): %.2f s emulated"
              % (pico.serial[at:pico.serial.find(b"\n", at)].decode().strip(), first / 1e6))
        print(drive_room(folder))
        steps = cp_idle_steps(pico, prof.loop_ms)
        print("idle loop step (code.py, empty board, %d loops): median %d us, longest %d us"
              % (len(steps), statistics.median(steps), max(steps)))
        pico.repl()
        pico.watch_awake(True)
        since = pico.us
        pico.exec(FLOOR % {"loops": LOOPS}, max_ms=10000)
        pico.watch_awake(False)
        floor = idle_steps(pico, since)[2:-1]  # (not the first ones, the scanners just made, nor the last)
        print("  CircuitPython's own: the same loop, keypad scanners and watchdog around a step "
              "that does nothing (%d loops): median %d us, longest %d us (time.sleep() "
              "busy-waits its end after the last 1/1024 s tick, which keypad keeps on; the "
              "tick's background work, keypad's scans)"
              % (len(floor), statistics.median(floor), max(floor)))
        for line in pico.exec(BREAKDOWN, max_ms=60000).strip().splitlines():
            if " us" in line:  # (not the status line's)
                print("  " + line)
        put_file(pico, "neopixel.mpy", neopixel_mpy())
        fresh_repl(pico)  # nothing imported: the library's own heap
        for line in pico.exec(LEDS, max_ms=60000).strip().splitlines():
            print(line)
        pico.exec("import os\nos.remove('neopixel.mpy')", max_ms=20000)
        fresh_repl(pico)  # the board below built on a fresh heap, its pins free
        code = ON_CHIP % {"rate": POSITIONS[1][1], "positions": POSITIONS,
                          "budget": prof.budget_ms, "first": FIRST_TURN}
        pico.exec(code, max_ms=900000,
                  echo=lambda b: (sys.stdout.write(b.decode().replace("\r\n", "\n")),
                                  sys.stdout.flush()))


if __name__ == "__main__":
    main()
