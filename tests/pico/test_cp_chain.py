"""A loose module cable on CircuitPython 10.2.1's own RP2040 build, in the emulated Pico.

CircuitPython's keypad.ShiftRegisterKeys reads the chain in the background,
the byte past it included; the tied inputs and that byte arrive as key
events like the switches, and the port (ports/circuitpython/hardware.py,
ChainKeys) checks them as attila.sensing.chain does. The cable into module 3 pulled
out mid-game and put back (tools/pico/wires.mjs): see test_pico_chain.py.
"""

import os

import pytest

from conftest import LAYOUT, PROFILES
from tools.pico import circuitpy
from tools.pico.board import PicoBoard
from test_pico_chain import HUNS_2, ROMANS_2, WORDS, all_red, lines, put

BOOT_MS = 8000


def test_unplug_and_replug_mid_game_on_keypad(tmp_path):
    why = circuitpy.available()
    if why:
        pytest.skip("no CIRCUITPY volume can be made here: %s" % why)
    board = PicoBoard.flashed(str(tmp_path / "board"), LAYOUT,
                              os.path.join(PROFILES, "circuitpython-pico.json"))
    with board:
        assert board.boot(BOOT_MS) == "attila: 4x5 on circuitpython-pico, 20 squares"
        board.run_ms(500)
        put(board, "a1")
        assert lines(board, 0)[-1] == "Huns: place a knight on a lit square (knight 1 of 3)"
        since = board.pico.mark()
        frames = len(board.pico.frames)
        board.unplug(3)
        board.run_ms(1500)
        assert lines(board, since) == [WORDS % 3]
        assert all_red(board, board.pico.frames[frames:])
        since = board.pico.mark()
        put(board, "a1 b1", 500)  # the game waits
        assert lines(board, since) == []
        board.unplug(0)
        board.run_ms(300)
        assert lines(board, since) == [ROMANS_2]
        put(board, "a1 b1 c1")
        assert lines(board, since)[-1] == HUNS_2
        assert board.pico.events == [] and not board.pico.led_errors()
