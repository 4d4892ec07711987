"""What the pico_*.py bench scripts share: the board's loop measured on the emulated Pico.

    from chipkit import idle_loop, latency_and_frame, STEP_PIECES

The idle loop step and a sensor event to LED bytes (pico_board, and again
with the XIP cache's misses charged: pico_xip), the idle step of the
CircuitPython port (pico_circuitpython, pico_xip), the pieces of an idle
Board.step() the chip's breakdowns time, and the games resumed for the
decisions in the loop (pico_thinking, pico_xip). Everything in emulated time
(rp2040js at 125 MHz: lower bounds for a real Pico, tools/pico/README.md).
"""

import os
import statistics
import tempfile

from benchkit import LAYOUT, PROFILES

from pico.board import PicoBoard

LOOPS = 100  # loops an idle step is measured over
CP_PROFILE = os.path.join(PROFILES, "circuitpython-pico.json")

# The pieces of an idle Board.step() (firmware/attila/board.py and its
# inputs, firmware/attila/sensing/inputs.py), each in a function of its own,
# and the names they use; the chip's breakdowns
# (pico_board, pico_circuitpython) define board and now before them, raw and
# held before timing them.
STEP_PIECES = """
c = board.controller
inputs = board.inputs
deb = inputs.debouncer
bkeys = inputs._keys
scan = inputs._scan
read = inputs._read
sounds = board.sounds
frame = c.frame
leds = board.leds

def step():
    board.step(now[0])
    now[0] += 10

def skip_scan():
    raw != inputs._raw or not deb.quiet

def skip_buttons():
    held != inputs._pressed or not bkeys.quiet

def tick():
    c.tick(now[0])

def checks():
    if c.cue:
        pass
    if sounds is not None and sounds.playing:
        pass
    if board.console is not None and c.status_count != board._said:
        pass

def compare():
    leds.brightness != board._level
"""

# Games from the empty board (Romans first), from the game of
# tests/pico/game.txt: the empty board (20 placements), the last placement,
# right after setup (the most moves), then every two turns.
SETUP = "@a1 @b1 @c1 @d1 @e1 @a2"
POSITIONS = (
    ("empty board", ""),
    ("last placement", "@a1 @b1 @c1 @d1 @e1"),
    ("after setup", SETUP),
    ("12 free", SETUP + " a1-c2,a1 b1-d2,b1"),
    ("10 free", SETUP + " a1-c2,a1 b1-d2,b1 c1-e2,c1 d1-b2,d1"),
    ("8 free", SETUP + " a1-c2,a1 b1-d2,b1 c1-e2,c1 d1-b2,d1 e1-d3,e1 a2-c3,a2"),
)


def board_for(name, extra=None, xip=False):
    """A started board of a profile (a name in boards/profiles, or a path);
    xip: the chip charges XIP cache misses (pico_xip)."""
    folder = tempfile.mkdtemp(prefix="attila-bench-pico-")
    b = PicoBoard.flashed(folder, LAYOUT, os.path.join(PROFILES, name), extra=extra)
    b.pico.xip_cache = xip
    return b.start()


def idle_loop(name, xip=False):
    """main.py's idle loop step, from outside: (median, max) us over LOOPS loops."""
    b = board_for(name, xip=xip)
    try:
        b.boot()
        # At rest first: the power-up save (the new game on the flash, once the
        # squares have been still 0.5 s, page programs) is no idle step;
        # pico_saves times it.
        b.run_ms(1000)
        b.pico.run_to_idle()
        b.pico.watch_awake()
        b.run_ms(LOOPS * b.prof.loop_ms)
        b.pico.watch_awake(False)
        busy = [us for _t, us in b.pico.busy()]
        if b.pico.events or len(b.pico.frames) != 2:  # dark at boot, then the setup's squares
            raise SystemExit("%s: not idle: %r, %d frames" % (name, b.pico.events, len(b.pico.frames)))
    finally:
        b.close()
    return statistics.median(busy), max(busy), b.prof.loop_ms


def latency_and_frame(xip=False):
    """A magnet put down at rest to the LED bytes that show it, the loop step
    that took it, and one LED frame on the wire: printed lines."""
    b = board_for("pico.json", xip=xip)
    try:
        b.boot()
        # At rest: the board's power-up work (the new game's save, its journal's folder
        # made anew) is done once the squares have been still 0.5 s. A piece put down
        # sooner is kept in a step that also writes that (a sector erase).
        b.run_ms(1000)
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


def idle_steps(pico, since):
    """The awake span around each watchdog feed since `since` (us): one a loop step."""
    steps = []
    for fed, _woke, _reads, _slept in pico.feeds:
        if fed < since:
            continue
        for a, b in pico.awake:
            if a <= fed <= b:
                steps.append(b - a)
                break
    return steps


def cp_idle_steps(pico, loop_ms):
    """code.py's idle loop steps on a CircuitPython board just booted (us),
    over LOOPS loops once it has settled."""
    pico.run_ms(1500)  # the board settles (debounce, first frames)
    pico.watch_awake(True)
    since = pico.us
    pico.run_ms(LOOPS * loop_ms)
    pico.watch_awake(False)
    return idle_steps(pico, since)
