"""`attila flash`: build the firmware and copy it, with a layout and a profile, to a board.

    attila flash [--port PORT] [--layout FILE] [--profile FILE]
                 [--computer R|H|none] [--level LEVEL] [--card 1|0]
                 [--keep-game | --clear-game] [--source] [--dry-run] [--no-reset]
    attila flash --drive PATH --profile FILE [--layout FILE] [--computer ...]
                 [--level ...] [--card ...] [--source] [--dry-run]

With --drive, the CircuitPython port goes onto a mounted CIRCUITPY drive
(attila_tools.board.drive says how); without it, onto a MicroPython board:

1. checks the layout and the profile on this computer (the board would only
   say "error" with its LEDs); --computer, --level and --card go into the
   copy of the profile the board gets (attila_tools.board.settings),
2. compiles the firmware with mpy-cross to build/flash/ (main.py stays .py),
3. finds the board (the one MicroPython board plugged in, or --port),
   interrupts what runs on it and checks its MicroPython can load the .mpy
   files; compiles the modules with native code (attila/opponent/kernelv.py) for the
   board's own arch (sys.implementation._mpy: armv6m on an RP2040), or keeps
   them source where the board does not say it (it compiles them at boot),
4. copies only what changed (sha256 on the board against the local file) as
   main.py, hardware.mpy, attila/*.mpy, layout.json, layout.book (the
   layout's setup book, boards/solved/<layout>.book, when it is solved),
   layout.opening (its opening table, boards/solved/<layout>.opening: the
   game's first turn of play is exact), profile.json; removes stale
   firmware files (an old attila/x.py would shadow x.mpy; the book or the
   opening table of another layout),
5. reads every hash back to verify what landed,
6. keeps the saved game (game.txt) unless --clear-game,
7. soft-resets the board: main.py starts, and its first line is shown.

Switching layouts is the same command with another --layout: only
layout.json, its book and its opening table are copied. Exit status 0 when
the board runs the new firmware, 1 when the board is missing/refuses/fails
to verify, 2 on bad files/arguments.
"""

import hashlib
import os
import time

from attila.saves.store import journal_of

from attila_tools.board import build, online_cmd, room, settings
from attila_tools.board.device import (SerialBoard, DeviceError, check_chip, check_compatible,
                                       check_port, find_port)
from attila_tools.board.onboard import MAINTENANCE, calm, read_game, uncalm
from attila_tools.errors import UsageError
from attila_tools.options import Parser

# The saved game, the half-written save of a cut, and the journal of actions since.
SAVES = (build.SAVE_FILE, build.SAVE_FILE + ".tmp", journal_of(build.SAVE_FILE))


def say(msg=""):
    print(msg, flush=True)


def parser():
    p = Parser(
        prog="attila flash", description="Build the firmware and copy it to a MicroPython board."
    )
    p.add_argument("--port", help="serial port of the board (default, or auto: the one MicroPython "
                   "board plugged in)")
    p.add_argument("--drive", metavar="PATH",
                   help="a CircuitPython board's mounted CIRCUITPY drive: copy the "
                        "CircuitPython port there (with a circuitpython --profile)")
    p.add_argument("--layout", help="layout file (default boards/4x5.json)")
    p.add_argument("--profile", help="hardware profile (default boards/profiles/pico.json)")
    settings.add_arguments(p)
    game = p.add_mutually_exclusive_group()
    game.add_argument("--keep-game", dest="clear_game", action="store_false",
                      help="keep the saved game on the board (default)")
    game.add_argument("--clear-game", dest="clear_game", action="store_true",
                      help="remove the saved game: the board starts a new one")
    p.add_argument("--source", action="store_true",
                   help="copy the .py sources instead of compiled .mpy files")
    p.add_argument("--dry-run", action="store_true",
                   help="show what would be copied and removed; change nothing")
    p.add_argument("--no-reset", action="store_true", help="leave the board in the REPL")
    p.add_argument("--wait", type=float, default=8.0, metavar="S",
                   help="seconds to wait for the firmware to start after the reset (default 8)")
    online_cmd.add_arguments(p)
    p.set_defaults(clear_game=False)
    return p


