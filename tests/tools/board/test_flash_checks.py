"""`attila flash` before it copies anything: finding the board, and what it refuses.

No board is touched here: the port is looked for among fake serial ports,
and a layout, a profile or a board that cannot take the firmware is refused
with one line (exit 2) before any copy.
"""

import json
import os
from types import SimpleNamespace

import pytest
from emulated_board import PROFILE, ROOT, run_flash

from attila_tools import cli
from attila_tools.board import build, flash
from attila_tools.board.device import DeviceError, check_compatible, find_port


def _port(device, vid, pid, maker, product):
    return SimpleNamespace(device=device, serial_number="e6605838", vid=vid, pid=pid,
                           manufacturer=maker, product=product)


def test_no_board_lists_what_mpremote_sees():
    ports = [_port("/dev/ttyUSB0", 0x1A86, 0x7523, "QinHeng", "USB Serial")]
    with pytest.raises(DeviceError) as e:
        find_port(None, ports=ports)
    msg = str(e.value)
    assert "no MicroPython board found" in msg
    assert "/dev/ttyUSB0 e6605838 1a86:7523 QinHeng USB Serial" in msg  # mpremote's format
    assert "RPI-RP2" in msg and "--port" in msg
    with pytest.raises(DeviceError) as e:
        find_port(None, ports=[])
    assert "no serial ports at all" in str(e.value)


def test_the_one_pico_is_found_and_two_need_a_choice():
    pico = _port("/dev/ttyACM0", 0x2E8A, 0x0005, "MicroPython", "Board in FS mode")
    other = _port("/dev/ttyS0", None, None, None, None)
    assert find_port(None, ports=[other, pico]) == "/dev/ttyACM0"
    assert find_port("/dev/ttyACM7", ports=[]) == "/dev/ttyACM7"
    with pytest.raises(DeviceError) as e:
        find_port(None, ports=[pico, _port("/dev/ttyACM1", 0x2E8A, 0x0005, "MicroPython", "x")])
    assert "several boards" in str(e.value) and "/dev/ttyACM1" in str(e.value)


def test_too_old_micropython_says_what_to_install():
    pico = "Raspberry Pi Pico with RP2040"
    old = {"name": "micropython", "version": (1, 18, 0), "mpy": 5, "machine": pico}
    msg = check_compatible(old, (6, 0, 0))
    assert "1.18.0" in msg and "1.22.0 or newer" in msg
    assert "https://micropython.org/download/RPI_PICO/" in msg
    pico2 = {"name": "micropython", "version": (1, 21, 0), "mpy": 6 | 2 << 8,
             "machine": "Raspberry Pi Pico2 with RP2350"}
    assert "RPI_PICO2" in check_compatible(pico2, (6, 0, 0))
    ok = {"name": "micropython", "version": (1, 24, 1), "mpy": 6 | 3 << 8 | 10 << 10, "machine": pico}
    assert check_compatible(ok, (6, 0, 0)) is None
    future = dict(ok, mpy=7)
    assert ".mpy version 7" in check_compatible(future, (6, 0, 0))
    cp = {"name": "circuitpython", "version": (9, 2, 1), "mpy": 5, "machine": pico}
    assert "not MicroPython" in check_compatible(cp, (6, 0, 0))


@pytest.mark.parametrize("argv", [
    ["flash", "--port", "auto"],
    ["layout", "boards/4x5.json", "--port", "auto"],
    ["games", "--port", "auto"],
])
def test_port_auto_finds_the_board_like_no_port(argv, monkeypatch, capsys, tmp_path):
    """`--port auto` (as the README shows it) looks for the one board plugged
    in, as no --port does; it used to be refused as a path that does not exist."""
    from attila_tools import cli
    from attila_tools.board import device

    monkeypatch.chdir(build.ROOT)
    monkeypatch.setattr(device, "_list_ports", lambda: [])
    monkeypatch.setattr(build, "BUILD", str(tmp_path / "build"))
    if argv[0] == "games":
        argv = argv + ["--out", str(tmp_path / "games")]
    assert cli.main(argv) != 0
    err = capsys.readouterr().err
    assert "auto does not exist" not in err
    assert "no MicroPython board found" in err


