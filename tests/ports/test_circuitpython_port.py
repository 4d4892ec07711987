"""The CircuitPython port (boot.py, code.py, hardware.py) on faithful fakes of its modules.

tests/ports/scripts/cp_port.py runs each scenario (in cp_wiring.py,
cp_power_up.py, cp_loop.py) with CPython in a fresh process (its fake
`board`, `digitalio`, `keypad`... must not leak into other tests) in a
directory holding the board's profile.json and layout.json. The fakes (tests/ports/fakes_cp) follow CircuitPython's own
documentation of keypad, neopixel_write, pwmio, storage and the watchdog.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "tests", "ports", "scripts", "cp_port.py")
OPENED = "attila: opening table: the game's first turn of play is exact"
DIRECT = ["GP%d" % n for n in list(range(16)) + [19, 20, 21, 26]]

SCENARIOS = {
    "hc165": {},
    "gpio": {"sensors": {"kind": "gpio", "pins": DIRECT}},
    "matrix": {"sensors": {"kind": "matrix", "rows": ["GP0", "GP1", "GP2", "GP3"],
                           "cols": ["GP4", "GP5", "GP6", "GP7", "GP8"]}},
    "overflow": {},
    "selftest": {},
    "maintenance": {},
    "readonly": {},
    "old": {},
    "opening": {},
    "opponent": {},
    "sound": {"sound": 50},
    "status": {},
    "console": {},
    "watchdog": {"watchdog_ms": 8500},
    "loop": {},
    "collected": {},
}


def run_scenario(tmp_path, name, damage=None):
    with open(os.path.join(ROOT, "boards", "profiles", "circuitpython-pico.json")) as f:
        data = json.load(f)
    data.update(SCENARIOS.get(name, {}))
    (tmp_path / "profile.json").write_text(json.dumps(data))
    shutil.copy(os.path.join(ROOT, "boards", "4x5.json"), tmp_path / "layout.json")
    shutil.copy(os.path.join(ROOT, "boards", "solved", "4x5.book"), tmp_path / "layout.book")
    shutil.copy(os.path.join(ROOT, "boards", "solved", "4x5.opening"),
                tmp_path / "layout.opening")
    if damage:
        damage(tmp_path)
    return subprocess.run([sys.executable, SCRIPT, name], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_circuitpython_port(tmp_path, name):
    r = run_scenario(tmp_path, name)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "OK %s" % name in r.stdout, r.stdout + r.stderr


def test_status_line_and_trouble_on_the_serial_console(tmp_path):
    r = run_scenario(tmp_path, "status")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[-5:] == ["attila: 4x5 on circuitpython-pico, 20 squares", OPENED,
                          "Romans: place a knight", "Huns: place a knight", "OK status"], lines
    r = run_scenario(tmp_path, "old")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[0] == (
        "attila: CircuitPython 9.2.0 is too old: the board needs 9.2.1 or newer (its keypad "
        "forgets the keys held at power-up, so every piece would read as missing); update it")


def test_the_setup_book_is_opened_or_the_board_says_once_why_not(tmp_path):
    r = run_scenario(tmp_path, "book")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-4:] == ["attila: 4x5 on circuitpython-pico, 20 squares",
                                          OPENED, "Romans: place a knight", "OK book"], r.stdout
    r = run_scenario(tmp_path, "book",
                     lambda d: (d / "layout.book").write_bytes(b"ATB2" + bytes(40)))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-5:] == [
        "attila: 4x5 on circuitpython-pico, 20 squares",
        "attila: setup book not used (layout.book: the book is for 0 squares, the layout has 20): "
        "the board searches its placements", OPENED,
        "Romans: place a knight", "OK book"], r.stdout


def test_the_opening_table_is_opened_or_the_board_says_once_why_not(tmp_path):
    """layout.opening (attila flash --drive copies it) reaches the opponent as
    its card when no SD card covers the game: one console line, no trouble
    sign (the search still plays every turn but the first of play)."""
    r = run_scenario(tmp_path, "opening")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-4:] == ["attila: 4x5 on circuitpython-pico, 20 squares",
                                          OPENED, "Romans: place a knight", "OK opening"], r.stdout

    def damaged(folder):
        path = folder / "layout.opening"
        data = bytearray(path.read_bytes())
        data[512 + 3] ^= 0x40  # in the fold map, read whole when the table opens
        path.write_bytes(bytes(data))

    r = run_scenario(tmp_path, "opening", damaged)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-4:] == [
        "attila: 4x5 on circuitpython-pico, 20 squares",
        "attila: opening table not used (layout.opening: block 1 is damaged or out of place): "
        "the game's first turn of play is searched", "Romans: place a knight", "OK opening"], r.stdout
    r = run_scenario(tmp_path, "opening", lambda folder: (folder / "layout.opening").unlink())
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-3:] == [  # no table: nothing to say (most layouts have none)
        "attila: 4x5 on circuitpython-pico, 20 squares", "Romans: place a knight",
        "OK opening"], r.stdout


SD = {"sck": "GP2", "mosi": "GP3", "miso": "GP4", "cs": "GP5"}
CARD_9 = os.path.join(ROOT, "tests", "portable", "card_9.tbl")


@pytest.mark.skipif(shutil.which("mformat") is None, reason="mtools (mformat) is not installed")
def test_a_missing_or_foreign_card_is_said_once_with_the_trouble_sign(tmp_path):
    """code.py opens the profile's microSD card (busio + sdcardio, attila.opponent.fat, attila.opponent.card);
    without it, or with another layout's, one console line and the trouble sign."""
    SCENARIOS["card"] = {"sdcard": SD}
    try:
        r = run_scenario(tmp_path, "card")
        assert r.returncode == 0, r.stdout + r.stderr
        why = "card not used (no SD card): the board searches"
        # (the opening table then makes the first turn of play exact)
        assert r.stdout.splitlines()[-6:] == [
            "attila: 4x5 on circuitpython-pico, 20 squares", "attila: " + why, OPENED,
            "Romans: place a knight", "troubles: %r" % [why], "OK card"], r.stdout
        image = str(tmp_path / "sd.img")
        with open(image, "wb") as f:
            f.truncate(40 << 20)
        subprocess.run(["mformat", "-i", image, "-F", "::"], check=True)
        subprocess.run(["mcopy", "-i", image, CARD_9, "::attila.tbl"], check=True)
        r = run_scenario(tmp_path, "card")
        assert r.returncode == 0, r.stdout + r.stderr
        why = ("card not used (attila.tbl: the tables are for another layout (nine, 9 squares)): "
               "the board searches")
        assert r.stdout.splitlines()[-5:] == ["attila: " + why, OPENED, "Romans: place a knight",
                                              "troubles: %r" % [why], "OK card"], r.stdout
    finally:
        del SCENARIOS["card"]
