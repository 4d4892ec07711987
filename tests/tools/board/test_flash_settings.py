"""`make flash COMPUTER=R|H LEVEL=... CARD=1|0`: the settings go into the profile the board gets.

The profile file itself stays as it is; the board gets a copy (build/flash/
profile.json) with its `game` section set and its `sdcard` section added
(the controller board's microSD pins) or taken out, checked as the board
reads it before any board is touched. The end to end run against a board,
the copy read back from its flash, is tests/pico/test_picow.py (make flash
on the emulated Pico W). Also here: the shipped profiles for the ordered
controller and the Pico W against the controller board's copper, and what
`make flash` says when it finds no board.
"""

import json
import os
import shutil
import subprocess

import pytest
from emulated_board import PROFILE, ROOT

from attila import profile as profiles
from attila_tools import cli
from attila_tools.board import build, device, settings
from attila_tools.board.device import DeviceError, find_port
from attila_tools.hardware import netlist, pinout

PROFILES = os.path.join(ROOT, "boards", "profiles")
CP = os.path.join(PROFILES, "circuitpython-pico.json")
RADIO = (23, 24, 25, 29)  # the Pico W's wireless chip (boards/profiles/README.md)


def load(name):
    with open(os.path.join(PROFILES, name)) as f:
        return json.load(f)


def flash(monkeypatch, tmp_path, *options, profile=PROFILE):
    """`attila flash --profile PROFILE OPTIONS` with no board plugged in: (status,
    stdout, stderr, the profile copy it wrote or None)."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(device, "_list_ports", lambda: [])
    monkeypatch.setattr(build, "BUILD", str(tmp_path / "build"))
    status = cli.main(["flash", "--profile", profile] + list(options))
    copy = tmp_path / "build" / settings.PROFILE_COPY
    return status, copy.read_text() if copy.exists() else None


def test_make_passes_computer_level_and_card_to_attila_flash():
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    out = subprocess.run([make, "-n", "flash", "PORT=/dev/pts/9", "COMPUTER=H", "LEVEL=normal",
                          "CARD=1"], capture_output=True, text=True, cwd=ROOT).stdout
    line = [l for l in out.splitlines() if "attila flash" in l][-1]
    assert line.split("attila flash", 1)[1].split() == [
        "--port", "/dev/pts/9", "--computer", "H", "--level", "normal", "--card", "1"]


def test_the_settings_go_into_a_copy_of_the_profile(monkeypatch, tmp_path, capsys):
    status, copy = flash(monkeypatch, tmp_path, "--computer", "h", "--level", "easy", "--card",
                         "1")
    assert status == 1  # no board plugged in: the copy was made first
    out = capsys.readouterr().out
    assert ("attila flash: profile boards/profiles/pico.json as %s: the board plays the Huns, "
            "level easy; the solved game from the microSD card (sck 2, mosi 3, miso 4, cs 5)"
            % os.path.relpath(str(tmp_path / "build" / "profile.json"), ROOT)) in out
    want = dict(load("pico.json"), game={"computer": "H", "level": "easy"},
                sdcard=load("controller.json")["sdcard"])
    assert json.loads(copy) == want
    assert load("pico.json") == json.loads(open(PROFILE).read())  # the file itself unchanged
    p = profiles.loads(copy)
    assert (p.computer, p.level, p.sd_pins, p.sd_spi) == (1, 1, (2, 3, 4, 5), 0)


def test_without_the_options_the_profile_goes_as_it_is(monkeypatch, tmp_path, capsys):
    status, copy = flash(monkeypatch, tmp_path)
    assert status == 1 and copy is None
    assert "as build" not in capsys.readouterr().out


def test_card_0_takes_the_socket_out_and_none_gives_two_players():
    data = load("controller.json")
    off = settings.apply(data, computer="none", with_card=False)
    assert "sdcard" not in off and off["game"] == {"computer": "none"}
    assert settings.describe(off) == "two players (the board plays no side); no microSD card"
    coached = dict(data, game={"coach": True})
    assert settings.apply(coached, with_card=False)["game"] == {"coach": False}  # it reads the card
    assert settings.apply(data, with_card=True) == data  # its own pins stay


def test_card_1_on_circuitpython_names_the_pins_as_circuitpython_does():
    data = settings.apply(load("circuitpython-pico.json"), computer="R", with_card=True)
    assert data["sdcard"] == {"sck": "GP2", "mosi": "GP3", "miso": "GP4", "cs": "GP5"}
    p = profiles.loads(json.dumps(data))
    assert p.sd_pins == ("GP2", "GP3", "GP4", "GP5") and p.computer == 0


@pytest.mark.parametrize("options, words", [
    (["--computer", "X"], "argument --computer: invalid side (R, H or none) value: 'X'"),
    (["--level", "hard"], "argument --level: invalid choice: 'hard' (choose from "),
    (["--card", "maybe"], "argument --card: invalid card (1 or 0) value: 'maybe'"),
])
def test_a_bad_setting_is_one_line_and_exit_2(monkeypatch, tmp_path, capsys, options, words):
    status, copy = flash(monkeypatch, tmp_path, *options)
    err = capsys.readouterr().err
    assert (status, copy) == (2, None)
    assert err.startswith("attila flash: ") and words in err, err
    assert err.count("\n") == 1


@pytest.mark.parametrize("name, words", [
    ("pico-direct.json", "boards/profiles/pico-direct.json with --card 1: pin 2 is used twice"),
    ("esp32.json", "boards/profiles/esp32.json with --card 1 has no \"sdcard\" section and is "
                   "not for a Raspberry Pi Pico: add one with your card's pins "
                   "(docs/pages/build/card.md)"),
])
def test_a_card_the_profile_cannot_take_is_refused_before_any_board(monkeypatch, tmp_path, capsys,
                                                                    name, words):
    status, copy = flash(monkeypatch, tmp_path, "--card", profile=os.path.join(PROFILES, name))
    err = capsys.readouterr().err
    assert (status, copy) == (2, None), err
    assert words in err and "no MicroPython board found" not in err, err


def test_no_board_found_names_the_emulated_pico_and_how_to_start_it(monkeypatch, tmp_path,
                                                                    capsys):
    with pytest.raises(DeviceError) as e:
        find_port(None, ports=[])
    msg = str(e.value)
    assert ("  - No board at hand? Flash the emulated Pico (MicroPython's own Pico build on an\n"
            "    emulated RP2040): start it with\n"
            "        .venv/bin/python tools/pico/serve.py --state /tmp/mypico\n"
            "    which prints its port (/dev/pts/N), then in another terminal\n"
            "        make flash PORT=/dev/pts/N\n") in msg
    assert "docs/pages/flash/emulated.md" in msg
    assert os.path.exists(os.path.join(ROOT, "tools", "pico", "serve.py"))
    assert os.path.exists(os.path.join(ROOT, "docs", "pages", "flash", "emulated.md"))
    status, _copy = flash(monkeypatch, tmp_path)  # what `make flash` prints
    assert status == 1 and "tools/pico/serve.py --state /tmp/mypico" in capsys.readouterr().err


def _controller_gpios():
    """{net: GPIO} of every Pico pin the controller board's netlist wires to a signal."""
    nl = netlist.load("controller")
    pico = [r for r, p in nl.parts.items() if p["value"] == "Pico"][0]
    gpio_of_pin = {str(pin): gp for gp, pin in pinout.PICO_PIN.items()}
    out = {}
    for net, nodes in nl.nets.items():
        for ref, pin in nodes:
            if ref == pico and pin in gpio_of_pin and not net.startswith("unconnected-"):
                out[net] = gpio_of_pin[pin]
    return out


