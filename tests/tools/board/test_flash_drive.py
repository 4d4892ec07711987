"""`attila flash --drive`: the CircuitPython port onto a CIRCUITPY folder.

Exactly the files a CircuitPython board needs land on the drive (the .mpy
files from CircuitPython's own mpy-cross), only those that changed, stale
files of ours go and nothing else; a folder that is missing, not a
CIRCUITPY drive, full or read-only, and a profile that is not for
CircuitPython, get one line and exit 2 with nothing on the drive changed.
"""

import errno
import os
import subprocess
import sys

import pytest

from attila_tools import cli
from attila_tools.board import build, drive, flash

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
CP = os.path.join(ROOT, "boards", "profiles", "circuitpython-pico.json")
MP = os.path.join(ROOT, "boards", "profiles", "pico.json")
LAYOUT = os.path.join(ROOT, "boards", "4x5.json")
CROSS = os.path.join(ROOT, "boards", "cross.json")
BOOT_OUT = "Adafruit CircuitPython %s on 2026-12-01; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n"


def attila(*args):
    return subprocess.run([sys.executable, "-m", "attila_tools.cli", "flash"] + list(args),
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def snapshot(folder):
    out = {}
    for dirpath, _dirs, names in os.walk(folder):
        for name in names:
            full = os.path.join(dirpath, name)
            with open(full, "rb") as f:
                out[os.path.relpath(full, folder)] = f.read()
    return out


@pytest.fixture
def circuitpy(tmp_path):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text(BOOT_OUT % "10.2.1")
    (d / "lib").mkdir()
    (d / "lib" / "mine.mpy").write_bytes(b"M\x06not ours")
    (d / "notes.txt").write_text("the maker's own file\n")
    return d


def test_the_drive_gets_exactly_the_circuitpython_port_then_only_what_changed(circuitpy):
    r = attila("--drive", str(circuitpy), "--profile", CP)
    assert r.returncode == 0, r.stderr
    files = drive.plan(LAYOUT, CP)
    got = snapshot(circuitpy)
    ours = {k: v for k, v in got.items() if k not in ("boot_out.txt", "lib/mine.mpy", "notes.txt")}
    assert sorted(ours) == sorted(files)
    assert {"code.py", "boot.py", "hardware.mpy", "nvmsave.mpy", "attila/game/rules.mpy",
            "profile.json", "layout.json", "layout.book", "layout.opening"} <= set(ours)
    with open(os.path.join(ROOT, "boards", "solved", "4x5.opening"), "rb") as f:
        assert ours["layout.opening"] == f.read()  # the first turn of play, exact
    assert "attila/opponent/kernelv.mpy" not in ours and "attila/opponent/kernelv.py" not in ours  # no viper
    for path, data in ours.items():
        if path.endswith(".mpy"):
            # CircuitPython's own .mpy header ("C", version 6): MicroPython's
            # mpy-cross writes "M", which CircuitPython refuses.
            assert data[:2] == b"C\x06", path
    with open(drive.MPY_CROSS, "rb") as f:
        assert b"CircuitPython" in f.read()
    assert got["notes.txt"] == b"the maker's own file\n" and got["lib/mine.mpy"] == b"M\x06not ours"
    assert "37 written" in r.stdout or "written" in r.stdout

    r = attila("--drive", str(circuitpy), "--profile", CP)
    assert r.returncode == 0, r.stderr
    assert "0 to copy, %d up to date, 0 stale to remove" % len(files) in r.stdout

    # Another layout: its layout.json and book only; the old book and opening
    # table go when it has none.
    (circuitpy / "attila" / "old.mpy").write_bytes(b"M\x06old")  # a module we no longer ship
    (circuitpy / "hardware.py").write_text("# an old source twin\n")
    r = attila("--drive", str(circuitpy), "--profile", CP, "--layout", CROSS)
    assert r.returncode == 0, r.stderr
    assert "  update layout.json" in r.stdout
    after = snapshot(circuitpy)
    assert "attila/old.mpy" not in after and "hardware.py" not in after
    assert "  remove layout.opening" in r.stdout and "layout.opening" not in after
    assert after["notes.txt"] == got["notes.txt"] and after["lib/mine.mpy"] == got["lib/mine.mpy"]
    with open(CROSS, "rb") as f:
        assert after["layout.json"] == f.read()
    assert not any(k.endswith(drive.NEW) for k in after)


def one_line_exit_2(r):
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("attila flash: "), r.stderr
    return lines[0]


def test_bad_drives_and_profiles_get_one_line_and_exit_2_with_nothing_changed(circuitpy, tmp_path):
    before = snapshot(circuitpy)
    missing = str(tmp_path / "nowhere")
    assert "does not exist" in one_line_exit_2(attila("--drive", missing, "--profile", CP))
    other = tmp_path / "stick"
    other.mkdir()
    (other / "photo.jpg").write_bytes(b"\xff\xd8")
    line = one_line_exit_2(attila("--drive", str(other), "--profile", CP))
    assert "is not a CIRCUITPY drive" in line and snapshot(other) == {"photo.jpg": b"\xff\xd8"}
    line = one_line_exit_2(attila("--drive", str(circuitpy), "--profile", MP))
    assert "is a micropython profile; --drive installs the CircuitPython port" in line
    (circuitpy / "boot_out.txt").write_text(BOOT_OUT % "9.2.0")
    line = one_line_exit_2(attila("--drive", str(circuitpy), "--profile", CP))
    assert "runs CircuitPython 9.2.0: the board needs 9.2.1 or newer" in line
    (circuitpy / "boot_out.txt").write_text(BOOT_OUT % "10.2.1")
    assert snapshot(circuitpy) == before


def test_a_read_only_or_full_drive_is_refused_and_keeps_every_file(circuitpy, monkeypatch, capsys):
    assert cli.main(["flash", "--drive", str(circuitpy), "--profile", CP]) == 0
    before = snapshot(circuitpy)
    capsys.readouterr()
    # A layout change needs room and a writable drive. Root ignores file modes,
    # so read-only is what the OS reports (os.access) and full what statvfs says.
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, m: False if m == os.W_OK else real_access(p, m))
    assert cli.main(["flash", "--drive", str(circuitpy), "--profile", CP, "--layout", CROSS]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is read-only" in err[0], err
    monkeypatch.setattr(os, "access", real_access)

    class Tiny:
        f_bavail, f_frsize = 1, 512

    monkeypatch.setattr(os, "statvfs", lambda p: Tiny())
    assert cli.main(["flash", "--drive", str(circuitpy), "--profile", CP, "--layout", CROSS]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is full: 512 bytes free" in err[0], err
    monkeypatch.undo()
    assert snapshot(circuitpy) == before

    # The drive fills up in the middle of a write: that file keeps its old bytes.
    real_put = drive.put

    def full(where, dest, data):
        if dest == "layout.json":
            with open(os.path.join(where, dest + drive.NEW), "wb") as f:
                f.write(data[:10])
            os.remove(os.path.join(where, dest + drive.NEW))
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_put(where, dest, data)

    monkeypatch.setattr(drive, "put", full)
    assert cli.main(["flash", "--drive", str(circuitpy), "--profile", CP, "--layout", CROSS]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is full: layout.json not written (the old one is kept)" in err[0]
    assert snapshot(circuitpy)["layout.json"] == before["layout.json"]
    assert not any(k.endswith(drive.NEW) for k in snapshot(circuitpy))


def test_the_plan_compiles_with_circuitpythons_own_mpy_cross(tmp_path):
    files = drive.plan(LAYOUT, CP, out_dir=str(tmp_path))
    assert files["code.py"].endswith(os.path.join("circuitpython", "code.py"))
    mpy = [p for p in files.values() if p.endswith(".mpy")]
    assert mpy and all(p.startswith(str(tmp_path)) for p in mpy)
    assert build.BUILD not in files["hardware.mpy"]
    assert drive.version_of(BOOT_OUT % "9.2.1") == (9, 2, 1)
    assert drive.version_of("Adafruit CircuitPython 10.0.0-beta.2-3-g1234 on x") == (10, 0, 0)
    assert drive.version_of("hello") is None


def test_the_shipped_circuitpython_binaries_are_the_ones_their_readmes_name():
    import hashlib

    with open(drive.MPY_CROSS, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    with open(os.path.join(ROOT, "tools", "circuitpython", "README.md")) as f:
        assert digest in f.read()
    uf2 = os.path.join(ROOT, "tools", "pico", "circuitpython-10.2.1-raspberry_pi_pico.uf2")
    with open(uf2, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    with open(os.path.join(ROOT, "tools", "pico", "README.md")) as f:
        assert digest in f.read()
    out = subprocess.run([drive.MPY_CROSS, "--version"], capture_output=True, text=True).stdout
    assert out.startswith("CircuitPython 10.2.1") and "mpy v6.3" in out, out


def test_the_pinned_neopixel_library_compiles_with_circuitpythons_own_mpy_cross(tmp_path):
    """adafruit-circuitpython-neopixel, pinned in requirements-circuitpython.txt and
    installed by make (.venv/circuitpython), as make bench measures it on the chip
    (pico_circuitpython: the port writes with neopixel_write, the page says why)."""
    import sys

    with open(os.path.join(ROOT, "requirements-circuitpython.txt")) as f:
        assert "adafruit-circuitpython-neopixel==6.4.2" in f.read().split()
    src = os.path.join(sys.prefix, "circuitpython", "neopixel.py")
    with open(src) as f:
        assert '__version__ = "6.4.2"' in f.read()
    mpy = build.compile_one(src, "neopixel.py", str(tmp_path), exe=drive.mpy_cross())
    with open(mpy, "rb") as f:
        assert f.read(2) == b"C\x06"  # CircuitPython's own .mpy

