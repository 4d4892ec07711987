"""Build what goes onto a MicroPython board: the firmware compiled with mpy-cross.

    files = plan(layout_path, profile_path)   # {board path: local file}, compiled

The board gets (paths on its flash):
    main.py                 firmware/ports/micropython/main.py, as source (a
                            board runs main.py, never main.mpy; boot.py too)
    <name>.mpy              every other module of firmware/ports/micropython/
    attila/**/<name>.mpy    the portable core, firmware/attila/ and its
                            subpackages (attila/game/rules.mpy ...)
    attila/opponent/kernelv.mpy
                            modules with native code (@micropython.viper or
                            .native), compiled for the board's own chip when
                            its arch is known (`arch`: armv6m on an RP2040,
                            armv7emsp on an RP2350, xtensawin on an ESP32...;
                            `attila flash` reads it from the board's
                            sys.implementation._mpy), into a folder per arch
                            (build/flash/native-<arch>/); as source
                            (attila/opponent/kernelv.py) where it is not: the board
                            then compiles them at every boot
    lib/umqtt/simple.mpy    micropython-lib's MQTT client and HMAC (firmware/lib,
    lib/hmac.mpy            pinned there): online play
    layout.json             the chosen layout (boards/*.json)
    layout.book             its setup book (boards/solved/<layout>.book), when
                            the layout is solved: the board places from it
    layout.opening          its opening table (boards/solved/<layout>.opening),
                            when there is one: the game's first turn of play
                            is exact
    profile.json            the chosen hardware profile (boards/profiles/*.json)

.mpy files load faster and need less RAM than sources (no compiling on the
board). With source=True the .py files are copied as they are instead.
Builds go to build/flash/ (one mpy-cross run per changed source).
"""

import os
import shutil
import subprocess
import sys

from attila import VERSION
from attila.saves.store import GAME_FILE

from attila_tools.errors import ToolError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
FIRMWARE = os.path.join(ROOT, "firmware")
CORE = os.path.join(FIRMWARE, "attila")
PORT = os.path.join(FIRMWARE, "ports", "micropython")
LIB = os.path.join(FIRMWARE, "lib")  # micropython-lib's modules, to the board's /lib
BUILD = os.path.join(ROOT, "build", "flash")
DEFAULT_LAYOUT = os.path.join(ROOT, "boards", "4x5.json")
PROFILES = os.path.join(ROOT, "boards", "profiles")
DEFAULT_PROFILE_NAMES = ("pico.json", "pico-74hc165.json")

SOLVED = os.path.join(ROOT, "boards", "solved")
LAYOUT_FILE = "layout.json"
BOOK_FILE = "layout.book"  # the ports' BOOK
OPENING_FILE = "layout.opening"  # the ports' OPENING
PROFILE_FILE = "profile.json"
SAVE_FILE = GAME_FILE
ENTRY = "main.py"
ENTRIES = ("boot.py", "main.py")  # run by the board by name: they stay .py

# The native emitter's architectures by the number a board's
# sys.implementation._mpy carries from bit 10 on (MicroPython's
# py/persistentcode.h), named as mpy-cross's -march takes them.
ARCHS = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
         "armv7emdp", "xtensa", "xtensawin", "rv32imc", "rv64imc")


class BuildError(ToolError):
    """The firmware cannot be built (message says why)."""


def mpy_cross():
    """The mpy-cross executable (the venv's, else one on PATH)."""
    exe = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if os.path.exists(exe):
        return exe
    exe = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
    if os.path.exists(exe):
        return exe
    found = shutil.which("mpy-cross")
    if not found:
        raise BuildError("mpy-cross is not installed (run `make install`)")
    return found


def default_profile():
    """boards/profiles/pico.json (or the first profile there), or None."""
    for name in DEFAULT_PROFILE_NAMES:
        path = os.path.join(PROFILES, name)
        if os.path.exists(path):
            return path
    try:
        names = sorted(n for n in os.listdir(PROFILES) if n.endswith(".json"))
    except OSError:
        names = []
    return os.path.join(PROFILES, names[0]) if names else None


