"""`attila sim`: the simulator's command line.

  attila sim                      the window (text mode where there is no display)
  attila sim --text               play in the terminal
  attila sim --script FILE        headless: carry out FILE ('-' for stdin), write frames
  attila sim --replay FILE        step through a saved game or a game log
                                  (Space in the window, Enter in text mode,
                                  'next' lines in a script), with its analysis
                                  on the panel (--no-analysis: without)
Options: --layout boards/NAME.json, --first R|H, --computer R|H (--level
beginner|easy|normal|strong), --no-book (setup and the game's first turn of
play by the search, as a board without its setup book and opening table),
--speed X,
--profile boards/profiles/NAME.json,
--save FILE (keep the game there: quit, start again, resume), --format json|text
(scripted mode), --card DIR (play from the solved game `attila card` wrote),
--coach (with --card: judge each of your turns), --screenshot PNG (draw the
window after the script or replay, save it and quit), --seconds N (close the
window after N seconds).
Online (docs/pages/play/distance.md): --online ROOM-SECRET --broker HOST[:PORT]
--side R|H plays a friend's board, simulator or browser page through an MQTT
broker (--tls [CA], --user NAME for a broker that asks for one); without
--save the game is kept in games/online-ROOM-SIDE.txt, where the same
command finds it again.
"""

import os
import sys

from attila.errors import AttilaError
from attila.opponent.levels import LEVEL_NAMES

LEVELS = LEVEL_NAMES
# --no-book, as --help and the simulator page say it.
NO_BOOK = ("setup and the game's first turn of play by the search, as a board without its "
           "setup book and opening table (default: from boards/solved/<layout>.book and "
           ".opening when the layout has them, as a flashed board)")

from attila_tools.gamefiles import DEFAULT_LAYOUT, find_layout, layout_like, load_replay, saved_layout
from attila_tools.options import Parser


def open_card(folder, layout):
    """The solved game in `folder` (attila.tbl, as `attila card` writes it), open."""
    from attila_tools.files import open_card

    return open_card(folder, layout)


def setup_book(layout_path, layout):
    """The layout's setup book from boards/solved, open, or None (not solved)."""
    from attila.opponent import book
    from attila_tools.board.build import book_for

    path = book_for(layout_path, layout)[0]
    return book.open(path, layout) if path else None


def has_display(environ=None):
    """False where a window cannot open: Linux/BSD without X11 or Wayland."""
    env = os.environ if environ is None else environ
    if env.get("SDL_VIDEODRIVER"):
        return True
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))
    return True


def parser():
    p = Parser(
        prog="attila sim",
        description="The Attila board simulator: the real controller under virtual "
        "LEDs, reed switches and buttons.",
    )
    p.add_argument("--layout",
                   help="layout file (default %s; a replayed save brings its own)"
                   % DEFAULT_LAYOUT)
    p.add_argument("--first", choices=("R", "H"), default="R",
                   help="who places first: R Romans (default) or H Huns")
    p.add_argument("--computer", choices=("R", "H"),
                   help="the side the board plays (the computer opponent)")
    p.add_argument("--level", choices=LEVEL_NAMES,
                   help="how well the computer plays (default strong, or the level "
                   "of the game --save resumes)")
    p.add_argument("--no-book", dest="book", action="store_false", help=NO_BOOK)
    p.add_argument("--card", metavar="DIR",
                   help="the layout's solved game, as `attila card` writes it (DIR/attila.tbl): "
                   "the board plays from it at the normal and strong levels, as with a "
                   "microSD card")
    p.add_argument("--coach", action="store_true",
                   help="with --card: after each of your turns, say whether it kept a won "
                   "position or threw the win away")
    p.add_argument("--speed", type=float, default=1.0,
                   help="speed of the clock, 1/16 to 64 (2 = blinking twice as fast; default 1)")
    p.add_argument("--text", action="store_true", help="play in the terminal")
    p.add_argument("--script", metavar="FILE",
                   help="headless: carry out the actions in FILE ('-' = stdin), write frames")
    p.add_argument("--format", choices=("json", "text"), default="json",
                   help="what --script writes (default json lines)")
    p.add_argument("--replay", metavar="FILE",
                   help="a saved game or a game log to replay step by step")
    p.add_argument("--no-analysis", action="store_true",
                   help="replay without the analysis on the panel (won/lost before and "
                   "after each step, the wins thrown away)")
    p.add_argument("--profile", metavar="FILE",
                   help="hardware profile (boards/profiles/...json): its wiring, LED colour "
                   "order, brightness, power budget and debounce (default: plain wiring, GRB)")
    p.add_argument("--save", metavar="FILE",
                   help="keep the game in FILE so a restart resumes it, with the side and "
                   "level the board plays unless --computer says otherwise (default: "
                   "memory only; online: games/online-ROOM-SIDE.txt)")
    p.add_argument("--screenshot", metavar="PNG",
                   help="draw the window (after --script/--replay), save it and quit")
    p.add_argument("--seconds", type=float,
                   help="close the window after this many seconds")
    p.add_argument("--online", metavar="ROOM-SECRET",
                   help="play a friend's board through an MQTT broker: the room code you "
                   "both use (the room names the game, the secret signs every move)")
    p.add_argument("--broker", metavar="HOST[:PORT]",
                   help="with --online: the MQTT broker (port 1883, 8883 with --tls)")
    p.add_argument("--side", choices=("R", "H"),
                   help="with --online: the side you play here (the other board plays the other)")
    p.add_argument("--tls", metavar="CA", nargs="?", const="",
                   help="with --online: reach the broker over TLS, its certificate checked "
                   "against the CA file given (default: the system's CAs)")
    p.add_argument("--user", help="with --online: the broker's user name (the password is "
                   "asked for, or taken from ATTILA_BROKER_PASSWORD)")
    return p


