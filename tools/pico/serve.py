"""The emulated Pico behind a pseudo-terminal: a serial port for mpremote and `make flash`.

    python tools/pico/serve.py --state /tmp/myboard     # prints /dev/pts/N
    make flash PORT=/dev/pts/N PROFILE=boards/profiles/pico.json

A CircuitPython profile boots CircuitPython with the folder `attila flash
--drive` filled as its CIRCUITPY drive (--drive FOLDER, default
STATE/CIRCUITPY), made anew at each start (the board's saved game, in its
nvm, is kept):

    mkdir -p /tmp/mycp/CIRCUITPY
    attila flash --drive /tmp/mycp/CIRCUITPY --profile boards/profiles/circuitpython-pico.json
    python tools/pico/serve.py --state /tmp/mycp --profile boards/profiles/circuitpython-pico.json

What the board says on its serial port (its status lines) shows on this
terminal too, as "board: ...", so no second terminal is needed to read it.

The chip runs in real time (never ahead of the wall clock) with its flash in
STATE/flash.bin, kept between runs (a new one holds an empty file system;
MicroPython formats it at first boot). While it runs, type on stdin what
your hands do on the board wired by --layout and --profile (square names are
those of the layout on the board's flash: after `attila layout` or `make
flash` with another layout, its own; a typo is answered, the board runs on).
`help` lists the lines (HELP below).

From Python (tests): with Served(folder, layout, profile) as s: s.port ...
"""

import argparse
import os
import pty
import sys
import threading
import time
import tty

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
if not __package__:  # run as a script: its package and the firmware on the path
    for p in (os.path.join(ROOT, "tools"), os.path.join(ROOT, "firmware")):
        if p not in sys.path:
            sys.path.insert(0, p)
    __package__ = "pico"

from attila.errors import AttilaError  # noqa: E402
from attila.game import layoutfile  # noqa: E402
from attila import profile as profiles  # noqa: E402
from . import circuitpy  # noqa: E402
from . import flashimage  # noqa: E402
from .board import MENU, UNDO, PicoBoard, build_for  # noqa: E402
from .chip import PicoError, new_flash  # noqa: E402
from .flashimage import read_files  # noqa: E402

WATCH_S = 0.2  # how often the terminal is given the board's new lines
HELP = """\
What your hands do on the board (squares are named like b3):
  put a1,b3       magnets on exactly these squares, none elsewhere (put -: none at all)
  hold menu       hold a button down (menu or undo) until: release menu
  unplug 3        pull out the cable into module 3 of a 74HC165 chain; plug: put it back
  leds            the colour each lit square shows
  power           cut the power and switch it on again
  quit            stop the board (or Ctrl-C)"""
BUTTON_NAMES = {"undo": UNDO, "menu": MENU}


class ServeError(PicoError):
    """The board cannot be served as asked (the message says what to do)."""


def circuitpy_flash(flash, drive, profile_path):
    """Make `flash` CircuitPython with the folder `drive` as its CIRCUITPY
    volume, keeping the nvm (the saved game) of a flash already there."""
    if drive is None or not os.path.isdir(drive):
        raise ServeError(
            "%s is a CircuitPython profile: fill a folder named CIRCUITPY first (attila flash "
            "--drive FOLDER/CIRCUITPY --profile %s), then give serve.py --drive "
            "FOLDER/CIRCUITPY (default: --state's CIRCUITPY)%s"
            % (profile_path, profile_path, "; %s is not a folder" % drive if drive else ""))
    why = circuitpy.available()
    if why:
        raise ServeError(why)
    image = bytearray(circuitpy.flash_image(circuitpy.folder_files(drive)))
    if os.path.exists(flash):
        with open(flash, "rb") as f:
            old = f.read()
        nvm = slice(circuitpy.NVM_OFFSET, circuitpy.NVM_OFFSET + circuitpy.NVM_SIZE)
        if len(old) == len(image):
            image[nvm] = old[nvm]
    with open(flash, "wb") as f:
        f.write(image)


