"""Attila board, MicroPython entry point (copied to the board as /main.py).

Reads /profile.json (the hardware: pins, sensors, LEDs) and /layout.json (the
modules: where each lies and its place in the chain), builds the board and
runs its loop every `loop_ms`, feeding the watchdog where the port has one.

Buttons held at power-up (attila.board.power_up, the same on every port):
MENU starts the self-test; UNDO and MENU, or a file named `maintenance` on
the board, stop main.py before the watchdog starts, leaving the REPL free
for mpremote. The status line is printed whenever it changes, through
attila.console: a byte at a time while the USB serial takes it, so a host that
holds the port open without reading never stalls the loop. The game is kept
in game.txt and journal/now/game.txt.jnl (attila.saves.store: every accepted action
is on the flash before the board shows it), finished games in games/
(`attila games` fetches them). The layout's setup
book (/layout.book, copied by `attila flash`) is opened if it is there; without
it (or damaged) the board searches its placements and says so once; its
opening table (/layout.opening, attila.opponent.opening) makes the first turn of play
exact, the same way. A profile
with an "sdcard" reads the layout's solved game from it (attila.opponent.card); a
missing, damaged or foreign card is said once, with the trouble sign. A
board with Wi-Fi (a Pico W) says why it is not online.
"""

import gc
import time

import hardware
from attila import profile as profiles
from attila.game import layoutfile
from attila.assembly import BOOK, OPENING, assemble, controller_for, exists, open_tables
from attila.board import MAINTENANCE, MAINTENANCE_FILE, PULLS_MS, RESUME_FILE, SELF_TEST, power_up
from attila.console import Console
from attila.ticks import ticks_diff

PROFILE = "profile.json"
LAYOUT = "layout.json"
SAVE = "game.txt"
GAMES = "games"  # finished games are kept there (attila games fetches them)
ONLINE = "online.json"  # online play's settings (attila flash --online writes them)


# The controller a profile asks for (a test may put a stub here).
_controller = controller_for


def _store(path):
    try:
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
    plan = getattr(board.controller, "plan", None)  # .busy: a search under way
    while ticks:
        start = clock()
        wrote = board.step(start)
        if drains:
            console.drain()  # the status line, as far as the serial port takes it now
        if wdt is not None:
            wdt.feed()
        left = loop_ms - ticks_diff(clock(), start)
        if left > 0 and (wrote or plan is None or not plan.busy):
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
    wdt = hardware.watchdog(prof.watchdog_ms) if getattr(prof, "sdcard", False) else None
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
        board.controller.trouble(lines[1])  # the profile names a card: the player must know
    if gesture == SELF_TEST:
        print("attila: MENU held at power-up: self-test")
        board.controller.self_test(clock())
    elif _taken(RESUME_FILE) and hasattr(board.controller, "resume"):
        board.controller.resume()  # a tool restarted the board mid-game: play on
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
