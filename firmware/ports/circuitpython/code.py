"""Attila board, CircuitPython entry point (copied to CIRCUITPY/code.py).

Reads profile.json and layout.json from CIRCUITPY and builds the same core
as the MicroPython port (attila.assembly) over CircuitPython's keypad,
neopixel_write and pwmio (hardware.py); the game is saved in
microcontroller.nvm (nvmsave.py), never on the drive. The same power-up
gestures as every port (attila.board.power_up); a drive the computer holds
stops it too. Why it works the way it does: docs/pages/flash/circuitpython.md.
"""

import gc
import sys
import time

import hardware
from attila import profile as profiles
from attila.game import layoutfile
from attila.assembly import (BOOK, LAYOUT, OPENING, PROFILE, assemble, controller_for, exists,
                             open_tables)
from attila.board import MAINTENANCE, MAINTENANCE_FILE, SELF_TEST, power_up
from attila.console import Console
from attila.ticks import TICKS_MASK

OLDEST = (9, 2, 1)  # keypad reset() reports the keys held from here on (CircuitPython PR #9819)
NO_NVM = "saving is off: this board has no microcontroller.nvm"
# TinyUSB's CDC transmit FIFO on a full-speed device (CFG_TUD_CDC_TX_BUFSIZE,
# which CircuitPython leaves at its default): usb_cdc.console.out_waiting
# below it means a byte goes out without waiting.
TX_FIFO = 64
SAY_S = 0.1  # a line of code.py's own (before the loop) waits this long at most for the host


# The controller a profile asks for (a test may put a stub here).
_controller = controller_for


def _store(layout, tiles=None):
    """(the save journal in microcontroller.nvm, or None and why saving is off)."""
    try:
        from microcontroller import nvm
    except ImportError:
        nvm = None
    if not nvm:
        return None, NO_NVM
    from nvmsave import NvmStore, game_bytes

    return NvmStore(nvm, game_bytes(layout, tiles)), None


def _usb_console():
    """usb_cdc.console, or None (no usb_cdc, or the console turned off in boot.py)."""
    try:
        import usb_cdc
    except ImportError:
        return None
    return usb_cdc.console


class UsbConsole(Console):
    """attila.console.Console on usb_cdc.console (write_timeout 0): a loop
    step writes what the FIFO has room for in one write (a write call a byte
    would cost a step more than the loop can spare)."""

    def __init__(self, port):
        port.write_timeout = 0  # (shared-module/usb_cdc/Serial.c: takes what fits, returns)
        Console.__init__(self, port, _always)
        self._port = port

    def drain(self):
        port = self._port
        line = self._line
        if line is None or not port.connected:
            return
        room = TX_FIFO - port.out_waiting
        at = self._at
        while room > 0:
            n = port.write(memoryview(line)[at:at + room])
            if not n:
                break
            room -= n
            at += n
            if at == len(line):
                line = self._after()  # a told line, then the newest status
                at = 0
                if line is None:
                    break
        self._line = line
        self._at = at


def _always():
    return True


def status_console():
    """The status line's console: never waits for the computer.

    CircuitPython's print() (supervisor/shared/serial.c,
    serial_write_substring) loops until the USB serial FIFO has taken the
    whole text for as long as the host holds the port open (DTR set): a
    terminal left open without reading would stop the loop for good (the
    watchdog, if on, then resets the board). So the status line goes through
    usb_cdc.console (UsbConsole: the newest line wins, drained every loop
    step as far as the FIFO takes it, while a host is there). Without
    usb_cdc, or with the console turned off in boot.py, print() never waits
    (it writes to nothing)."""
    port = _usb_console()
    if port is None:
        return print
    return UsbConsole(port)


def say(text):
    """A line of code.py's own ("attila: ...") before the loop: through
    usb_cdc.console, waiting SAY_S at most for the host (print() would wait
    for ever), or print() where there is no USB console."""
    port = _usb_console()
    if port is None:
        print("attila: " + text)
        return
    port.write_timeout = SAY_S
    port.write(("attila: " + text + "\r\n").encode())
    port.write_timeout = 0


def computer_holds_drive():
    """True while CIRCUITPY is the computer's: boot.py left it so at power-up
    (maintenance) or has not run since (a new board's first files).

    boot.py runs only at power-up and reset, but code.py runs again at every
    reload, and the computer's first write to the drive reloads it
    (autoreload): the buttons let go by then, maintenance must still hold,
    or the game would start on a drive the computer is writing."""
    try:
        import storage
    except ImportError:
        return False
    return storage.getmount("/").readonly