def test_bad_layout_is_refused_before_any_board_is_touched(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "bad", "modules": [')
    proc = run_flash("/dev/does-not-exist", layout=str(bad))
    assert proc.returncode == 2
    assert str(bad) in proc.stderr
    proc = run_flash("/dev/does-not-exist", profile=str(tmp_path / "missing.json"))
    assert proc.returncode == 2 and "does not exist" in proc.stderr


def test_profile_the_chip_refuses_is_refused_before_any_board_is_touched(tmp_path):
    """A watchdog the RP2040 refuses (the board would die at boot) or a budget it
    cannot survive: one line, exit 2, nothing copied."""
    with open(PROFILE) as f:
        data = json.load(f)
    for changes, reason in (
        ({"watchdog_ms": 9000}, "watchdog_ms 9000 is more than MicroPython on the rp2040 "
                                "accepts (at most 8388)"),
        ({"game": {"budget_ms": 4500}}, "game: budget_ms 4500 does not fit the 5000 ms "
                                        "watchdog: the board may think that long without "
                                        "feeding it (a blocking decision); at most 4000"),
    ):
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(dict(data, **changes)))
        proc = run_flash("/dev/does-not-exist", profile=str(bad))
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert proc.stderr == "attila flash: %s: %s\n" % (bad, reason), proc.stderr
        assert "copy" not in proc.stdout


def test_a_circuitpython_profile_on_port_points_to_drive():
    # --port with a CircuitPython profile says what to run instead.
    cp = os.path.join(ROOT, "boards", "profiles", "circuitpython-pico.json")
    proc = run_flash("/dev/does-not-exist", profile=cp)
    assert proc.returncode == 2
    assert proc.stderr == (
        "attila flash: %s is a circuitpython profile; --port installs the MicroPython port: "
        "for a CircuitPython board, attila flash --drive PATH --profile %s (PATH: its "
        "mounted CIRCUITPY drive)\n" % (cp, cp))


class _ReportingBoard:
    """A board that only says what it is; anything else is a copy we must not make."""

    machine = "Raspberry Pi Pico with RP2040"

    def __init__(self, port):
        self.port = port

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def info(self):
        return {"name": "micropython", "version": (1, 27, 0), "mpy": 6 | 3 << 8 | 2 << 10,
                "machine": self.machine, "platform": "rp2"}

    def __getattr__(self, name):
        raise AssertionError("the board was touched: %s" % name)


@pytest.mark.parametrize("machine, profile, words", [
    ("Raspberry Pi Pico with RP2040", "esp32.json",
     "boards/profiles/esp32.json is a profile for the esp32, but the board is a Raspberry Pi "
     "Pico with RP2040: its firmware would stop at boot. Give --profile for the RP2040: "
     "boards/profiles/controller.json, boards/profiles/pico-direct.json, "
     "boards/profiles/pico-matrix.json, boards/profiles/pico-spi.json, "
     "boards/profiles/pico.json, boards/profiles/picow.json (or \"chip\": \"other\")"),
    ("Raspberry Pi Pico with RP2040", "pico2.json",
     "boards/profiles/pico2.json is a profile for the rp2350, but the board is a Raspberry Pi "
     "Pico with RP2040"),
    ("Raspberry Pi Pico2 with RP2350", "pico.json",
     "boards/profiles/pico.json is a profile for the rp2040, but the board is a Raspberry Pi "
     "Pico2 with RP2350: its firmware would stop at boot. Give --profile for the RP2350: "
     "boards/profiles/pico2.json"),
    ("Generic ESP32 module with ESP32", "pico.json", "is a profile for the rp2040, but the "
     "board is a Generic ESP32 module with ESP32"),
    ("Raspberry Pi Pico W with RP2040", "buzzer-25",
     "buzzer: pin 25 is not on the Raspberry Pi Pico W's header (GP23, GP24, GP25 and GP29 "
     "run its wireless chip), as the board is a Raspberry Pi Pico W"),
])
def test_flash_refuses_a_profile_for_another_chip_than_the_board_reports(
        machine, profile, words, monkeypatch, capsys, tmp_path):
    """The board says what it is (os.uname().machine); a profile for another chip,
    or with pins that board keeps, is refused before anything is copied: exit 2."""
    monkeypatch.chdir(ROOT)
    if profile == "buzzer-25":  # a plain RP2040 profile with the buzzer on GPIO 25
        with open(PROFILE) as f:
            data = dict(json.load(f), buzzer=25, board="")
        path = tmp_path / "p.json"
        path.write_text(json.dumps(data))
        profile = str(path)
    else:
        profile = os.path.join("boards", "profiles", profile)
    monkeypatch.setattr(_ReportingBoard, "machine", machine)
    monkeypatch.setattr(flash, "SerialBoard", _ReportingBoard)
    monkeypatch.setattr(flash, "find_port", lambda port: "/dev/ttyACM0")
    monkeypatch.setattr(flash, "check_compatible", lambda info, mpy: None)
    assert cli.main(["flash", "--profile", profile, "--source"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("attila flash: "), err
    assert words in err, err


def test_flash_takes_a_profile_for_the_chip_the_board_reports(monkeypatch):
    from attila import profile as profiles
    from attila_tools.board.device import check_chip

    pico = {"machine": "Raspberry Pi Pico W with RP2040"}
    assert check_chip(pico, profiles.load(PROFILE), PROFILE) is None  # no GP23-25, GP29
    wasm = {"machine": "JavaScript with Emscripten"}  # the emulated board: no chip of ours
    assert check_chip(wasm, profiles.load(PROFILE), PROFILE) is None
    assert check_chip({"machine": ""}, profiles.load(PROFILE), PROFILE) is None
