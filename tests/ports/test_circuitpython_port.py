"""The CircuitPython port against the real adafruit-circuitpython-neopixel library.

tests/ports/scripts/cp_port.py runs code.py with CPython in a fresh process
(its fake `board`, `digitalio`, `neopixel_write` must not leak into other
tests) in a directory holding the board's profile.json and layout.json.
"""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_circuitpython_port(tmp_path):
    shutil.copy(
        os.path.join(ROOT, "boards", "profiles", "circuitpython-pico.json"),
        tmp_path / "profile.json",
    )
    shutil.copy(os.path.join(ROOT, "boards", "4x5.json"), tmp_path / "layout.json")
    r = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tests", "ports", "scripts", "cp_port.py")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "OK circuitpython" in r.stdout, r.stdout + r.stderr
