"""`attila flash --drive PATH`: the CircuitPython port onto a mounted CIRCUITPY drive.

    attila flash --drive /media/me/CIRCUITPY --profile boards/profiles/circuitpython-pico.json
                 [--layout FILE] [--source] [--dry-run]

A CircuitPython board shows its flash to the computer as a USB drive,
CIRCUITPY; the firmware goes there as plain files (paths on the drive):

    code.py, boot.py        firmware/ports/circuitpython/, as source (the
                            board runs them by name)
    <name>.mpy              the port's other modules
    attila/**/<name>.mpy    the portable core, without its native-code
                            modules (CircuitPython has no viper: the
                            portable kernel searches instead)
    layout.json, layout.book, layout.opening, profile.json   as for MicroPython

The .mpy files come from CircuitPython's own mpy-cross
(tools/circuitpython/mpy-cross-10.2.1, or `mpy-cross-circuitpython` on
PATH): MicroPython's writes the same version number but another bytecode.
Only files whose bytes differ are written (each to a temporary name, then
renamed over the old one); stale files of ours (attila/*, a module's
.py/.mpy twin, the old layout's book and opening table) are removed;
nothing else on the drive is touched. The folder must be a CIRCUITPY drive
(its boot_out.txt names CircuitPython, or the folder is named CIRCUITPY),
writable, with room for the new files: otherwise one line and exit 2,
nothing changed. A Pico's CIRCUITPY is 1 MiB: 4x5's opening table with its
reply table and corrections fits beside the firmware (the room it leaves:
make bench, bench_realplay's first lines).
"""

import errno
import os
import platform
import shutil

from attila_tools.board import build
from attila_tools.errors import ToolError

PORT = os.path.join(build.FIRMWARE, "ports", "circuitpython")
BUILD = os.path.join(build.ROOT, "build", "flash-circuitpython")
MPY_CROSS = os.path.join(build.ROOT, "tools", "circuitpython", "mpy-cross-10.2.1")
ENTRIES = ("boot.py", "code.py")  # run by name: they stay .py
OLDEST = (9, 2, 1)  # keypad's reset() reports the keys held at power-up from 9.2.1 on
MPY_MAJOR = 10  # the .mpy files are CircuitPython 10's
BOOT_OUT = "boot_out.txt"
NEW = ".attila-new"  # a file being written, renamed over the old one when whole


class DriveError(ToolError):
    """The drive cannot take the firmware (exit 2); the message names the drive and why."""


def mpy_cross():
    """CircuitPython's mpy-cross: the shipped one on x86-64 Linux, else one on PATH."""
    found = shutil.which("mpy-cross-circuitpython")
    if found:
        return found
    if platform.system() == "Linux" and platform.machine() in ("x86_64", "AMD64"):
        return MPY_CROSS
    raise build.BuildError("CircuitPython's mpy-cross is not on this machine: put it on PATH as "
                           "mpy-cross-circuitpython, or flash with --source")


def sources():
    """[(drive path, local .py)] of the CircuitPython firmware, in a stable order."""
    out = []
    for dest, src in build.core_sources():
        if not build.native(src):
            out.append((dest, src))
    for name in sorted(os.listdir(PORT)):
        if name.endswith(".py"):
            out.append((name, os.path.join(PORT, name)))
    return out


def plan(layout, profile, source=False, out_dir=BUILD):
    """{drive path: local file}: the firmware (compiled unless `source`), the
    layout, its setup book and opening table when it has them, the profile."""
    files = {}
    exe = None if source else mpy_cross()
    for dest, src in sources():
        if source or dest in ENTRIES:
            files[dest] = src
        else:
            files[dest[:-3] + ".mpy"] = build.compile_one(src, dest, out_dir, exe=exe)
    files[build.LAYOUT_FILE] = layout
    book = build.book_for(layout)[0]
    if book:
        files[build.BOOK_FILE] = book
    opening = build.opening_for(layout)[0]
    if opening:
        files[build.OPENING_FILE] = opening
    files[build.PROFILE_FILE] = profile
    return files


def version_of(boot_out):
    """(major, minor, micro) from boot_out.txt's first line, or None."""
    words = boot_out.split()
    if len(words) < 3 or words[:2] != ["Adafruit", "CircuitPython"]:
        return None
    parts = words[2].split("-")[0].split(".")
    try:
        return tuple(int(p) for p in (parts + ["0", "0"])[:3])
    except ValueError:
        return None


def check_drive(path, source=False):
    """The CircuitPython version on the drive (None when it does not say); DriveError if unfit."""
    if not os.path.exists(path):
        raise DriveError("%s does not exist (is the board plugged in and its CIRCUITPY drive "
                         "mounted?)" % path)
    if not os.path.isdir(path):
        raise DriveError("%s is not a folder: give the CIRCUITPY drive's folder" % path)
    text = None
    try:
        with open(os.path.join(path, BOOT_OUT), "rb") as f:
            text = f.read(400).decode("utf-8", "replace")
    except OSError:
        pass
    name = os.path.basename(os.path.normpath(os.path.abspath(path)))
    if text is None and name != "CIRCUITPY":
        raise DriveError("%s is not a CIRCUITPY drive (no %s from CircuitPython, and not named "
                         "CIRCUITPY); nothing written" % (path, BOOT_OUT))
    version = version_of(text) if text is not None else None
    if text is not None and version is None and name != "CIRCUITPY":
        raise DriveError("%s is not a CIRCUITPY drive (its %s is not CircuitPython's); "
                         "nothing written" % (path, BOOT_OUT))
    if version is not None and version < OLDEST:
        raise DriveError("%s runs CircuitPython %s: the board needs %s or newer (older keypad "
                         "forgets the keys held at power-up); update CircuitPython first"
                         % (path, ".".join(map(str, version)), ".".join(map(str, OLDEST))))
    if version is not None and version[0] != MPY_MAJOR and not source:
        raise DriveError("%s runs CircuitPython %s; the .mpy files are CircuitPython %d's: "
                         "update it, or flash with --source" % (path, ".".join(map(str, version)),
                                                                MPY_MAJOR))
    if not os.access(path, os.W_OK):
        raise DriveError("%s is read-only (the board keeps CIRCUITPY for itself: plug it in "
                         "with UNDO and MENU held, then flash again); nothing written" % path)
    return version


