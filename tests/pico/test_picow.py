"""The Pico W on the emulated chip: its radio absent, the board plays on its own and says why.

MicroPython's RPI_PICO_W build (tools/pico/micropython-v1.27.0-RPI_PICO_W.uf2,
tools/pico/README.md) runs on the same RP2040; its radio, a CYW43439 on
GP23, GP24, GP25 and GP29, is not there (rp2040js has none), so nothing
answers on those pins. Flashed with picow.json (the controller board's
pins) as `make flash ... CARD=0` flashes it, the firmware must start, play
the whole scripted game of tests/pico/game.txt frame for frame with the
simulator as on a Pico, and say on its serial line why it is not online;
its 848 KB file system cannot hold the layout's opening table beside the
firmware, which is left out (attila_tools.board.room). As shipped (the
card socket named, empty) it says that too. Turning the radio on is an
error the firmware returns, not a wait for ever. And `make flash
COMPUTER=H LEVEL=normal CARD=0` through the emulated Pico W's serial port
puts those settings into the profile.json on its flash.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

from attila.game.notation import log
from attila.game.rules import OVER
from attila.saves.savetext import restore, unpack
from attila_sim import actions, script
from attila_tools.board import build, settings

import led_language
from conftest import LAYOUT, ROOT, profile
from tools.pico import flashimage
from tools.pico.board import PicoBoard
from tools.pico.flashimage import read_files
from tools.pico.serve import Served, ServeError
from test_pico_game import ANIMATION_PERIOD_MS, HERE, _check_language
from twin import Mirror, Twin

HANG_GUARD_S = 600  # against a hung board only
BOOT_WAIT_S = 60  # the emulated chip's first words after the reset (test_pico_flash.py)
NOT_ONLINE = ("attila: playing on this board, not online: no online.json with Wi-Fi settings "
              "(attila flash --wifi SSID --online ROOM-SECRET)")


def _picow(tmp_path, mpy_dir, extra=None, card=False):
    """A Pico W flashed with picow.json, its card setting as `--card` gives it."""
    with open(profile("picow.json")) as f:
        data = settings.apply(json.load(f), with_card=card)
    path = str(tmp_path / "picow.json")
    with open(path, "w") as f:
        json.dump(data, f)
    return PicoBoard.flashed(str(tmp_path / "board"), LAYOUT, path, extra=extra, out_dir=mpy_dir)


def test_the_pico_w_build_boots_without_its_radio_and_plays_a_whole_game(tmp_path, mpy_dir):
    with open(os.path.join(HERE, "game.txt")) as f:
        lines = f.read().splitlines()
    board = _picow(tmp_path, mpy_dir)
    assert build.OPENING_FILE not in board.flashed_names
    with open(board.pico.flash_path, "rb") as f:
        assert flashimage.build_in(f.read()) is flashimage.PICO_W
    with board:
        assert board.boot() == "attila: 4x5 on picow, 20 squares"
        board.pico.wait_for(b"New game: reading the squares", 2000, since=0)
        said = [l for l in board.pico.serial.decode().splitlines() if l.startswith("attila:")]
        assert said == ["attila: 4x5 on picow, 20 squares", NOT_ONLINE]
        rig = Mirror(board)
        twin = Twin(board, rig.inputs, folder=str(tmp_path / "twin"))
        assert twin.opening is None  # as on the board: not flashed
        todo = actions.parse_lines(rig.layout, lines, "game.txt")
        for (number, text, steps), (_, expected) in zip(todo, led_language.EXPECTED):
            before = len(board.pico.frames)
            rig.do(steps)
            sim = script.record(rig, number, text)
            board.pico.to_next_scan()
            twin.catch_up(board.pico.scans[:-1])
            assert [f.data for f in board.pico.frames] == twin.writes, "line %d %s" % (number,
                                                                                      text)
            _check_language(board, number, text, expected, before)
            c = twin.controller
            assert (c.status(), rig.mode_name()) == (sim["status"], sim["mode"]), text
            shown, want = board.strip(), bytes.fromhex(sim["strip"])
            if shown != want:  # a blinking frame: the simulator's phase (test_pico_game)
                t = rig.written_at + ANIMATION_PERIOD_MS * (1 + c.now // ANIMATION_PERIOD_MS)
                assert twin.rendered_at(t) == want, "line %d %s" % (number, text)
        assert sim["mode"] == "clear"
        rig.do([("wait", 800)])  # the squares settle: the finished game is archived
        board.pico.run_to_idle()
        assert board.pico.resets == [] and board.pico.events == []
        assert not board.pico.led_errors()
    with open(board.pico.flash_path, "rb") as f:
        files = read_files(f.read())
    archived = [name for name in files if name.startswith("games/")]
    assert len(archived) == 1, archived
    game = restore(unpack(files[archived[0]]))
    assert game.phase == OVER and log(game).endswith(" c3-e4,c3 d3-b4,d3"), log(game)


def test_with_the_card_socket_of_the_shipped_profile_empty_it_says_both(tmp_path, mpy_dir):
    board = _picow(tmp_path, mpy_dir, card=None)  # picow.json as shipped
    with board:
        assert board.boot() == "attila: 4x5 on picow, 20 squares"
        board.pico.wait_for(NOT_ONLINE.encode(), 30000, since=0)
        said = [l for l in board.pico.serial.decode().splitlines() if l.startswith("attila:")]
        assert said == ["attila: 4x5 on picow, 20 squares",
                        "attila: card not used (no SD card): the board searches", NOT_ONLINE]
        board.pico.wait_for(b"Romans: place a knight", 5000)


RADIO = """
import network, sys, time
print(sys.implementation._build)
w = network.WLAN(network.STA_IF)
t = time.ticks_ms()
w.active(True)
print('up in', time.ticks_diff(time.ticks_ms(), t), 'ms')
try:
    w.connect('home', 'password')
    print('connected?')
