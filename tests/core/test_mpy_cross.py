"""Every .py under firmware/ (core and ports) compiles with mpy-cross.

mpy-cross is MicroPython's own compiler, so this catches syntax MicroPython
does not accept (and misuse of const()) before a file reaches a board.
"""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")


def _mpy_cross():
    exe = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if os.path.exists(exe):
        return exe
    return shutil.which("mpy-cross") or os.path.join(ROOT, ".venv", "bin", "mpy-cross")


def _sources():
    found = []
    for dirpath, dirnames, filenames in os.walk(FIRMWARE):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(".py"):
                found.append(os.path.relpath(os.path.join(dirpath, name), ROOT))
    return found


SOURCES = _sources()


def test_native_code_compiles_for_both_pico_chips(tmp_path):
    for arch in ("armv6m", "armv7emsp"):  # RP2040, RP2350
        target = tmp_path / ("kernelv-%s.mpy" % arch)
        proc = subprocess.run(
            [_mpy_cross(), "-o", str(target), "-march=" + arch, "firmware/attila/opponent/kernelv.py"],
            cwd=ROOT, capture_output=True, text=True,
        )
        assert proc.returncode == 0, (proc.stderr + proc.stdout).strip()


def test_firmware_has_sources():
    assert "firmware/attila/game/rules.py" in [s.replace(os.sep, "/") for s in SOURCES]


def test_mpy_cross_runs():
    exe = _mpy_cross()
    assert os.path.exists(exe), "mpy-cross not found (run `make install`)"
    out = subprocess.run([exe, "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and "MicroPython" in out.stdout, out.stdout + out.stderr


def _native(source):
    with open(os.path.join(ROOT, source)) as f:
        text = f.read()
    return "@micropython.viper" in text or "@micropython.native" in text


@pytest.mark.parametrize("source", SOURCES)
def test_compiles(source, tmp_path):
    target = tmp_path / (os.path.basename(source)[:-3] + ".mpy")
    # Native code compiles for a chip: the reference board's RP2040 (Cortex-M0+).
    arch = ["-march=armv6m"] if _native(source) else []
    proc = subprocess.run(
        [_mpy_cross(), "-o", str(target), "-s", source] + arch + [source],
        cwd=ROOT, capture_output=True, text=True,
    )
    message = (proc.stderr + proc.stdout).strip()
    assert proc.returncode == 0, "%s does not compile with mpy-cross:\n%s" % (source, message)
    assert target.stat().st_size > 0, "%s: mpy-cross wrote no output" % source