def too_old(impl=None):
    """Why this CircuitPython cannot run the board ("" when it can)."""
    impl = impl or sys.implementation
    version = tuple(impl.version[:3])
    if impl.name != "circuitpython" or version >= OLDEST:
        return ""
    return ("CircuitPython %s is too old: the board needs %s or newer (its keypad forgets the "
            "keys held at power-up, so every piece would read as missing); update it"
            % (".".join(str(v) for v in version), ".".join(str(v) for v in OLDEST)))


def refuse(prof, layout, modules, text):
    """Say `text` on the console and light every LED red; the loop does not start."""
    say(text)
    leds = prof.leds(prof.wiring(layout, modules))
    order = prof.led_order
    bpp = len(order)
    strip = hardware.strip(prof, leds.bytes_needed() // bpp)
    for k in range(0, len(strip.buf), bpp):
        strip.buf[k + order.index("R")] = 64
    strip.write()


def trouble(board, text):
    """A problem the player must see: on serial, the status line and the LEDs."""
    say(text)
    board.trouble(text)


def build(prof, layout, modules, tiles=None, store=None, controller=None, keys=None, book=None,
          card=None, console=None):
    """The Board of a profile and a layout on CircuitPython (`keys`: the
    button reader if main() already made it; `console`: the status line's,
    status_console() unless given)."""
    if controller is None:
        controller = (_controller(prof, layout, tiles, store, book) if card is None
                      else _controller(prof, layout, tiles, store, book, card))
    return assemble(prof, layout, modules, hardware, controller, keys,
                    console=console if console is not None else status_console())


def run(board, loop_ms=10, wdt=None, ticks=-1, clock=None, sleep=None):
    """Step the board every loop_ms (for ever, or `ticks` times).

    Around the step the loop calls C functions only (the clock, the
    watchdog's feed, time.sleep with a length from a table made once): a
    call of a function of ours costs far more on CircuitPython than one of
    C, and the idle step must stay under 1 ms of the loop."""
    clock = clock or hardware.ticks_ms
    if sleep is None:
        sleep = time.sleep
        lengths = tuple(ms / 1000 for ms in range(loop_ms + 1))  # seconds
    else:
        lengths = tuple(range(loop_ms + 1))  # a test's sleep(ms)
    step = board.step
    said = board.console
    drain = said.drain if isinstance(said, Console) else None
    feed = wdt.feed if wdt is not None else None
    while ticks:
        start = clock()
        step(start)
        if drain is not None:
            drain()  # the status line, as far as the USB serial takes it now
        if feed is not None:
            feed()
        spent = (clock() - start) & TICKS_MASK  # (the clock wraps: attila.ticks)
        if spent < loop_ms:
            sleep(lengths[loop_ms - spent])
        if ticks > 0:
            ticks -= 1


def main(ticks=-1, clock=None, sleep=None):
    prof = profiles.load(PROFILE)
    layout, modules, tiles = layoutfile.load(LAYOUT)
    why = too_old()
    if why:
        refuse(prof, layout, modules, why)
        return None
    keys = hardware.buttons(prof)  # reads the buttons held right now
    gesture = power_up(keys.read() if keys is not None else 0,
                       exists(MAINTENANCE_FILE) or computer_holds_drive())
    if gesture == MAINTENANCE:
        say("maintenance (UNDO+MENU held at power-up, or a file named %s): not starting; "
            "CIRCUITPY is the computer's until the board is reset" % MAINTENANCE_FILE)
        if keys is not None:
            keys.deinit()  # the pins are free at the REPL
        return None
    store, why = _store(layout, tiles)
    book, card, (said, noted, opened, lost) = open_tables(hardware, prof, layout, BOOK, OPENING)
    board = build(prof, layout, modules, tiles, store, keys=keys, book=book, card=card)
    say("%s on %s, %d squares" % (layout.name or "board", prof.name, layout.size))
    if said:
        say(said)
    if store is not None and store.found:
        say(store.found)  # a power cut in an erase of the save sector
    if lost:
        trouble(board, noted)
    elif noted:
        say(noted)
    if opened:
        say(opened)
    now = (clock or hardware.ticks_ms)()
    if why:
        trouble(board, why)
    if gesture == SELF_TEST:
        say("MENU held at power-up: self-test")
        board.self_test(now)
    # Boot's garbage (the files read, the save restored) collected now, not
    # by the first allocation of the loop that finds no room: a collection
    # marks the whole heap, more than one 10 ms loop step can hold.
    gc.collect()
    run(board, prof.loop_ms, hardware.watchdog(prof.watchdog_ms), ticks, clock, sleep)
    return board


if __name__ == "__main__":
    main()
