"""Attila board, CircuitPython entry point (copied to CIRCUITPY/code.py).

Reads profile.json and layout.json from CIRCUITPY, builds the same core as
the MicroPython port (attila.*) over CircuitPython's keypad scanners,
neopixel_write and pwmio (hardware.py), and runs the loop every loop_ms,
feeding microcontroller.watchdog if the profile asks.

Buttons held at power-up (attila.board.power_up, the same on every port):
MENU starts the self-test; UNDO and MENU, or a file named `maintenance`,
stop code.py before the loop and the watchdog start (boot.py then leaves
the drive to the computer). The game is saved only where boot.py gave the
drive to CircuitPython; otherwise the board says saving is off. The status
line is printed whenever it changes. The layout's setup book (layout.book)
is opened if it is there; without it (or damaged) the board searches its
placements and says so once.
"""

import time

import hardware
from attila import layoutfile, profile as profiles
from attila.board import (MAINTENANCE, MAINTENANCE_FILE, SELF_TEST, assemble, controller_for,
                          exists, open_book, open_card, power_up)
from attila.ticks import ticks_diff

PROFILE = "profile.json"
LAYOUT = "layout.json"
SAVE = "game.txt"
BOOK = "layout.book"  # the layout's setup book (attila flash copies it)
READ_ONLY = ("saving is off: CIRCUITPY is read-only to the board "
             "(copy boot.py to it, then unplug and replug the board)")


# The controller a profile asks for (a test may put a stub here).
_controller = controller_for


def _store(path):
    """(the Store for `path`, or None and why saving is off)."""
    try:
        import storage
        from attila.store import Store
    except ImportError:
        return None, "saving is off: no storage module"
    if storage.getmount("/").readonly:
        return None, READ_ONLY
    return Store(path), None


def trouble(controller, text):
    """A problem the player must see: the status line and LEDs (contract C2), and serial."""
    print("attila: " + text)
    report = getattr(controller, "trouble", None)
    if report is not None:
        report(text)


def build(prof, layout, modules, tiles=None, store=None, controller=None, keys=None, book=None,
          card=None):
    """The Board of a profile and a layout on CircuitPython (`keys`: the
    button reader if main() already made it)."""
    if controller is None:
        controller = (_controller(prof, layout, tiles, store, book) if card is None
                      else _controller(prof, layout, tiles, store, book, card))
    return assemble(prof, layout, modules, hardware, controller, keys, console=print)


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
    keys = hardware.buttons(prof)  # reads the buttons held right now
    gesture = power_up(keys.read() if keys is not None else 0, exists(MAINTENANCE_FILE))
    if gesture == MAINTENANCE:
        print("attila: maintenance (UNDO+MENU held at power-up, or a file named %s): "
              "not starting" % MAINTENANCE_FILE)
        if keys is not None:
            keys.deinit()  # the pins are free at the REPL
        return None
    store, why = _store(SAVE)
    book, said = open_book(BOOK, layout)  # kept open: read a record at a time
    card, noted = open_card(hardware, prof, layout)
    board = build(prof, layout, modules, tiles, store, keys=keys, book=book, card=card)
    print("attila: %s on %s, %d squares" % (layout.name or "board", prof.name, layout.size))
    if said:
        print("attila: " + said)
    if noted and card is not None:
        print("attila: " + noted)
    elif noted:
        trouble(board.controller, noted)
    now = (clock or hardware.ticks_ms)()
    if why:
        trouble(board.controller, why)
    if gesture == SELF_TEST:
        print("attila: MENU held at power-up: self-test")
        board.controller.self_test(now)
    run(board, prof.loop_ms, hardware.watchdog(prof.watchdog_ms), ticks, clock, sleep)
    return board


if __name__ == "__main__":
    main()