def core_sources():
    """[(board path, local .py)] of the portable core, its subpackages
    included (attila/game/rules.py), in a stable order."""
    out = []
    for top, dirs, names in os.walk(CORE):
        dirs[:] = sorted(d for d in dirs if os.path.exists(os.path.join(top, d, "__init__.py")))
        folder = os.path.relpath(top, FIRMWARE).replace(os.sep, "/")
        out += [(folder + "/" + n, os.path.join(top, n)) for n in names if n.endswith(".py")]
    return sorted(out)


def lib_sources():
    """[(board path, local .py)] of the vendored micropython-lib modules
    (firmware/lib: umqtt.simple and hmac, for online play), under lib/."""
    out = []
    for top, dirs, names in os.walk(LIB):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        folder = os.path.relpath(top, FIRMWARE).replace(os.sep, "/")
        out += [(folder + "/" + n, os.path.join(top, n)) for n in names if n.endswith(".py")]
    return sorted(out)


def sources():
    """[(board path of the source, local .py)] of the firmware, in a stable order."""
    out = core_sources()
    for name in sorted(os.listdir(PORT)):
        if name.endswith(".py"):
            out.append((name, os.path.join(PORT, name)))
    out += lib_sources()
    if not any(dest == ENTRY for dest, _ in out):
        raise BuildError("no %s in %s" % (ENTRY, os.path.relpath(PORT, ROOT)))
    return out


_emits = []  # (version, sub-version) of mpy-cross's output, once asked


def mpy_cross_emits():
    """(version, sub-version) of the .mpy files mpy-cross writes ("emitting mpy v6.3")."""
    if not _emits:
        proc = subprocess.run([mpy_cross(), "--version"], capture_output=True, text=True)
        words = proc.stdout.split()
        if "mpy" not in words or not words[-1].startswith("v"):
            raise BuildError("cannot tell which .mpy version mpy-cross writes: %r"
                             % proc.stdout.strip())
        major, _, minor = words[-1][1:].partition(".")
        _emits.append((int(major), int(minor or 0)))
    return _emits[0]


def native_arch(board_mpy):
    """The mpy-cross -march of native code a board can load, or None.

    board_mpy: the board's sys.implementation._mpy (None when it has none).
    None too when the board names no native arch (the WebAssembly port,
    ports without the native emitter) or when its .mpy version differs from
    mpy-cross's in the sub-version: native code must match it exactly, so
    such a board gets the source and compiles it itself.
    """
    if not isinstance(board_mpy, int):
        return None
    arch = board_mpy >> 10
    if not 0 < arch < len(ARCHS):
        return None
    if (board_mpy & 0xFF, board_mpy >> 8 & 3) != mpy_cross_emits():
        return None
    return ARCHS[arch]