def check_files(layout_path, profile_path, port="micropython"):
    """Load the layout and the profile as the board will; (layout, profile)."""
    from attila.game import layoutfile
    from attila import profile as profiles
    from attila.errors import AttilaError

    for what, path in (("layout", layout_path), ("profile", profile_path)):
        if os.path.isdir(path):
            raise UsageError("%s file %s is a folder" % (what, path))
        if not os.path.exists(path):
            raise UsageError("%s file %s does not exist" % (what, path))
    try:
        layout, modules, _tiles = layoutfile.load(layout_path)
        prof = profiles.load(profile_path)
        wiring = prof.wiring(layout, modules)
    except AttilaError as e:
        raise UsageError(str(e))
    try:
        prof.check_sensors(wiring)
    except AttilaError as e:
        raise UsageError("%s (layout %s)" % (e, layout_path))
    if port == "circuitpython" and prof.port != port:
        raise UsageError(
            "%s is a %s profile; --drive installs the CircuitPython port (give a circuitpython "
            "profile, or flash a MicroPython board with --port)" % (profile_path, prof.port))
    if prof.port != port:
        raise UsageError(
            "%s is a %s profile; --port installs the MicroPython port: for a CircuitPython "
            "board, attila flash --drive PATH --profile %s (PATH: its mounted CIRCUITPY drive)"
            % (profile_path, prof.port, profile_path)
        )
    return layout, prof


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def set_aside(board, layout):
    """Move a saved game that does not fit `layout` to games/ on the board.

    The firmware would ignore it and start afresh over it; moved, it can
    still be fetched (`attila games`). Returns its new path, or None when the
    save fits the layout (or cannot be read at all); "" when it held no
    action (the save of a new game, which the board writes at rest): removed.
    """
    from attila.errors import AttilaError
    from attila.saves.savetext import restore, unpack

    data = read_game(board, build.SAVE_FILE)  # with the journal's actions
    if data is None:
        return None
    text = data.decode("utf-8", "replace")
    try:
        restore(text, layout)
        return None
    except AttilaError:
        pass
    except ValueError:
        return None
    try:
        empty = not restore(unpack(data)).history  # (ours: its checksum holds)
    except AttilaError:
        empty = False
    if empty:
        board.remove(build.SAVE_FILE)
        board.remove(journal_of(build.SAVE_FILE))
        return ""
    name = "games/saved-%s.txt" % time.strftime("%Y%m%d-%H%M%S")
    board.write(name, data)
    if board.hashes([name]).get(name) != hashlib.sha256(data).hexdigest():
        raise DeviceError("could not set the old saved game aside as %s" % name)
    board.remove(build.SAVE_FILE)
    board.remove(journal_of(build.SAVE_FILE))
    return name


def _size(path):
    n = os.path.getsize(path)
    return "%d bytes" % n if n < 10000 else "%.1f kB" % (n / 1000.0)


def run(args):
    layout_path = args.layout or build.DEFAULT_LAYOUT
    if args.drive is not None:
        return _drive(args, layout_path)
    profile_path = args.profile or build.default_profile()
    if not profile_path:
        raise UsageError("no hardware profile: give --profile FILE (see boards/profiles/)")
    layout, prof = check_files(layout_path, profile_path)
    profile_path, prof = settings.for_board(args, profile_path, prof, build.BUILD, say)
    if args.port:
        check_port(args.port)  # before the build: a typo is told at once
    args.online_files, online_line = online_cmd.files(args)  # passwords asked for first
    files = build.plan(layout_path, profile_path, source=args.source)
    mpy = build.mpy_version(files)
    say("attila flash: %s on %s (%s), %d files%s" % (
        os.path.relpath(layout_path), os.path.relpath(profile_path), prof.sensor_kind,
        len(files), "" if args.source else ", compiled to .mpy v%d in %s" % (
            mpy[0], os.path.relpath(build.BUILD))))
    book, why = build.book_for(layout_path)
    if book:
        say("attila flash: setup book %s (%s): the board places from it"
            % (os.path.relpath(book), _size(book)))
    else:
        say("attila flash: no setup book: %s; the board searches its placements" % why)
    if online_line:
        say("attila flash: " + online_line)

    port = find_port(args.port)
    with SerialBoard(port) as board:
        info = board.info()
        version = ".".join(str(v) for v in info.get("version", ())[:3])
        say("attila flash: board on %s: %s %s (%s)" % (
            port, info.get("name"), version, info.get("machine") or info.get("platform")))
        if args.source and info.get("name") == "micropython":
            problem = None  # sources run on any recent MicroPython
        else:
            problem = check_compatible(info, mpy or (6, 0, 0))
        if problem:
            raise DeviceError(problem)
        problem = check_chip(info, prof, profile_path)
        if problem:
            raise UsageError(problem)
        if not args.source:
            files = _native(layout_path, profile_path, info)
        files = _fit(layout_path, files, info.get("fs"))
        local = {dest: sha256_file(src) for dest, src in files.items()}

        created = calm(board)
        try:
            return _flash(args, board, port, files, local, layout, created)
        finally:
            if created:
                uncalm(board)  # never leave the board stopped by our marker


