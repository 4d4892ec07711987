"""The emulated board (tools/emulator): real mpremote commands against real MicroPython.

MicroPython's WebAssembly port runs under Node behind a pseudo-terminal; these
tests drive it only with the `mpremote` command line, as a maker would drive a
Pico, and look at its flash (a host directory) and its fake hardware.
"""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.helpers import wait_for  # noqa: E402
from tools.emulator.bridge import EmulatedDevice, available  # noqa: E402
from tools.emulator.hardware import Hardware  # noqa: E402

pytestmark = pytest.mark.skipif(bool(available()), reason="emulator: %s" % available())

HANG_GUARD_S = 120  # against a hung board only; nothing here is timed


def mpremote(port, *args, check=True):
    proc = subprocess.run(
        [sys.executable, "-m", "mpremote", "connect", port] + list(args),
        capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=ROOT,
    )
    if check:
        assert proc.returncode == 0, "mpremote %s failed:\n%s%s" % (
            " ".join(args), proc.stdout, proc.stderr)
    return proc


@pytest.fixture
def dev(tmp_path):
    with EmulatedDevice(str(tmp_path / "board")) as d:
        yield d


def test_exec_and_eval(dev):
    assert mpremote(dev.port, "exec", "print(6 * 7)").stdout.strip() == "42"
    out = mpremote(dev.port, "exec", "import sys", "eval", "sys.implementation.name").stdout
    assert out.strip() == "micropython"


def test_files_round_trip(dev, tmp_path):
    src = tmp_path / "hello.txt"
    data = bytes(range(256)) * 5 + b"end\n"
    src.write_bytes(data)
    mpremote(dev.port, "fs", "cp", str(src), ":")  # the root, as on a Pico
    mpremote(dev.port, "fs", "cp", str(src), ":./copy.txt")
    mpremote(dev.port, "fs", "mkdir", ":sub")
    mpremote(dev.port, "fs", "cp", str(src), ":sub/inner.bin")
    files = dev.files()
    assert files["hello.txt"] == data
    assert files["copy.txt"] == data
    assert files["sub/inner.bin"] == data

    listing = mpremote(dev.port, "fs", "ls", ":").stdout
    assert "%d hello.txt" % len(data) in listing
    assert "sub/" in listing
    for hidden in ("tmp/", "dev/", "proc/", "home/"):  # the port's own directories
        assert hidden not in listing

    import hashlib

    out = mpremote(dev.port, "fs", "sha256sum", ":hello.txt").stdout
    assert hashlib.sha256(data).hexdigest() in out
    back = tmp_path / "back.txt"
    mpremote(dev.port, "fs", "cp", ":sub/inner.bin", str(back))
    assert back.read_bytes() == data
    mpremote(dev.port, "exec", "open('note.txt', 'w').write('line 1\\nline 2\\n')")
    assert mpremote(dev.port, "fs", "cat", ":note.txt").stdout.splitlines() == ["line 1", "line 2"]
    mpremote(dev.port, "fs", "rm", ":note.txt")

    up = mpremote(dev.port, "fs", "cp", "--force", str(src), ":hello.txt").stdout
    assert "Up to date" not in up
    up = mpremote(dev.port, "fs", "cp", str(src), ":hello.txt").stdout
    assert "Up to date: hello.txt" in up  # mpremote's hash check on the board

    mpremote(dev.port, "fs", "rm", ":copy.txt")
    mpremote(dev.port, "fs", "rm", "-r", ":sub")
    assert sorted(dev.files()) == ["hello.txt"]


def test_errors_carry_micropython_errno(dev):
    proc = mpremote(dev.port, "fs", "rm", ":nothing-here", check=False)
    assert proc.returncode == 1
    assert "No such file or directory" in proc.stderr
    mpremote(dev.port, "fs", "mkdir", ":d")
    proc = mpremote(dev.port, "fs", "mkdir", ":d", check=False)
    assert proc.returncode == 1 and "File exists" in proc.stderr
    out = mpremote(dev.port, "exec", "import errno\ntry:\n open('nope')\nexcept OSError as e:\n"
                   " print(e.errno == errno.ENOENT, e.errno)").stdout
    assert out.split() == ["True", "2"]
    proc = mpremote(dev.port, "exec", "open('d', 'w')", check=False)
    assert "EISDIR" in proc.stdout + proc.stderr


def test_run_a_local_script(dev, tmp_path):
    script = tmp_path / "script.py"
    script.write_text("import os\nprint('files:', sorted(os.listdir()))\n")
    mpremote(dev.port, "exec", "open('a.txt', 'w').write('x')")
    assert mpremote(dev.port, "run", str(script)).stdout.strip() == "files: ['a.txt']"


def test_soft_reset_is_a_fresh_interpreter_on_the_same_files(dev):
    out = mpremote(dev.port, "exec", "marker = 1; open('kept.txt', 'w').write('yes')",
                   "resume", "exec", "print(marker)").stdout
    assert out.strip() == "1"  # no reset between chained commands
    out = mpremote(dev.port, "exec", "print('marker' in globals(), open('kept.txt').read())").stdout
    assert out.split() == ["False", "yes"]  # each mpremote run soft-resets first
    mpremote(dev.port, "soft-reset")
    assert dev.files()["kept.txt"] == b"yes"


LOOP = """\
import time
print("main: started")
n = 0
while True:
    n += 1
    with open("count.txt", "w") as f:
        f.write(str(n))
    time.sleep_ms(20)
"""


def _count(dev):
    return int(dev.files().get("count.txt", b"0") or 0)


