"""Attila board, CircuitPython entry point (copied to CIRCUITPY/code.py).

Reads profile.json and layout.json from CIRCUITPY, builds the same core as
the MicroPython port (attila.*) over board/digitalio pins and the
adafruit-circuitpython-neopixel library (copy neopixel.mpy and
adafruit_pixelbuf.mpy from the Adafruit bundle into CIRCUITPY/lib), and runs
the loop every loop_ms, feeding microcontroller.watchdog if the profile asks.

Hold MENU at power-up to stop before the loop (for editing files).
"""

import time

import hardware
from attila import layoutfile, profile as profiles
from attila.board import assemble, controller_for
from attila.ticks import ticks_diff

PROFILE = "profile.json"
LAYOUT = "layout.json"
SAVE = "game.txt"


# The controller a profile asks for (a test may put a stub here).
_controller = controller_for


def _store(path):
    # CIRCUITPY is read-only to code.py unless boot.py remounts it; then
    # attila.store.Store keeps the game there.
    try:
        import storage
        from attila.store import Store

        if storage.getmount("/").readonly:
            return None
        return Store(path)
    except (ImportError, AttributeError, OSError):
        return None


def build(prof, layout, modules, tiles=None, store=None, controller=None, keys=None):
    """The Board of a profile and a layout on CircuitPython (`keys`: the
    button reader if main() already made it)."""
    if controller is None:
        controller = _controller(prof, layout, tiles, store)
    return assemble(prof, layout, modules, hardware, controller, keys,
                    hardware.render_order(prof))


def run(board, loop_ms=10, wdt=None, ticks=-1, clock=None, sleep=None):
    """Step the board every loop_ms (for ever, or `ticks` times)."""
    clock = clock or hardware.ticks_ms
    sleep = sleep or (lambda ms: time.sleep(ms / 1000))
    step = board.step
    while ticks:
        start = clock()
        step(start)
        if wdt is not None:
            wdt.feed()
        left = loop_ms - ticks_diff(clock(), start)  # supervisor.ticks_ms() wraps
        if left > 0:
            sleep(left)
        if ticks > 0:
            ticks -= 1


def main(ticks=-1, clock=None, sleep=None):
    prof = profiles.load(PROFILE)
    layout, modules, tiles = layoutfile.load(LAYOUT)
    keys = hardware.buttons(prof)
    if keys is not None and keys.read() & 2:
        print("attila: MENU held at power-up: not starting")
        return None
    board = build(prof, layout, modules, tiles, _store(SAVE), keys=keys)
    print("attila: %s on %s, %d squares" % (layout.name or "board", prof.name, layout.size))
    run(board, prof.loop_ms, hardware.watchdog(prof.watchdog_ms), ticks, clock, sleep)
    return board


if __name__ == "__main__":
    main()
