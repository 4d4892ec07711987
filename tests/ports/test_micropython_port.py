"""The MicroPython port under real MicroPython (unix port) with fake machine/neopixel.

Each scenario of tests/ports/scripts/mpy_port.py (in mpy_wiring.py,
mpy_power_up.py, mpy_loop.py) runs in a fresh interpreter in a directory
that holds the board's files (profile.json, layout.json), the way they sit
on a Pico's file system, on the firmware as `attila flash` puts it there:
the modules compiled by mpy-cross, main.py as source. The idle-loop
allocation proof is tests/ports/scripts/mpy_heap.py.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
BOOK = os.path.join(ROOT, "boards", "solved", "4x5.book")
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")
if not os.path.exists(MICROPYTHON):
    MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")


@pytest.fixture(scope="module")
def flashed(tmp_path_factory):
    """MICROPYPATH: the fakes, then the firmware as `attila flash` copies it to a
    board (attila_tools.board.build: the core and hardware.py as .mpy, kernelv
    compiled for this build's native arch, main.py as source). Compiled, the
    modules leave the heap as a board's are left; compiled here at import, on
    a 64-bit build, they cut it into pieces of a few KB."""
    from attila_tools.board import build

    try:
        build.mpy_cross()
    except build.BuildError as e:
        pytest.skip("%s (make install)" % e)
    mpy = subprocess.run([MICROPYTHON, "-c", "import sys; print(sys.implementation._mpy)"],
                         capture_output=True, text=True, check=True).stdout
    folder = tmp_path_factory.mktemp("flashed")
    board = folder / "board"
    files = build.firmware(out_dir=str(folder / "build"), arch=build.native_arch(int(mpy)))
    for dest, src in files.items():
        (board / dest).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, board / dest)
    return ":".join([os.path.join(HERE, "fakes"), str(board)])

SCENARIOS = {
    "hc165": ("pico.json", {}),
    "spi": ("pico-spi.json", {}),
    "gpio": ("pico-direct.json", {}),
    "esp32": ("esp32.json", {}),
    "pico2": ("pico2.json", {}),
    "matrix": ("pico-matrix.json", {}),
    "bitstream": ("pico.json", {"leds": {"driver": "bitstream"}}),
    "maintenance": ("pico.json", {}),
    "selftest": ("pico.json", {}),
    "unwired": ("pico.json", {}),
    "unplugged": ("pico2.json", {}),
    "resume": ("pico.json", {}),  # bit-banged: the fake PIO needs a chain
    "collected": ("pico.json", {}),
    "sound": ("pico.json", {"sound": 50}),
    "watchdog": ("pico.json", {"watchdog_ms": 9000}),
    "thinking": ("pico.json", {}),
}


def board_files(tmp_path, profile, changes=None):
    with open(os.path.join(ROOT, "boards", "profiles", profile)) as f:
        data = json.load(f)
    for key, value in (changes or {}).items():
        if isinstance(value, dict):
            data[key].update(value)
        else:
            data[key] = value
    (tmp_path / "profile.json").write_text(json.dumps(data))
    shutil.copy(os.path.join(ROOT, "boards", "4x5.json"), tmp_path / "layout.json")
    shutil.copy(BOOK, tmp_path / "layout.book")  # as `attila flash` copies it


# The unix port is a 64-bit build: its objects take up to twice the bytes they
# take on the RP2040, so 320K here is about the Pico's ~190 KB of heap. What
# the chip itself has left is measured on MicroPython's own RP2040 build in the
# emulated Pico (tests/pico, make bench's pico_boot).
HEAP = "heapsize=320K"


def run_script(script, args, cwd, path):
    cmd = [MICROPYTHON, "-X", HEAP, script] + args
    env = dict(os.environ, MICROPYPATH=path)
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_port_scenario(tmp_path, scenario, flashed):
    profile, changes = SCENARIOS[scenario]
    board_files(tmp_path, profile, changes)
    script = "hc165" if scenario == "pico2" else scenario  # same pins as pico.json
    r = run_script(os.path.join(HERE, "scripts", "mpy_port.py"), [script], tmp_path, flashed)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "OK %s" % script in r.stdout, r.stdout + r.stderr


def test_status_line_on_the_serial_console(tmp_path, flashed):
    """Printed once at start and on each change of `said`, not otherwise."""
    board_files(tmp_path, "pico.json")
    r = run_script(os.path.join(HERE, "scripts", "mpy_port.py"), ["status"], tmp_path, flashed)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines() == [
        "attila: 4x5 on pico, 20 squares",
        "Romans: place a knight",
        "Huns: place a knight",
        "OK status",
    ], r.stdout


def test_a_host_that_never_reads_the_serial_port_never_stalls_the_loop(tmp_path, flashed):
    """rp2's USB serial blocks a print up to 500 ms (MICROPY_HW_USB_CDC_TX_TIMEOUT)
    when a host holds the port open without reading; a pipe nobody reads blocks it
    for ever. 5,000 status lines (350 kB) go to such a pipe: the loop runs on, the
    console sends what the pipe takes and drops the rest (a print would hang)."""
    board_files(tmp_path, "pico.json")
    cmd = [MICROPYTHON, "-X", HEAP, os.path.join(HERE, "scripts", "mpy_port.py"),
           "console"]
    env = dict(os.environ, MICROPYPATH=flashed)
    p = subprocess.Popen(cmd, cwd=str(tmp_path), env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        p.wait(timeout=120)  # a hang guard only: stdout is not read until the end
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        pytest.fail("the loop stalled on a serial port nobody reads")
    out, err = p.communicate()
    assert p.returncode == 0, err.decode()
    assert err.decode().startswith("OK console, ") and "lines dropped" in err.decode()
    assert int(err.decode().split()[2]) > 0
    lines = out.decode().splitlines()
    assert lines[0] == "attila: 4x5 on pico, 20 squares"
    # Every line sent is whole: the console never cuts one to start another.
    assert all(line.startswith("Huns: place a knight on a lit square") or
               line == "Romans: place a knight" for line in lines[1:-1]), lines[:5]


def test_idle_step_allocates_nothing(tmp_path, flashed):
    """heap_lock() around many idle Board.step() calls with the real controller."""
    board_files(tmp_path, "pico.json")
    r = run_script(os.path.join(HERE, "scripts", "mpy_heap.py"), [], tmp_path, flashed)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "OK heap" in r.stdout, r.stdout + r.stderr


BOOK_LINES = {
    "present": [],
    "missing": ["attila: no setup book (layout.book): the board searches its placements"],
    "damaged": ["attila: setup book not used (layout.book: the book is cut short or too long): "
                "the board searches its placements"],
    "foreign": ["attila: setup book not used (layout.book: the book is for another layout): "
                "the board searches its placements"],
}


@pytest.mark.parametrize("case", sorted(BOOK_LINES))
def test_the_setup_book_is_opened_or_the_board_says_once_why_not(tmp_path, case, flashed):
    """main.py opens layout.book for the controller; a missing or damaged book
    is said once on the console and the board runs on."""
    board_files(tmp_path, "pico.json")
    book = tmp_path / "layout.book"
    if case == "missing":
        book.unlink()
    elif case == "damaged":
        book.write_bytes(book.read_bytes()[:-3])
    elif case == "foreign":
        shutil.copy(os.path.join(ROOT, "boards", "solved", "cross.book"), book)
    r = run_script(os.path.join(HERE, "scripts", "mpy_port.py"), ["book", case], tmp_path,
                   flashed)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines() == (["attila: 4x5 on pico, 20 squares"] + BOOK_LINES[case]
                                     + ["Romans: place a knight", "OK book"]), r.stdout


def _kernelv_other_version(path):
    path.write_bytes(b"M\x05\x00\x1f" + bytes(16))  # an .mpy of MicroPython 1.20-1.21


def _kernelv_other_arch(path):
    mpy_cross = os.path.join(os.path.dirname(MICROPYTHON), "mpy-cross")
    if not os.path.exists(mpy_cross):
        pytest.skip("mpy-cross is not installed (make install)")
    src = os.path.join(ROOT, "firmware", "attila", "opponent", "kernelv.py")
    subprocess.run([mpy_cross, "-march=armv6m", "-o", str(path), src], check=True)


@pytest.mark.parametrize("make", [_kernelv_other_version, _kernelv_other_arch])
def test_an_incompatible_native_kernel_falls_back_to_the_portable_one(tmp_path, make):
    """After a MicroPython upgrade or downgrade, attila/opponent/kernelv.mpy no longer
    loads (ValueError): the board says so once and searches with attila.opponent.kernel."""
    shutil.copytree(os.path.join(ROOT, "firmware", "attila"), tmp_path / "attila")
    (tmp_path / "attila" / "opponent" / "kernelv.py").unlink()  # on a board: only the .mpy
    make(tmp_path / "attila" / "opponent" / "kernelv.mpy")
    code = ("from attila.opponent import search\nfrom attila.opponent.planner import choose\n"
            "from attila.game.notation import parse_position\n"
            "print(search.NATIVE)\n"
            "game = parse_position('R.x.H/.x.../H.x.R/..HR. R')\n"
            "print(choose(game, nodes=2000) is not None)\n")
    env = dict(os.environ, MICROPYPATH=str(tmp_path))
    r = subprocess.run([MICROPYTHON, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("attila: attila/opponent/kernelv.mpy not loaded (incompatible .mpy ")
    assert lines[0].endswith("): the portable kernel searches (slower); flash the board "
                             "again (attila flash) to compile it for this MicroPython")
    assert lines[1:] == ["False", "True"]