def _script_lines(path):
    """The lines of a script file ('-': stdin), read as UTF-8 text."""
    from attila_tools.files import FileError, read_bytes, text_of

    if path == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else \
            sys.stdin.read().encode("utf-8")
        source = "stdin"
    else:
        data = read_bytes(path)
        source = path
    lines = text_of(data, source).splitlines()
    if not any(line.strip() and not line.strip().startswith("#") for line in lines):
        raise FileError("%s: no action in it (see attila sim --help)" % source)
    return lines


def check_save(path, layout, chosen):
    """Make sure `--save PATH` harms nothing; the layout to play on.

    A file that is not ours is never touched; a save made on another layout
    brings it along unless --layout `chosen` says otherwise; a save the board
    would refuse is moved aside (PATH.bad), never deleted. Returns (layout or
    None to keep the chosen one, a line to say or "").
    """
    from attila.saves.savetext import VERSION, restore, unpack
    from attila.saves.store import DAMAGED, FOREIGN, MISSING, Store, probe
    from attila_tools.files import FileError, read_bytes

    kind = probe(path)
    if os.path.isdir(path):
        raise FileError("%s: is a folder; give --save a file name, like %s"
                        % (path, os.path.join(path, "game.txt")))
    if kind == FOREIGN:
        raise FileError("%s: not a saved game (its first line is not %r); left as it is: "
                        "give --save another file name" % (path, VERSION))
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise FileError("%s: no folder %s to keep the game in" % (path, folder))
    tmp = path + ".tmp"
    if os.path.lexists(tmp):
        head = b"" if os.path.isdir(tmp) else read_bytes(tmp, len(VERSION) + 1)
        if os.path.isdir(tmp) or not (VERSION + "\n").encode().startswith(head):
            raise FileError("%s: in the way of the save (written there first); "
                            "not a save of ours, left as it is: move it" % tmp)
    if kind == MISSING:
        return None, ""
    try:
        saved = restore(unpack(read_bytes(path)))
    except AttilaError as e:
        why = str(e)
    else:
        if saved.layout == layout:
            return None, ""
        if chosen:
            raise FileError("%s: the saved game is for the layout %s, not %s; leave out "
                            "--layout to resume it there, or give --save another file"
                            % (path, "/".join(saved.layout.rows()), chosen))
        return saved.layout, ""
    if kind == DAMAGED:
        return None, "%s: damaged save (%s)" % (path, why.replace("save: ", ""))
    store = Store(path)
    store.load()
    store.reject()  # ours, checksum and all, but no board could take it back
    return None, "%s: saved game refused (%s); kept aside as %s; a new game starts" % (
        path, why.replace("save: ", ""), store.aside)


def _saved_opponent(path):
    """(side, level) the board played in the game saved at `path`, or None."""
    from attila.saves.savetext import unpack
    from attila_sim.rig import saved_opponent
    from attila_tools.files import read_bytes

    try:
        return saved_opponent(unpack(read_bytes(path)))
    except (AttilaError, OSError):
        return None