def _drive(args, layout_path):
    from attila_tools.board import drive

    if args.port:
        raise UsageError("give --drive or --port, not both")
    if not args.profile:
        raise UsageError("--drive needs --profile FILE (a circuitpython profile, e.g. "
                         "boards/profiles/circuitpython-pico.json)")
    _layout, prof = check_files(layout_path, args.profile, "circuitpython")
    profile_path, prof = settings.for_board(args, args.profile, prof, build.BUILD, say)
    return drive.run(args.drive, layout_path, profile_path, prof, source=args.source,
                     dry_run=args.dry_run, say=say)


def _fit(layout_path, files, fs):
    """The files that fit the board's file system (fs: its (block size, blocks));
    says whether the layout's opening table goes with them."""
    files, note = room.fit(files, fs)
    opening, why = build.opening_for(layout_path)
    if note:
        say("attila flash: %s" % note)
    elif opening:
        say("attila flash: opening table %s (%s): the game's first turn of play is exact"
            % (os.path.relpath(opening), _size(opening)))
    else:
        say("attila flash: %s; the game's first turn of play is searched" % why)
    return files


def _native(layout_path, profile_path, info):
    """The plan again, its native modules compiled for the board's arch (or kept source)."""
    arch = build.native_arch(info.get("mpy"))
    notes = []
    files = build.plan(layout_path, profile_path, arch=arch, notes=notes)
    modules = [dest[:-3] for dest, src in build.sources() if build.native(src)]
    compiled = [m + ".mpy" for m in modules if m + ".mpy" in files]
    kept = [m + ".py" for m in modules if m + ".py" in files]
    if compiled:
        say("attila flash: native code compiled for the board's %s: %s" % (arch, ", ".join(compiled)))
    for note in notes:
        say("attila flash: %s" % note)
    if arch is None and kept:
        say("attila flash: %s copied as source: the board names no native arch that "
            "mpy-cross can target, so it compiles %s at every boot"
            % (", ".join(kept), "it" if len(kept) == 1 else "them"))
    return files


def _flash(args, board, port, files, local, layout, created):
    on_board = [p for p in board.files() if not (created and p == MAINTENANCE)]
    remote = board.hashes(list(files))
    changed = [p for p in files if remote.get(p) != local[p]]
    stale = build.stale_files(on_board, files)
    saved = [p for p in SAVES if p in on_board]
    say("attila flash: %d to copy, %d up to date, %d stale to remove" % (
        len(changed), len(files) - len(changed), len(stale)))
    for p in changed:
        say("  %s %-22s %s" % ("copy  " if remote.get(p) is None else "update", p, _size(files[p])))
    for p in stale:
        say("  remove %s" % p)
    if args.dry_run:
        if saved:
            say("attila flash: the saved game would be %s" % (
                "removed" if args.clear_game else "kept"))
        say("attila flash: dry run, nothing changed")
        if created:
            uncalm(board)
            board.reset(wait=2.0)
        return 0

    for p in changed:
        with open(files[p], "rb") as f:
            board.write(p, f.read())
    for p in stale:
        board.remove(p)
    _online(board, getattr(args, "online_files", None))
    if args.clear_game:
        for p in SAVES:
            board.remove(p)
    elif build.SAVE_FILE in saved:
        kept = set_aside(board, layout)
        if kept is not None:
            saved = []  # (set aside, or a new game's save removed)
        if kept:
            say("attila flash: the saved game is for another layout; it is kept on the board "
                "as %s (fetch it with `attila games`)" % kept)

    after = board.hashes(list(files))
    bad = [p for p in files if after.get(p) != local[p]]
    if bad:
        raise DeviceError(
            "verification failed: %s differ%s on the board after copying. "
            "Check the USB cable and the board's free space (`mpremote df`), then retry."
            % (", ".join(bad), "s" if len(bad) == 1 else ""))
    left = [p for p in board.files() if p in stale]
    if left:
        raise DeviceError("could not remove %s from the board" % ", ".join(left))
    say("attila flash: verified %d files (sha256)" % len(files))
    if saved and args.clear_game:
        say("attila flash: saved game removed; the board starts a new game")
    elif saved:
        say("attila flash: saved game kept (%s); --clear-game starts afresh" % build.SAVE_FILE)
    if MAINTENANCE in on_board:
        say("attila flash: note: the board has a '%s' file, so main.py stops at once "
            "(remove it: mpremote connect %s rm :%s)" % (MAINTENANCE, port, MAINTENANCE))

    if args.no_reset:
        say("attila flash: not reset (--no-reset); press the board's reset or unplug it")
        return 0
    if created:
        uncalm(board)
    online = bool((getattr(args, "online_files", None) or {}).get(online_cmd.SETTINGS))
    out = board.reset(wait=args.wait, ready=online_cmd.LINE if online else b"attila:")
    lines = [l for l in out.splitlines() if l.strip() and not l.startswith(">>>")]
    if "Traceback" in out:
        raise DeviceError("the firmware stopped with an error after the reset:\n%s" % "\n".join(
            "  " + l for l in lines))
    for line in online_cmd.said(lines, online):
        say(line)
    return 0



