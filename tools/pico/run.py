"""Run a MicroPython script on the emulated Pico and print what it prints.

    python tools/pico/run.py script.py                       # a bare Pico
    python tools/pico/run.py --files firmware/attila script.py
    python tools/pico/run.py --firmware script.py            # what `make flash` puts on a board
    python tools/pico/run.py --firmware -c "import main"     # the board's loop, 5 s
    python tools/pico/run.py --mpy --files firmware/attila -c "import attila.game.rules"

--files puts a file, or a folder (under its own name: firmware/attila ->
/attila/...), on the chip's flash; --mpy compiles the .py files with
mpy-cross first (as `make flash` does). --firmware puts the whole firmware
for --layout/--profile on it, with a `maintenance` file so that main.py
stops at once at boot and leaves the REPL to the script; the file is taken
off before the script runs, so that the script may start the firmware:
`-c "import main"` (main.py's main() runs only as the boot script, so an
import alone starts nothing) runs main.main(ticks=N), the board's loop for
--ticks steps (default 500: 5 s), and shows what it prints. --unplug N
pulls out the cable into module N of a 74HC165 chain (1: the one at the
Pico): the board should name it. The script runs in the
raw REPL of MicroPython v1.27.0 on the emulated RP2040 (125 MHz); the
emulated time it took goes to stderr with --time. Exit status: 0, 1 when
the script raised (its traceback on stderr), 2 on bad arguments.
"""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for p in (os.path.join(ROOT, "tools"), os.path.join(ROOT, "firmware")):
    if p not in sys.path:
        sys.path.insert(0, p)

from pico.board import build_for  # noqa: E402
from pico.chip import Pico, PicoError, ScriptError, new_flash  # noqa: E402


def collect(paths, mpy=False):
    """{board path: bytes} of files and folders (a folder keeps its own name)."""
    files = {}
    for path in paths:
        path = path.rstrip("/")
        if os.path.isdir(path):
            for dirpath, _dirs, names in os.walk(path):
                if "__pycache__" in dirpath:
                    continue
                for name in sorted(names):
                    full = os.path.join(dirpath, name)
                    rel = os.path.relpath(full, os.path.dirname(path)).replace(os.sep, "/")
                    files[rel] = full
        elif os.path.isfile(path):
            files[os.path.basename(path)] = path
        else:
            raise SystemExit("run.py: %s: no such file or folder" % path)
    out = {}
    for dest, src in files.items():
        if mpy and dest.endswith(".py") and dest not in ("main.py", "boot.py"):
            out[dest[:-3] + ".mpy"] = compile_mpy(src)
        else:
            with open(src, "rb") as f:
                out[dest] = f.read()
    return out


def compile_mpy(src):
    """The .mpy of a source; native code for the chip's arch (armv6m), as `make flash` does."""
    from attila_tools.board.build import mpy_cross, native, native_arch

    from pico.board import MPY

    march = ["-march=" + native_arch(MPY)] if native(src) else []
    with tempfile.TemporaryDirectory() as tmp:
        dest = os.path.join(tmp, "out.mpy")
        proc = subprocess.run([mpy_cross(), "-o", dest] + march + [src], capture_output=True,
                              text=True)
        if proc.returncode:
            raise SystemExit("run.py: mpy-cross %s: %s" % (src, proc.stderr.strip()))
        with open(dest, "rb") as f:
            return f.read()


def parser():
    p = argparse.ArgumentParser(prog="run.py", description=__doc__.split("\n")[0])
    p.add_argument("script", nargs="?", help="the MicroPython script to run")
    p.add_argument("-c", dest="code", help="run this code instead of a script file")
    p.add_argument("--files", nargs="+", default=[], metavar="PATH", help="files or folders to put on the flash")
    p.add_argument("--mpy", action="store_true", help="compile the .py files of --files with mpy-cross")
    p.add_argument("--firmware", action="store_true", help="the firmware as `make flash` builds it (main.py kept quiet)")
    p.add_argument("--layout", default=os.path.join(ROOT, "boards", "4x5.json"))
    p.add_argument("--profile", default=os.path.join(ROOT, "boards", "profiles", "pico.json"))
    p.add_argument("--flash", help="use (and keep) this flash file instead of a fresh one")
    p.add_argument("--max-ms", type=float, default=600000, help="give up after this much emulated time (default 600 s)")
    p.add_argument("--time", action="store_true", help="print the emulated time taken to stderr")
    p.add_argument("--ticks", type=int, default=500, metavar="N",
                   help="with --firmware -c 'import main': loop steps to run (default 500)")
    p.add_argument("--unplug", type=int, metavar="N",
                   help="with --firmware: the cable into 74HC165 chain module N is out")
    return p


def firmware_code(code, ticks):
    """The script for a --firmware chip: the maintenance file off first; a bare
    `import main` runs the board's loop (its main() is the boot script's)."""
    if code.strip() in ("import main", b"import main"):
        print("run.py: import main: running main.main(ticks=%d), the board's loop for %d "
              "steps" % (ticks, ticks), file=sys.stderr)
        code = "import main\nmain.main(ticks=%d)\n" % ticks
    if isinstance(code, bytes):
        code = code.decode("utf-8", "replace")
    return "import os\ntry:\n    os.remove('maintenance')\nexcept OSError:\n    pass\n" + code


def run(args):
    if (args.script is None) == (args.code is None):
        print("run.py: give a script or -c CODE", file=sys.stderr)
        return 2
    code = args.code
    if code is None:
        try:
            with open(args.script, "rb") as f:
                code = f.read()
        except OSError as e:
            print("run.py: %s: %s" % (args.script, e.strerror), file=sys.stderr)
            return 2
    if args.unplug is not None and (not args.firmware or args.unplug < 1):
        print("run.py: --unplug N needs --firmware and a module number (1 is the one "
              "cabled to the Pico)", file=sys.stderr)
        return 2
    files = collect(args.files, args.mpy)
    board = None
    if args.firmware:
        code = firmware_code(code, args.ticks)
        from pico.board import PicoBoard, firmware_files

        files.update(firmware_files(args.layout, args.profile, extra={"maintenance": b""}))
    with tempfile.TemporaryDirectory(prefix="attila-pico-") as tmp:
        flash = args.flash or os.path.join(tmp, "flash.bin")
        if not (args.flash and os.path.exists(args.flash)):
            new_flash(flash, files, build_for(args.profile).uf2)
        if args.firmware:
            board = PicoBoard(flash, args.layout, args.profile)
            pico = board.pico
            if args.unplug:
                board.unplug(args.unplug)
            board.start()
        else:
            pico = Pico(flash).start()
        try:
            pico.wait_for(b">>> ", 20000, since=0)
            start = pico.us
            out = sys.stdout.buffer
            echo = lambda b: (out.write(b.replace(b"\r\n", b"\n")), out.flush())  # noqa: E731
            try:
                pico.exec(code, max_ms=args.max_ms, echo=echo)
                status = 0
            except ScriptError as e:
                sys.stderr.write(e.traceback)
                status = 1
            if args.time:
                print("run.py: %.0f us of emulated time (%d cycles at 125 MHz)"
                      % (pico.us - start, (pico.us - start) * 125), file=sys.stderr)
            return status
        finally:
            pico.close()


def main(argv=None):
    try:
        return run(parser().parse_args(argv))
    except PicoError as e:
        print("run.py: %s" % e, file=sys.stderr)
        return 1
    except Exception as e:  # a bad layout or profile
        from attila.errors import AttilaError

        if isinstance(e, AttilaError):
            print("run.py: %s" % e, file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    sys.exit(main())