def test_reset_runs_main_and_ctrl_c_stops_it(dev, tmp_path):
    main = tmp_path / "main.py"
    main.write_text(LOOP)
    mpremote(dev.port, "fs", "cp", str(main), ":main.py")
    mpremote(dev.port, "reset")  # machine.reset(): boots, runs main.py
    wait_for(lambda: _count(dev) > 3, "main.py to run after reset")
    assert b"main: started" in dev.serial_log()
    # mpremote interrupts the running program (Ctrl-C) before it does anything;
    # the board's own clock then runs past many of main.py's loops, and its count
    # stays where it stopped.
    out = mpremote(dev.port, "exec", "import time\nn = int(open('count.txt').read())\n"
                   "time.sleep_ms(300)\nprint(n > 0, int(open('count.txt').read()) == n)").stdout
    assert out.split() == ["True", "True"], "main.py still runs after mpremote's Ctrl-C"
    assert b"KeyboardInterrupt" in dev.serial_log()


def test_flash_survives_a_power_cycle(tmp_path):
    state = str(tmp_path / "board")
    with EmulatedDevice(state) as d:
        mpremote(d.port, "exec", "open('keep.txt', 'w').write('kept')")
    with EmulatedDevice(state) as d:
        assert mpremote(d.port, "fs", "cat", ":keep.txt").stdout.strip() == "kept"


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)


def test_gpio_pins_read_the_reed_switches(dev, tmp_path):
    layout = os.path.join(ROOT, "boards", "4x5.json")
    profile = os.path.join(ROOT, "boards", "profiles", "pico-direct.json")
    hw = Hardware.wire(dev, layout, profile)
    pins = list(hw.profile.sensor_pins)
    hw.set_squares(1 << 0 | 1 << 7)  # a1 and c2
    raw = hw.wiring.chain(1 << 0 | 1 << 7)
    code = (
        "import machine\n"
        "ps = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in %r]\n"
        "print(''.join(str(p.value()) for p in ps))" % (pins,)
    )
    out = mpremote(dev.port, "exec", code).stdout.strip()
    expect = "".join("0" if raw >> k & 1 else "1" for k in range(len(pins)))  # active low
    assert out == expect


def test_74hc165_chain_shifts_out_the_switches(dev):
    layout = os.path.join(ROOT, "boards", "4x5.json")
    profile = os.path.join(ROOT, "boards", "profiles", "pico.json")
    hw = Hardware.wire(dev, layout, profile)
    p = hw.profile
    squares = 1 << 3 | 1 << 12 | 1 << 19
    hw.set_squares(squares)
    code = (
        "import machine\n"
        "load = machine.Pin(%r, machine.Pin.OUT, value=1)\n"
        "clk = machine.Pin(%r, machine.Pin.OUT, value=0)\n"
        "data = machine.Pin(%r, machine.Pin.IN)\n"
        "load.value(0); load.value(1)\n"
        "bits = []\n"
        "for _ in range(%d):\n"
        "    bits.append(data.value()); clk.value(1); clk.value(0)\n"
        "print(''.join(str(b) for b in bits))"
        % (p.load, p.clock, p.data, 8 * len(hw.wiring.registers))
    )
    out = mpremote(dev.port, "exec", code).stdout.strip()
    # register k (module k+1) shifts out D7 first; module k's switches are D0..
    raw = hw.wiring.chain(squares)
    expect = ""
    base = 0
    for n in hw.wiring.registers:
        for d in range(7, -1, -1):
            closed = d < n and raw >> (base + d) & 1
            expect += "0" if closed else "1"
        base += n
    assert out == expect


def test_neopixel_writes_are_recorded(dev):
    mpremote(dev.port, "exec",
             "import machine, neopixel\n"
             "np = neopixel.NeoPixel(machine.Pin(22), 3)\n"
             "np[0] = (255, 0, 0); np[2] = (0, 0, 7)\n"
             "np.write()")
    raw = dev.hw_file("leds.json")
    import json

    data = json.loads(raw)
    assert data["pin"] == 22 and data["writes"] == 1
    assert bytes.fromhex(data["data"]) == bytes([0, 255, 0, 0, 0, 0, 0, 0, 7])  # GRB


WATCHDOG = """\
import machine, time
print("boot", machine.reset_cause())
wdt = machine.WDT(timeout=400)
for _ in range(10):
    wdt.feed()
    time.sleep_ms(50)
print("hang")
while True:
    time.sleep_ms(50)
"""


def test_watchdog_resets_the_board_unless_fed(dev, tmp_path):
    main = tmp_path / "main.py"
    main.write_text(WATCHDOG)
    mpremote(dev.port, "fs", "cp", str(main), ":main.py")
    mpremote(dev.port, "reset")
    # fed for 0.5 s, then starved: bites after 0.4 s and the board boots again
    wait_for(lambda: dev.serial_log().count(b"boot 3") >= 1, "a watchdog reset (cause 3)")
    assert dev.serial_log().count(b"hang") >= 1
    # A watchdog outlives Ctrl-C and soft resets: it bites at the REPL too.
    mpremote(dev.port, "exec", "print('interrupted')")
    n = dev.serial_log().count(b"boot 3")
    wait_for(lambda: dev.serial_log().count(b"boot 3") > n, "the watchdog to bite at the REPL")


def test_watchdog_refuses_what_the_rp2040_refuses(dev):
    code = ("import machine\ntry:\n machine.WDT(timeout=8389)\nexcept ValueError as e:\n"
            " print('refused:', e)")
    assert mpremote(dev.port, "exec", code).stdout.strip() == "refused: timeout exceeds 8388"