def main(argv=None):
    """Run the simulator; returns the exit code."""
    args = parser().parse_args(argv)
    from attila.game import layoutfile
    from attila_sim.rig import Rig
    from attila_sim.table import TableError
    from attila_tools.board.build import opening_table
    from attila_tools.files import check_output, fail

    if not 1 / 16 <= args.speed <= 64:  # also refuses nan
        return fail("attila sim", "--speed %g: must be a number from 0.0625 (1/16) to 64"
                    % args.speed)
    if args.seconds is not None and not args.seconds > 0:  # also refuses nan
        return fail("attila sim", "--seconds %g: must be more than 0 (the window closes "
                    "after that long)" % args.seconds)
    said = ""
    try:
        lines = _script_lines(args.script) if args.script else None
        if args.screenshot:
            check_output(args.screenshot, "png")
        layout_path = find_layout(args.layout or DEFAULT_LAYOUT)
        layout, modules, tiles = layoutfile.load(layout_path)
        first = "RH".index(args.first)
        items = None
        if args.replay:
            saved = saved_layout(args.replay)
            if saved is not None and saved != layout and not args.layout:
                # A save from a board laid out otherwise: its own layout.
                layout, modules, tiles = layout_like(saved)
                layout_path = None
            first, items, tiles = load_replay(args.replay, layout, tiles)
        if args.online and args.side and not args.save:
            from attila_sim.online import kept_in

            args.save = kept_in(args.online, args.side)
        if args.save:
            saved, said = check_save(args.save, layout, args.layout)
            if saved is not None:
                layout, modules, tiles = layout_like(saved)
                layout_path = None
        computer = "RH".index(args.computer) if args.computer else -1
        level = LEVELS.index(args.level or "strong")
        if args.save and not args.computer:
            who = _saved_opponent(args.save)
            if who is not None:
                computer, saved_level = who
                level = level if args.level else saved_level
                said = (said + "; " if said else "") + (
                    "%s: the board plays the %s at the %s level, as in the saved game "
                    "(--computer: another side)" % (args.save, ("Romans", "Huns")[computer],
                                                   LEVELS[level]))
        party = None
        if args.online or args.broker or args.side:
            from attila_sim.online import check_options, party_for

            check_options(args)
            party = party_for(args.online, args.side, args.save)
            computer = -1  # the other side is played on the other board
        profile = None
        if args.profile:
            from attila import profile as profiles

            profile = profiles.load(find_layout(args.profile))
        rig = Rig(
            layout, modules, tiles,
            first=first,
            computer=computer,
            speed=args.speed,
            save=args.save,
            profile=profile,
            level=level,
            book=setup_book(layout_path, layout) if args.book else None,
            card=open_card(args.card, layout) if args.card
            else opening_table(layout_path, layout) if args.book else None,
            coach=args.coach,
            online=party,
        )
        if party is not None:
            from attila_sim.online import link_for

            rig.link = link_for(party, args)
            rig.kept_in = args.save
        if items is not None:
            from attila_sim.review import ReplayReview

            rig.start_replay(items, ReplayReview(layout, first, items, tiles,
                                                 enabled=not args.no_analysis))
    except (AttilaError, OSError) as e:
        return fail("attila sim", e)
    aside = getattr(rig.store, "aside", None)
    if said and aside and "kept aside" not in said:
        said += "; kept aside as %s; a new game starts" % aside
    if said:
        print("attila sim: " + said, file=sys.stderr)
    if getattr(rig, "link", None) is not None:
        print("attila sim: online, the game is kept in %s (--save FILE: elsewhere)" % args.save,
              file=sys.stderr)

    if lines is not None:
        from attila_sim import script

        source = "stdin" if args.script == "-" else args.script
        try:
            if not args.screenshot:
                try:
                    return script.run(rig, lines, sys.stdout, args.format, source)
                except BrokenPipeError:  # | head: the reader has seen enough
                    return 0
            from attila_sim import actions

            todo = actions.parse_lines(rig.layout, lines, source)
        except (AttilaError, OSError) as e:
            return fail("attila sim", e)
        try:
            for _, _, steps in todo:
                if steps[0][0] == "quit":
                    break
                if steps[0][0] not in ("show", "help"):
                    rig.do(steps)
        except TableError as e:
            print("attila sim: %s" % e, file=sys.stderr)
            return 1

    if args.screenshot:
        if not args.script:
            rig.replay_all()
        rig.review_lines(wait=True)  # the analysis of the last step, on the picture
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        from attila_sim.window import Window

        window = Window(rig)
        held = rig.table.held()
        if held is not None:
            # A piece in the hand hovers just above where it was picked up.
            if held.origin >= 0:
                x, y = window.square_center(held.origin)
            else:
                x, y = window.slots[held.kind][0].center
            window.pointer = (x + window.s // 3, y - window.s // 3)
        try:
            window.save(args.screenshot)
        except OSError as e:
            return fail("attila sim", e)
        return 0

    if args.text or not has_display():
        if not args.text:
            print("attila sim: no display found (no DISPLAY or WAYLAND_DISPLAY); "
                  "playing in text mode", file=sys.stderr)
        from attila_sim import text

        return _quit(rig, text.run(rig))

    try:
        from attila_sim.window import Window

        window = Window(rig)
    except Exception as e:  # pygame cannot open a window here
        print("attila sim: cannot open a window: %s; playing in text mode" % e,
              file=sys.stderr)
        from attila_sim import text

        return _quit(rig, text.run(rig))
    return _quit(rig, window.run(None if args.seconds is None else int(args.seconds * 1000)))


def _quit(rig, code):
    """Say what a player quitting needs to know for the restart; `code`."""
    words = rig.quit_words()
    if words:
        print("attila sim: " + words, file=sys.stderr)
    link = getattr(rig, "link", None)  # online: leave the broker (the other board is told)
    if link is not None:
        link.close()
        print("attila sim: the game is kept in %s: the same command resumes it"
              % rig.kept_in, file=sys.stderr)
    return code