except OSError as e:
    print('connect:', e.errno)
print('status', w.status(), w.isconnected())
"""


def test_the_absent_radio_is_an_error_the_firmware_returns_not_a_hang(tmp_path, mpy_dir):
    board = _picow(tmp_path, mpy_dir, extra={"maintenance": b""})
    with board:
        board.pico.wait_for(b">>> ", 20000, since=0)
        start = board.pico.us
        out = board.pico.exec(RADIO, max_ms=5000)
        took_ms = (board.pico.us - start) / 1000
        assert board.pico.events == [] and board.pico.resets == []
    # The driver tries the chip's test register ten times over its SPI and gives up.
    assert "[CYW43] Failed to start CYW43" in out
    lines = out.strip().splitlines()
    assert lines[0] == "RPI_PICO_W"  # the W's own build, not the Pico's
    assert lines[-2:] == ["connect: 1", "status 0 False"], out  # EPERM: no link to join
    assert took_ms < 1000, took_ms


def test_make_flash_puts_the_settings_into_the_pico_ws_profile_and_leaves_out_the_table(
        tmp_path):
    """`make flash PROFILE=picow.json COMPUTER=H LEVEL=normal CARD=0` on the emulated Pico W."""
    prof = profile("picow.json")
    served = Served(str(tmp_path / "board"), LAYOUT, prof).start()
    try:
        make = shutil.which("make")
        if make and subprocess.run([make, "-q", "install"], cwd=ROOT).returncode == 0:
            cmd = [make, "-s", "flash", "PORT=" + served.port, "PROFILE=" + prof, "COMPUTER=H",
                   "LEVEL=normal", "CARD=0", "ARGS=--wait %d" % BOOT_WAIT_S]
        else:
            cmd = [os.path.join(os.path.dirname(sys.executable), "attila"), "flash", "--port",
                   served.port, "--profile", prof, "--computer", "H", "--level", "normal",
                   "--card", "0", "--wait", str(BOOT_WAIT_S)]
        env = {k: v for k, v in os.environ.items()
               if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=ROOT,
                              env=env)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 0, out
        assert ("attila flash: profile boards/profiles/picow.json as build/flash/profile.json: "
                "the board plays the Huns, level normal; no microSD card") in out
        assert "micropython 1.27.0 (Raspberry Pi Pico W with RP2040)" in out
        opening = os.path.join(ROOT, "boards", "solved", "4x5.opening")
        assert ("attila flash: layout.opening (%.1f kB) left out: the board's file system "
                "(848 kB) cannot hold it beside the firmware and room for the saves; the game's "
                "first turn of play is searched" % (os.path.getsize(opening) / 1000.0)) in out
        assert "first turn of play is exact" not in out
        assert out.rstrip().endswith("the board says: attila: 4x5 on picow, 20 squares"), out
        served.pico.wait_for(NOT_ONLINE.encode(), 5000)
        served.pico._cmd(op="read")
    finally:
        served.close()
    with open(served.pico.flash_path, "rb") as f:
        on_chip = read_files(f.read())
    with open(prof) as f:
        want = settings.apply(json.load(f), "H", "normal", False)
    assert json.loads(on_chip["profile.json"]) == want
    assert want["game"] == {"computer": "H", "level": "normal"} and "sdcard" not in want
    assert build.OPENING_FILE not in on_chip and build.BOOK_FILE in on_chip


def test_serve_refuses_a_flash_made_for_the_other_build(tmp_path):
    """The two builds keep their file systems in different places: a Pico's flash
    served as a Pico W (or the reverse) is refused, with what to do."""
    folder = tmp_path / "pico"
    folder.mkdir()
    flash = str(folder / "flash.bin")
    with open(flash, "wb") as f:
        f.write(flashimage.flash_image({}))  # the Pico's build
    with pytest.raises(ServeError) as e:
        Served(str(folder), LAYOUT, profile("picow.json"))
    assert str(e.value) == (
        "%s holds MicroPython's RPI_PICO build, and %s is for a board that runs RPI_PICO_W: "
        "give serve.py another --state (or remove that flash.bin)" % (flash, profile("picow.json")))
    Served(str(folder), LAYOUT, profile("pico.json"))  # its own build's profile is served
