"""The firmware boots on MicroPython's own RP2040 build, on every Pico profile.

Each board is flashed as `make flash` builds it (a littlefs image) and read
at pin level; a short script through its reed switches must give the very
frames the same firmware gives on the host (tests/pico/twin.py), which
proves the sensors, the buttons and the LED chain are wired as the profile
says.
"""

import os

import pytest

from attila.play.modes import MODE_NAMES
from attila_sim import actions

from conftest import LAYOUT, PROFILES, profile
from tools.pico.board import PicoBoard, Unsupported
from twin import Mirror, Twin

PICO_PROFILES = ("pico.json", "pico-spi.json", "pico-matrix.json", "pico-direct.json")
# Placements, one lifted and put back: each reaches the controller only
# through the profile's sensor wiring.
SETUP = ["@a1", "@e4", "@c2", "lift c2", "put c2", "@b4"]


def play(board, lines, tmp_path):
    rig = Mirror(board)
    twin = Twin(board, rig.inputs, folder=str(tmp_path))
    for _number, _text, steps in actions.parse_lines(rig.layout, lines):
        rig.do(steps)
    board.pico.to_next_scan()  # the last step over, its LED frame latched
    twin.catch_up(board.pico.scans[:-1])
    return rig, twin


@pytest.mark.parametrize("name", PICO_PROFILES)
def test_every_pico_profile_boots_and_reads_its_switches(flashed, tmp_path, name):
    board = flashed(name)
    with board:
        assert board.boot() == "attila: 4x5 on %s, 20 squares" % board.prof.name
        rig, twin = play(board, SETUP, tmp_path)
        assert [f.data for f in board.pico.frames] == twin.writes
        assert not board.pico.led_errors()
        assert twin.controller.status() == rig.status()
        assert "knight 3 of 3" in rig.status()
        assert board.pico.events == []


def test_the_booted_board_searches_with_the_viper_kernel(flashed):
    """With every table read, the viper kernel is the one loaded: short of a
    free block for its machine code, search.py falls back to the portable
    kernel without a word, and the board plays a node a loop step."""
    board = flashed("pico.json")
    with board:
        assert board.boot() == "attila: 4x5 on pico, 20 squares"
        out = board.pico.exec("import sys\n"
                              "print(sys.modules['attila.opponent.search'].NATIVE)\n")
    assert out.strip() == "True"


def test_the_pico_2_cannot_be_emulated_and_says_so(tmp_path):
    with pytest.raises(Unsupported) as e:
        PicoBoard(str(tmp_path / "flash.bin"), LAYOUT, profile("pico2.json"))
    assert "Raspberry Pi Pico 2 (RP2350): rp2040js emulates the RP2040 only" in str(e.value)
    emulable = []
    for name in sorted(n for n in os.listdir(PROFILES) if n.endswith(".json")):
        try:
            PicoBoard(str(tmp_path / "flash.bin"), LAYOUT, profile(name))
            emulable.append(name)
        except Unsupported:
            pass
    # controller.json and picow.json (the Pico W's build, tests/pico/test_picow.py)
    # are pico.json's pins with a microSD socket.
    assert sorted(emulable) == sorted(PICO_PROFILES + ("circuitpython-pico.json", "controller.json",
                                                       "picow.json"))


def test_main_runs_under_the_watchdog_which_resets_a_stopped_loop(flashed):
    board = flashed("pico.json")
    with board:
        board.boot()
        # The loop runs (so the watchdog is on) once it prints the status line.
        board.pico.wait_for("Romans: place a knight", max_ms=2000)
        board.pico.repl()  # Ctrl-C: main.py's loop stops, nobody feeds the watchdog
        stopped = board.pico.us
        assert board.pico.resets == []
        board.pico.mark()
        board.pico.wait_for("attila: 4x5 on pico, 20 squares", max_ms=8000)
        (at, why), = board.pico.resets
        assert why == "watchdog"
        # watchdog_ms of pico.json is 5000: it bit 5 s after the last feed.
        assert 4900 <= (at - stopped) / 1000 <= 5010, at - stopped
        assert board.pico.boot == 2


def test_self_test_through_menu_held_then_a_magnet_on_every_square(flashed, tmp_path):
    board = flashed("pico.json")
    with board:
        board.boot()
        squares = board.layout.names[: board.layout.size]
        # UNDO first: the controller learns that buttons report their release,
        # which a long press needs. MENU held 5 s: the self-test; its LED
        # round (20 squares x 3 colours x 150 ms) takes 9 s.
        lines = ["undo", "hold menu 5200", "wait 9500"]
        lines += ["put %s x\nlift %s\ndrop" % (s, s) for s in squares]
        lines = "\n".join(lines).splitlines()
        rig, twin = play(board, lines, tmp_path)
        assert [f.data for f in board.pico.frames] == twin.writes
        c = twin.controller
        assert MODE_NAMES[c.mode] == "selftest"
        assert c.status() == rig.status()
        assert c.status() == "Self-test: all 20 sensors work (MENU: leave)"
        assert board.leds() == [(0, 160, 0)] * 20  # all green, at the profile's brightness
