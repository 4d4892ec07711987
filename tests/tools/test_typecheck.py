"""The firmware type-checks against the MicroPython stubs (mypy, tools/mypy.ini).

The stubs of the reference board (micropython-rp2-rpi-pico-stubs: machine,
neopixel, rp2, MicroPython's time/os/...) are laid over
micropython-stdlib-stubs into one typeshed directory, which mypy then uses
instead of CPython's: `machine.Pin(...)` is checked against what the Pico's
MicroPython really offers, and CPython-only library calls fail.
"""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIG = os.path.join(ROOT, "tools", "mypy.ini")
TARGETS = ["firmware/attila", "firmware/ports/micropython"]
BOARD_STUBS = "micropython_rp2_rpi_pico_stubs"


def _site_packages():
    import sysconfig

    return sysconfig.get_paths()["purelib"]


def _mypy():
    exe = os.path.join(os.path.dirname(sys.executable), "mypy")
    return exe if os.path.exists(exe) else shutil.which("mypy")


def _record(site, prefix):
    for name in os.listdir(site):
        if name.startswith(prefix) and name.endswith(".dist-info"):
            with open(os.path.join(site, name, "RECORD")) as f:
                return [line.split(",")[0] for line in f if line.strip()]
    return None


@pytest.fixture(scope="module")
def typeshed(tmp_path_factory):
    """A typeshed directory: stdlib stubs + the Pico's MicroPython stubs on top."""
    site = _site_packages()
    if not os.path.isdir(os.path.join(site, "stdlib")):
        pytest.fail("micropython-stdlib-stubs is not installed (run `make install`)")
    files = _record(site, BOARD_STUBS)
    if files is None:
        pytest.fail("micropython-rp2-rpi-pico-stubs is not installed (run `make install`)")
    out = str(tmp_path_factory.mktemp("typeshed"))
    shutil.copytree(os.path.join(site, "stdlib"), os.path.join(out, "stdlib"))
    if os.path.isdir(os.path.join(site, "stubs")):
        shutil.copytree(os.path.join(site, "stubs"), os.path.join(out, "stubs"))
    tops = set()
    for rel in files:
        # __builtins__.pyi is pyright's custom-builtins hook, not a module.
        if not rel.endswith(".pyi") or rel.startswith("__builtins__") or ".." in rel:
            continue
        target = os.path.join(out, "stdlib", rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(site, rel), target)
        tops.add(rel.split("/")[0][: -len(".pyi")] if "/" not in rel else rel.split("/")[0])
    versions = os.path.join(out, "stdlib", "VERSIONS")
    with open(versions) as f:
        known = {line.split(":")[0].strip() for line in f if ":" in line}
    with open(versions, "a") as f:
        for name in sorted(tops - known):
            f.write("%s: 3.0-\n" % name)
    return out


def _run_mypy(typeshed, targets, cache):
    exe = _mypy()
    assert exe, "mypy is not installed (run `make install`)"
    return subprocess.run(
        [exe, "--config-file", CONFIG, "--custom-typeshed-dir", typeshed,
         "--cache-dir", cache] + targets,
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )


def test_firmware_typechecks(typeshed, tmp_path):
    proc = _run_mypy(typeshed, TARGETS, str(tmp_path / "cache"))
    assert proc.returncode == 0, (
        "mypy finds type errors in the firmware (config tools/mypy.ini):\n"
        + proc.stdout + proc.stderr
    )
    assert "Success" in proc.stdout


def test_stubs_are_the_boards(typeshed, tmp_path):
    """A call the Pico's MicroPython does not have is an error, so the stubs are in use."""
    bad = tmp_path / "bad_port.py"
    bad.write_text(
        "import machine\nimport time\n\n\n"
        "def f():\n"
        "    machine.Pin(1).no_such_method()\n"
        "    time.perf_counter()\n"  # CPython only
        "    machine.Pin(2, machine.Pin.OUT).value(1)\n"
    )
    proc = _run_mypy(typeshed, [str(bad)], str(tmp_path / "cache"))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "no_such_method" in proc.stdout
    assert "perf_counter" in proc.stdout
    assert proc.stdout.count("error:") == 2, proc.stdout