@pytest.mark.parametrize("name", ["controller.json", "picow.json"])
def test_the_shipped_controller_profiles_are_the_copper_card_socket_included(name):
    """controller.json (a Pico) and picow.json (a Pico W in its place) wire every
    signal where the controller board's netlist puts it, the microSD socket's
    too; none of the board's pins is one the Pico W's radio takes."""
    data = load(name)
    wired = _controller_gpios()
    s = data["sensors"]
    assert {"LED_GP": data["leds"]["pin"], "LOAD_GP": s["load"], "CLOCK_GP": s["clock"],
            "SHIFT": s["data"], "UNDO": data["buttons"]["undo"],
            "MENU": data["buttons"]["menu"], "BUZZER": data["buzzer"],
            "SD_SCK": data["sdcard"]["sck"], "SD_MOSI": data["sdcard"]["mosi"],
            "SD_MISO": data["sdcard"]["miso"], "SD_CS": data["sdcard"]["cs"]} == wired
    assert data["sdcard"]["spi"] == pinout.load().sd_spi == (wired["SD_SCK"] >> 3) & 1
    assert not set(wired.values()) & set(RADIO)
    p = profiles.load(os.path.join(PROFILES, name))
    profiles.check_pins(p, "Raspberry Pi Pico W with RP2040")  # the W's radio pins are free
    pico = load("pico.json")
    assert {k: v for k, v in data.items() if k not in ("name", "description", "board", "sdcard")} \
        == {k: v for k, v in pico.items() if k not in ("name", "description", "board")}