def same_build(flash, profile_path):
    """ServeError unless the flash file holds the MicroPython build the profile's
    board runs (RPI_PICO, or RPI_PICO_W for a Pico W: their file systems lie apart)."""
    with open(flash, "rb") as f:
        have = flashimage.build_in(f.read())
    want = build_for(profile_path)
    if have is not want:
        raise ServeError("%s holds MicroPython's %s build, and %s is for a board that runs %s: "
                         "give serve.py another --state (or remove that flash.bin)"
                         % (flash, have.name, profile_path, want.name))


class Served(PicoBoard):
    """A PicoBoard whose USB serial port is a pseudo-terminal (`.port`), run in real time.

    drive: for a CircuitPython profile, the folder `attila flash --drive`
    filled (default: folder/CIRCUITPY); refused for a MicroPython one."""

    def __init__(self, folder, layout_path, profile_path, drive=None):
        os.makedirs(folder, exist_ok=True)
        flash = os.path.join(folder, "flash.bin")
        if profiles.load(profile_path).port == "circuitpython":
            circuitpy_flash(flash, drive or os.path.join(folder, "CIRCUITPY"), profile_path)
        elif drive is not None:
            raise ServeError("--drive is for a CircuitPython profile; %s is a MicroPython one "
                             "(flash it with make flash PORT=...)" % profile_path)
        elif not os.path.exists(flash):
            new_flash(flash, {}, build_for(profile_path).uf2)
        else:
            same_build(flash, profile_path)
        super().__init__(flash, layout_path, profile_path)
        with open(layout_path, "rb") as f:
            self._layout_bytes = f.read()
        self._master = self._slave = None
        self.port = None
        self._lock = threading.Lock()
        self._watching = False

    def start(self):
        self._master, self._slave = pty.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.port = os.ttyname(self._slave)
        master = self._master
        self.pico._extra_args = lambda: ["--pty-fd", str(master)]
        self.pico._pass_fds = lambda: (master,)
        super().start()
        self.pico._cmd(op="serve")
        return self

    def words(self):
        """The board's whole lines on its serial port since the last call (the
        raw REPL's framing of a flash session left out)."""
        data = self.pico.serial
        end = data.rfind(b"\n") + 1
        if not end:
            return []
        chunk = bytes(data[:end])
        del data[:end]  # (serve.py waits for no text: nothing else reads it)
        out = []
        for raw in chunk.split(b"\n"):
            line = raw.rstrip(b"\r").decode("utf-8", "replace")
            if line and line.isprintable() and not line.startswith(("OK", ">", "raw REPL")):
                out.append(line)
        return out

    def watch(self, show):
        """Hand each of the board's lines to show() as it says them (a thread)."""
        self._watching = True

        def loop():
            while self._watching:
                time.sleep(WATCH_S)
                try:
                    with self._lock:
                        self.pico._cmd(op="read")
                        lines = self.words()
                except PicoError:
                    return
                for line in lines:
                    show(line)

        thread = threading.Thread(target=loop, daemon=True)
        thread.start()
        return thread

    def close(self):
        self._watching = False
        with self._lock:
            pass  # the watcher's read under way ends first
        super().close()
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    def follow_layout(self):
        """Take the layout on the board's flash as the one the hands see (it may
        have been flashed since); returns a line saying so, or "" (unchanged)."""
        with open(self.pico.flash_path, "rb") as f:
            image = f.read()
        files = circuitpy.read_files(image) if self.circuitpython else read_files(image)
        data = files.get("layout.json")
        if data is None or data == self._layout_bytes:
            return ""
        layout, modules, tiles = layoutfile.loads(data.decode("utf-8", "replace"),
                                                  "layout.json on the board")
        wiring = self.prof.wiring(layout, modules)
        self.prof.check_sensors(wiring)
        self.layout, self.modules, self.tiles, self.wiring = layout, modules, tiles, wiring
        self._layout_bytes = data
        self.squares = 0
        return "the board's layout is now %s (%d squares): its square names from here on" % (
            layout.name or "/".join(layout.rows()), layout.size)

    def command(self, line):
        """Carry out one typed line; returns the reply text (a bad line: why, and
        the board runs on). A reply never repeats the line typed (the terminal
        shows it already): it says what changed."""
        try:
            return self._command(line)
        except AttilaError as e:
            return "? %s" % e

    def _command(self, line):
        words = line.split()
        if not words:
            return ""
        verb, args = words[0].lower(), words[1:]
        if verb in ("help", "?") and not args:
            return HELP
        with self._lock:
            if verb == "put" and len(args) == 1:
                said = self.follow_layout()
                mask = 0
                if args[0] != "-":
                    for name in args[0].split(","):
                        mask |= 1 << self.layout.index(name)
                self.set_squares(mask)
                names = [n for i, n in enumerate(self.layout.names) if mask >> i & 1]
                return "\n".join(filter(None, (said, "magnets on %s, none elsewhere"
                                                % " ".join(names) if names else
                                                "no magnet on any square")))
            if verb in ("hold", "release") and len(args) == 1 and args[0] in BUTTON_NAMES:
                self.hold(BUTTON_NAMES[args[0]], verb == "hold")
                name = args[0].upper()
                return ("%s is down until you type release %s" % (name, args[0])
                        if verb == "hold" else "%s is up" % name)
            if verb == "leds" and not args:
                said = self.follow_layout()
                self.pico._cmd(op="read")
                lit = ["%s #%02x%02x%02x" % ((self.layout.names[sq],) + rgb)
                       for sq, rgb in enumerate(self.leds()) if any(rgb)]
                return "\n".join(filter(None, (said, "lit: " + ", ".join(lit) if lit else
                                                "no LED is lit")))
            if verb == "unplug" and len(args) == 1 and args[0].isdigit() and int(args[0]):
                try:
                    self.unplug(int(args[0]))
                except PicoError as e:
                    return "? %s" % e
                return "the cable into module %s is out" % args[0]
            if verb == "plug" and not args:
                self.unplug(0)
                return "every module cable is in"
            if verb == "power" and not args:
                self.pico._cmd(op="power")
                return "the power was cut and is on again: the board starts"
        return "? %r is not a line serve.py knows (type help for the lines it takes)" % line.strip()


