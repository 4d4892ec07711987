"""Attila board, MicroPython entry point (copied to the board as /main.py).

Reads /profile.json and /layout.json, builds the board (attila.assembly)
and runs its loop every `loop_ms`, feeding the watchdog. Buttons held at
power-up (attila.board.power_up): MENU, the self-test; UNDO and MENU, or a
file named `maintenance`, stop before the watchdog starts (the REPL stays
free for mpremote). With /online.json (a Pico W) it plays one game with
another board (online.py); a board with Wi-Fi and none says why not. What a
maker sees of it: docs/pages/flash/index.md.
"""

import gc
import time

# First, while the heap is still whole: the viper kernel's machine code needs
# one free block of its own size, which the heap may no longer have once the
# files and tables are read (a MemoryError: the board would then search with
# the portable kernel at its pace, levels.PORTABLE_SLICE, not the chip's).
from attila.opponent import search  # noqa: F401
import hardware
from attila import profile as profiles
from attila.game import layoutfile
from attila.assembly import (BOOK, LAYOUT, OPENING, PROFILE, assemble, controller_for, exists,
                             open_tables)
from attila.board import MAINTENANCE, MAINTENANCE_FILE, PULLS_MS, RESUME_FILE, SELF_TEST, power_up
from attila.console import Console
from attila.ticks import ticks_diff

SAVE = "game.txt"
ONLINE = "online.json"  # online play's settings (attila flash --online writes them)


# The controller a profile asks for (a test may put a stub here).
_controller = controller_for


def _store(path):
    try:
        from attila.saves.archive import GAMES
        from attila.saves.store import Store
    except ImportError:
        return None
    # On littlefs v2 (MicroPython's file system on the rp2) a file's new
    # contents are committed whole on close: a whole save is then written in
    # place (attila.saves.files). Not on FAT, nor where MicroPython (before 1.23)
    # does not list its mounts. (Names MicroPython has already: each new
    # one is a qstr, and tests/ports' resume scenario has none to spare.)
    in_place = False
    try:
        import vfs

        for fs, at in vfs.mount():
            if at == "/" and type(fs) is getattr(vfs, "VfsLfs2", None):
                in_place = True
    except Exception:
        pass
    return Store(path, games=GAMES, journal=True, in_place=in_place)


def _online(clock):
    """(the online Link, its console line) when /online.json asks for one
    (the port's online.py: Wi-Fi and MQTT), else (None, why not or ''). A
    board without the file never loads online play."""
    if not exists(ONLINE):
        return None, ""
    try:
        import online
    except ImportError:
        return None, ""
    return online.start(ONLINE, clock)


def _taken(path):
    """True when the marker file `path` was there (it is removed)."""
    import os

    try:
        os.remove(path)
    except OSError:
        return False
    return True


def build(prof, layout, modules, tiles=None, store=None, controller=None, keys=None, book=None,
          console=None, card=None, party=None):
    """The Board of a profile and a layout (controller built unless given;
    `keys`: the button reader if main() already made it; `console`: the status
    line's, a Console on sys.stdout unless given; `party`: online play's,
    the other board plays the other side)."""
    if controller is None:
        more = () if card is None and party is None else (card,) if party is None else (card, party)
        controller = _controller(prof, layout, tiles, store, book, *more)
    if console is None:
        console = Console()
    return assemble(prof, layout, modules, hardware, controller, keys, console=console)


def run(board, loop_ms=10, wdt=None, ticks=-1, clock=time.ticks_ms, sleep=time.sleep_ms):
    """Step the board every loop_ms (for ever, or `ticks` times).

    While a search is under way (the board's own action, a hint) the next
    step follows at once, unless this one wrote the LEDs (the next write
    would wait for that frame to leave): the search gets the time the loop
    would sleep, a slice a step as before, and the sensors are read more
    often, not less (a thinking step must still fit the 10 ms loop).
    """
    console = board.console
    drains = isinstance(console, Console)  # (a bound method would allocate)
    while ticks:
        start = clock()
        wrote = board.step(start)
        if drains:
            console.drain()  # the status line, as far as the serial port takes it now
        if wdt is not None:
            wdt.feed()
        left = loop_ms - ticks_diff(clock(), start)
        if left > 0 and (wrote or not board.searching):
            sleep(left)
        if ticks > 0:
            ticks -= 1


def main(ticks=-1, profile_path=PROFILE, layout_path=LAYOUT, save_path=SAVE,
         clock=time.ticks_ms, sleep=time.sleep_ms, book_path=BOOK, opening_path=OPENING):
    """Load, build and run; returns the Board when `ticks` runs out."""
    prof = profiles.load(profile_path)
    layout, modules, tiles = layoutfile.load(layout_path)
    keys = hardware.buttons(prof)  # inputs with their pulls on
    sleep(PULLS_MS)
    gesture = power_up(keys.read() if keys is not None else 0, exists(MAINTENANCE_FILE))
    if gesture == MAINTENANCE:
        print("attila: maintenance (UNDO+MENU held at power-up, or a file named %s): "
              "not starting" % MAINTENANCE_FILE)
        return None
    # A card may take seconds to start: the watchdog (one a soft reset left
    # running too) is fed meanwhile, so with a card it starts here.
    wdt = hardware.watchdog(prof.watchdog_ms) if prof.sdcard else None
    book, card, lines = open_tables(hardware, prof, layout, book_path, opening_path,
                                    None if wdt is None else wdt.feed)
    link, said = _online(clock)
    board = build(prof, layout, modules, tiles, _store(save_path), keys=keys, book=book, card=card,
                  party=link.party if link is not None else None)
    print("attila: %s on %s, %d squares" % (layout.name or "board", prof.name, layout.size))
    for line in lines[:3] + (said,):
        if line:
            print("attila: " + line)
    if link is not None:  # the network is served while the loop sleeps
        sleep = link.sleep
    elif not said and hardware.radio():  # a Pico W without online.json: why not at a distance
        print("attila: playing on this board, not online: no online.json with Wi-Fi "
              "settings (attila flash --wifi SSID --online ROOM-SECRET)")
    if lines[3]:
        board.trouble(lines[1])  # the profile names a card: the player must know
    if gesture == SELF_TEST:
        print("attila: MENU held at power-up: self-test")
        board.self_test(clock())
    elif _taken(RESUME_FILE):
        board.resume()  # a tool restarted the board mid-game: play on
    # Boot leaves most of the heap garbage (the files read, the save
    # restored); collected here, not by the loop's first allocation that
    # finds no room, which would stretch a step as the board decides. A
    # collection marks the whole live heap, however little garbage there is:
    # more than a step of the 10 ms loop can hold.
    if wdt is not None:
        wdt.feed()
    gc.collect()
    if wdt is None:
        wdt = hardware.watchdog(prof.watchdog_ms)
    if link is not None and wdt is not None:
        link.feed = wdt.feed  # (the broker's name looked up, TLS's handshake)
    run(board, prof.loop_ms, wdt, ticks, clock, sleep)
    return board


if __name__ == "__main__":
    main()