def compile_one(src, dest_name, out_dir=BUILD, arch=None, exe=None):
    """Compile one source to out_dir/<dest_name .mpy> unless up to date; the path.

    arch: mpy-cross's -march for native code (None: bytecode only). A folder
    holds the output of one arch only (see firmware()). exe: another
    mpy-cross (CircuitPython's), with a folder of its own.
    """
    target = os.path.join(out_dir, dest_name[:-3] + ".mpy")
    if os.path.exists(target) and os.path.getmtime(target) >= os.path.getmtime(src):
        return target
    os.makedirs(os.path.dirname(target), exist_ok=True)
    tmp = target + ".tmp"
    march = ["-march=" + arch] if arch else []
    proc = subprocess.run(
        [exe or mpy_cross(), "-o", tmp, "-s", dest_name] + march + [src], capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise BuildError(
            "mpy-cross cannot compile %s:\n%s"
            % (os.path.relpath(src, ROOT), (proc.stderr + proc.stdout).strip())
        )
    os.replace(tmp, target)
    return target


def native(src):
    """True when a source holds native code (@micropython.viper or .native)."""
    with open(src) as f:
        text = f.read()
    return "@micropython.viper" in text or "@micropython.native" in text


def native_dir(arch, out_dir=BUILD):
    """Where the native modules compiled for `arch` go: one folder per arch."""
    return os.path.join(out_dir, "native-" + arch)


def firmware(source=False, out_dir=BUILD, arch=None, notes=None):
    """{board path: local file} of the firmware (compiled unless `source`).

    arch: the board's native arch (native_arch()); modules with native code
    are compiled for it, or stay source when it is None. When mpy-cross
    cannot compile one for that arch, it stays source too and `notes` (a
    list) gets the reason.
    """
    files = {}
    for dest, src in sources():
        if source or dest in ENTRIES:
            files[dest] = src
        elif not native(src):
            files[dest[:-3] + ".mpy"] = compile_one(src, dest, out_dir)
        elif arch is None:
            files[dest] = src
        else:
            try:
                files[dest[:-3] + ".mpy"] = compile_one(src, dest, native_dir(arch, out_dir), arch)
            except BuildError as e:
                files[dest] = src
                if notes is not None:
                    notes.append("%s stays source (the board compiles it): %s"
                                 % (dest, str(e).splitlines()[-1].strip()))
    return files


def _solved(layout_path, layout, suffix, check, missing):
    """(boards/solved/<name><suffix>, "") when check(path, layout) passes, else
    (None, why not); <name> is the layout's name or its file's."""
    from attila.game import layoutfile
    from attila.errors import AttilaError

    if layout is None:
        layout = layoutfile.load(layout_path)[0]
    stem = os.path.splitext(os.path.basename(layout_path))[0] if layout_path else ""
    for name in (layout.name, stem):
        path = os.path.join(SOLVED, name + suffix)
        if name and os.path.isfile(path):
            try:
                check(path, layout)
            except AttilaError as e:
                return None, str(e).replace(path, os.path.relpath(path, ROOT))
            return path, ""
    return None, missing % (layout.name or stem)


def _check_book(path, layout):
    from attila.opponent import book

    book.open(path, layout).close()


def _check_opening(path, layout):
    from attila.opponent.opening import Opening

    with open(path, "rb") as f:
        Opening(f, layout, path)


def book_for(layout_path, layout=None):
    """(boards/solved/<name>.book of a layout file, "") when it is that layout's
    setup book, else (None, why not); <name> is the layout's name or its file's.
    `layout`: the file's Layout when it is loaded already (layout_path may be
    None then)."""
    return _solved(layout_path, layout, ".book", _check_book,
                   "the layout is not solved (no %s.book in boards/solved)")


def opening_for(layout_path, layout=None):
    """(boards/solved/<name>.opening of a layout file, "") when it is that
    layout's opening table (attila.opponent.opening), else (None, why not); as book_for."""
    return _solved(layout_path, layout, ".opening", _check_opening,
                   "no opening table for the layout (no %s.opening in boards/solved)")


def opening_table(layout_path, layout=None):
    """The layout's opening table from boards/solved, open (attila.opponent.opening.Opening),
    or None when it has none: the board's own, for the host's decisions."""
    from attila.opponent.opening import Opening

    found = opening_for(layout_path, layout)[0]
    if found is None:
        return None
    if layout is None:
        from attila.game import layoutfile

        layout = layoutfile.load(layout_path)[0]
    return Opening(open(found, "rb"), layout, found)


def plan(layout, profile, source=False, out_dir=BUILD, arch=None, notes=None):
    """Everything the board needs: firmware + layout.json + profile.json, and
    layout.book and layout.opening when the layout has a setup book and an
    opening table.

    arch: the board's native arch, for the modules with native code (see
    firmware()).
    """
    files = firmware(source, out_dir, arch, notes)
    files[LAYOUT_FILE] = layout
    book = book_for(layout)[0]
    if book:
        files[BOOK_FILE] = book
    opening = opening_for(layout)[0]
    if opening:
        files[OPENING_FILE] = opening
    files[PROFILE_FILE] = profile
    return files


def stale_files(present, planned, entries=ENTRIES, core=None):
    """The firmware files in `present` (the paths on a board or a drive) that
    the new firmware (`planned`) does not have; never a file that is not ours.

    Under attila/ every file (only those ending in one of `core` when given:
    a drive may hold others there); a setup book or an opening table when the
    new layout has none (it would be another layout's); at the top level and
    in lib/ a module's .py/.mpy twin (MicroPython imports x.py before x.mpy),
    never an entry file the board runs by name (`entries`).
    """
    stale = []
    for path in present:
        if path.endswith("/") or path in planned:
            continue
        stem, ext = os.path.splitext(path)
        if path.startswith("attila/"):
            if core is None or ext in core:
                stale.append(path)
        elif path in (BOOK_FILE, OPENING_FILE):
            stale.append(path)
        elif ("/" not in path or path.startswith("lib/")) and ext in (".py", ".mpy") \
                and path not in entries:
            # (under lib/ only the twins of our vendored modules: the rest is the user's)
            if stem + (".mpy" if ext == ".py" else ".py") in planned:
                stale.append(path)
    return sorted(stale)


def mpy_version_of(mpy_bytes):
    """(version, sub-version, arch) from the header of a .mpy file.

    Sub-version and arch are only set (and only checked by a board) when the
    file holds native code; plain bytecode needs the same major version.
    """
    if len(mpy_bytes) < 4 or mpy_bytes[0:1] != b"M":
        raise ValueError("not a .mpy file")
    return mpy_bytes[1], mpy_bytes[2] & 3, mpy_bytes[2] >> 2


def mpy_version(files):
    """(version, sub-version, arch) of the bytecode .mpy files in a plan (None if none).

    Native .mpy files (compiled for an arch) are left out: whether a board
    takes them is native_arch()'s question.
    """
    for path in files.values():
        if path.endswith(".mpy"):
            with open(path, "rb") as f:
                version = mpy_version_of(f.read(4))
            if not version[2]:
                return version
    return None


PACKAGE_JSON = os.path.join(FIRMWARE, "package.json")
PACKAGE_VERSION = VERSION  # the firmware's (attila.VERSION), as pyproject.toml's


def package_json():
    """The mip package description of the firmware (firmware/package.json).

    Paths are relative to firmware/, so it works from a checkout
    (`mpremote mip install --target . firmware/package.json`) and from
    GitHub (`mpremote mip install --target . github:OWNER/REPO/firmware/package.json`).
    Only files under firmware/: mip appends a relative URL to the package's
    own (`github:OWNER/REPO/firmware/` + url) without resolving "..", so a
    layout, its setup book or a profile from boards/ cannot be part of it;
    they are copied with `mpremote cp` (README).
    """
    urls = []
    for dest, src in sources():
        urls.append([dest, os.path.relpath(src, FIRMWARE).replace(os.sep, "/")])
    return {"urls": urls, "deps": [], "version": PACKAGE_VERSION}


def package_json_text():
    import json

    data = package_json()
    lines = ['{', '  "urls": [']
    lines.append(",\n".join("    %s" % json.dumps(u) for u in data["urls"]))
    lines.append('  ],')
    lines.append('  "deps": [],')
    lines.append('  "version": %s' % json.dumps(data["version"]))
    lines.append('}')
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    # python -m attila_tools.board.build --package-json   rewrites firmware/package.json
    if sys.argv[1:] == ["--package-json"]:
        with open(PACKAGE_JSON, "w") as f:
            f.write(package_json_text())
        print("wrote %s" % os.path.relpath(PACKAGE_JSON))
    else:
        print("usage: python -m attila_tools.board.build --package-json", file=sys.stderr)
        sys.exit(2)


def layouts():
    """[(path, layout, modules, description)] of every layout file in boards/."""
    import json

    from attila.game.layoutfile import load

    out = []
    folder = os.path.dirname(DEFAULT_LAYOUT)
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if not name.endswith(".json") or not os.path.isfile(path):
            continue
        layout, modules, _tiles = load(path)
        with open(path) as f:
            description = json.load(f).get("description", "")
        out.append((path, layout, modules, description))
    return out