def on_drive(path):
    """[drive path] of every file on the drive (folders end in /)."""
    found = []
    for dirpath, dirs, names in os.walk(path):
        dirs.sort()
        rel = os.path.relpath(dirpath, path).replace(os.sep, "/")
        prefix = "" if rel == "." else rel + "/"
        found += [prefix + d + "/" for d in dirs]
        found += [prefix + n for n in sorted(names)]
    return found


def stale_files(files_on_drive, planned):
    """Files of ours that the new firmware does not have (never anything else):
    build.stale_files' sources under attila/, and a file left half-written."""
    stale = build.stale_files(files_on_drive, planned, ENTRIES, (".py", ".mpy"))
    stale += [p for p in files_on_drive if p.endswith(NEW) and p not in planned]
    return sorted(stale)


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def changes(drive, files):
    """([(drive path, bytes)] to write, [stale drive path]) against what the drive holds."""
    write = []
    for dest in sorted(files):
        with open(files[dest], "rb") as f:
            data = f.read()
        if _read(os.path.join(drive, dest)) != data:
            write.append((dest, data))
    return write, stale_files(on_drive(drive), files)


def _clusters(n, cluster):
    return -(-n // cluster) * cluster


def check_room(drive, write):
    """DriveError unless the drive has room for the new files (and one being written)."""
    try:
        st = os.statvfs(drive)
        free, cluster = st.f_bavail * st.f_frsize, st.f_frsize or 512
    except (AttributeError, OSError):
        free, cluster = shutil.disk_usage(drive).free, 512
    need = 0
    biggest = 0
    for dest, data in write:
        old = os.path.join(drive, dest)
        had = _clusters(os.path.getsize(old), cluster) if os.path.isfile(old) else 0
        need += _clusters(len(data), cluster) - had
        biggest = max(biggest, _clusters(len(data), cluster))
    need = max(need, 0) + biggest  # the file being written sits beside the old one
    if need > free:
        raise DriveError("%s is full: %d bytes free, the firmware needs %d more; nothing written "
                         "(delete files you do not need from it)" % (drive, free, need))


def put(drive, dest, data):
    """Write one file whole: to a temporary name, then renamed over the old one."""
    path = os.path.join(drive, dest)
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        os.makedirs(folder)
    tmp = path + NEW
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def flash_drive(drive, files, dry_run=False, say=print):
    """Bring the drive to `files` ({drive path: local file}); (written, removed) paths."""
    write, stale = changes(drive, files)
    say("attila flash: %s: %d to copy, %d up to date, %d stale to remove" % (
        drive, len(write), len(files) - len(write), len(stale)))
    for dest, data in write:
        say("  %s %-22s %d bytes" % ("update" if os.path.exists(os.path.join(drive, dest))
                                     else "copy  ", dest, len(data)))
    for dest in stale:
        say("  remove %s" % dest)
    if dry_run:
        say("attila flash: dry run, nothing changed")
        return [], []
    check_room(drive, write)
    for dest, data in write:
        try:
            put(drive, dest, data)
        except OSError as e:
            if e.errno == errno.ENOSPC:
                raise DriveError("%s is full: %s not written (the old one is kept)" % (drive, dest))
            if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                raise DriveError("%s is read-only: %s not written (the board keeps CIRCUITPY for "
                                 "itself: plug it in with UNDO and MENU held)" % (drive, dest))
            raise DriveError("%s: cannot write %s: %s" % (drive, dest, e.strerror or e))
    for dest in stale:
        try:
            os.remove(os.path.join(drive, dest))
        except OSError as e:
            raise DriveError("%s: cannot remove %s: %s" % (drive, dest, e.strerror or e))
    bad = [dest for dest, data in write if _read(os.path.join(drive, dest)) != data]
    if bad:
        raise DriveError("%s: %s differ after copying" % (drive, ", ".join(bad)))
    return [dest for dest, _ in write], stale


def run(drive, layout_path, profile_path, prof, source=False, dry_run=False, say=print):
    """`attila flash --drive`: check, build, copy; exit status."""
    if prof.port != "circuitpython":
        raise DriveError("%s is a %s profile; --drive installs the CircuitPython port (give a "
                         "circuitpython profile, or flash a MicroPython board with --port)"
                         % (profile_path, prof.port))
    version = check_drive(drive, source)
    files = plan(layout_path, profile_path, source=source)
    say("attila flash: %s on %s for CircuitPython%s, %d files%s" % (
        os.path.relpath(layout_path), os.path.relpath(profile_path),
        " %s (on the drive)" % ".".join(map(str, version)) if version else "", len(files),
        "" if source else ", compiled with CircuitPython's mpy-cross"))
    written, removed = flash_drive(drive, files, dry_run, say)
    if not dry_run:
        say("attila flash: %d written, %d removed, verified; CircuitPython restarts code.py by "
            "itself (eject the drive before unplugging)" % (len(written), len(removed)))
    return 0