def main(argv=None):
    p = argparse.ArgumentParser(prog="serve.py", description=__doc__.split("\n")[0])
    p.add_argument("--state", default=None, help="folder for the flash (default: a temporary one)")
    p.add_argument("--layout", default=os.path.join(ROOT, "boards", "4x5.json"))
    p.add_argument("--profile", default=os.path.join(ROOT, "boards", "profiles", "pico.json"))
    p.add_argument("--unplug", type=int, metavar="N",
                   help="start with the cable into chain module N out (`plug` puts it back)")
    p.add_argument("--drive", metavar="FOLDER",
                   help="a CircuitPython profile's CIRCUITPY: the folder `attila flash --drive` "
                   "filled (default: STATE/CIRCUITPY)")
    args = p.parse_args(argv)
    import tempfile

    folder = args.state or tempfile.mkdtemp(prefix="attila-pico-")
    try:
        served = Served(folder, args.layout, args.profile, args.drive)
        if args.unplug:
            served.unplug(args.unplug)
        served.start()
    except ServeError as e:
        print("serve.py: %s" % e, file=sys.stderr)
        return 2
    except (PicoError, AttilaError) as e:
        print("serve.py: %s" % e, file=sys.stderr)
        return 1
    print(served.port, flush=True)
    print("serve.py: the emulated Pico is on %s, its flash in %s. Type help for what your "
          "hands can do, quit to stop; the board's own lines show as board: ..."
          % (served.port, served.pico.flash_path), file=sys.stderr, flush=True)
    served.watch(lambda line: print("board: " + line, file=sys.stderr, flush=True))
    try:
        for line in sys.stdin:
            if line.strip() in ("quit", "exit"):
                break
            reply = served.command(line)
            if reply:
                print(reply, file=sys.stderr, flush=True)
        else:
            while True:  # no terminal on stdin: run until Ctrl-C
                time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        served.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