def _online(board, settings):
    """Online play's settings to the board (attila_tools.board.online_cmd), verified;
    a None is removed. What they hold is never printed."""
    if not settings:
        return
    for path, data in sorted(settings.items()):
        if data is None:
            board.remove(path)
            continue
        board.write(path, data)
        if board.hashes([path]).get(path) != hashlib.sha256(data).hexdigest():
            raise DeviceError("verification failed: %s differs on the board" % path)
    say("attila flash: online settings %s" % (
        "removed" if settings.get(online_cmd.SETTINGS) is None else "written (online.json)"))


def switch_layout(port, layout_path, wait=8.0):
    """Copy just a layout, its setup book and its opening table, to a flashed board
    (`attila layout FILE --port PORT`).

    The layout is checked against the profile already on the board; a saved
    game for the old layout is set aside (games/ on the board), not lost.
    """
    from attila.game import layoutfile

    layout, modules, _tiles = layoutfile.load(layout_path)  # LayoutError: exit 2
    if port:
        check_port(port)
    with open(layout_path, "rb") as f:
        data = f.read()
    with SerialBoard(find_port(port)) as board:
        created = calm(board, "attila layout")
        try:
            _switch(board, layout_path, layout, modules, data, created)
        finally:
            if created:
                uncalm(board)
        out = board.reset(wait=wait)
        ready = [l for l in out.splitlines() if l.startswith("attila:")]
        if "Traceback" in out:
            raise DeviceError("the firmware stopped with an error after the reset:\n" + out)
        say("attila layout: reset; the board says: %s" % (ready[0] if ready else out.strip()[:200]))
    return 0


def _switch(board, layout_path, layout, modules, data, created):
    from attila import profile as profiles
    from attila.errors import AttilaError

    text = board.read(build.PROFILE_FILE)
    if text is None or board.hashes([build.ENTRY]).get(build.ENTRY) is None:
        raise DeviceError("the board has no firmware yet; flash it first: "
                          "attila flash --layout %s --profile FILE" % layout_path)
    problem = None
    try:
        prof = profiles.loads(text.decode("utf-8", "replace"), "profile.json on the board")
        prof.check_sensors(prof.wiring(layout, modules))
    except AttilaError as e:
        problem = "%s does not fit the board: %s" % (layout_path, e)
    if problem:
        if created:
            uncalm(board)
        board.reset(wait=2.0)  # back to the game it was playing
        raise DeviceError(problem + "; the board keeps its layout")
    digest = hashlib.sha256(data).hexdigest()
    if board.hashes([build.LAYOUT_FILE]).get(build.LAYOUT_FILE) == digest:
        say("attila layout: the board already has %s" % layout_path)
    else:
        board.write(build.LAYOUT_FILE, data)
        if board.hashes([build.LAYOUT_FILE]).get(build.LAYOUT_FILE) != digest:
            raise DeviceError("verification failed: layout.json differs on the board")
        say("attila layout: copied %s to the board as %s (verified)"
            % (layout_path, build.LAYOUT_FILE))
    _solved(board, layout_path, build.book_for, build.BOOK_FILE, "setup book")
    _solved(board, layout_path, build.opening_for, build.OPENING_FILE, "opening table")
    kept = set_aside(board, layout)
    if kept:
        say("attila layout: the saved game is for another layout; kept on the board as %s" % kept)


def _solved(board, layout_path, find, dest, what):
    """The layout's setup book (or opening table: `find`, build.book_for or
    build.opening_for) to the board as `dest` (verified; not copied when the
    board has it already), or the old layout's removed when this layout has none."""
    src, why = find(layout_path)
    if src is None:
        if board.hashes([dest]).get(dest) is not None:
            board.remove(dest)
            say("attila layout: removed the old layout's %s (%s)" % (dest, why))
        return
    digest = sha256_file(src)
    if board.hashes([dest]).get(dest) == digest:
        return
    with open(src, "rb") as f:
        board.write(dest, f.read())
    if board.hashes([dest]).get(dest) != digest:
        raise DeviceError("verification failed: %s differs on the board" % dest)
    say("attila layout: copied its %s %s as %s (verified)" % (what, os.path.relpath(src), dest))


def main(argv=None):
    return run(parser().parse_args(argv))
