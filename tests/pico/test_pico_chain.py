"""A loose module cable on the emulated Pico: the board names the module and waits.

tools/pico/wires.mjs pulls the cable into chain module N out at pin level:
from module N on no register answers, and module N-1 shifts in its SER's
pull-down (0s), which an active-low chain reads as a magnet on every square
after the break. The firmware (attila.chain) finds the module by its tied
inputs, keeps the last good reading of those squares, shows the trouble
sign for as long as the module is out with its number in the status line,
and reads the table again once the cable is back. The same on every
MicroPython back-end of the chain: PIO (pico.json), hardware SPI
(pico-spi.json) and bit-banged (pico.json without "pio").
"""

import json

import pytest

from conftest import LAYOUT, profile
from pico.board import PicoBoard

WORDS = "Module %d not answering: check its cable (the game waits)"
ROMANS_2 = "Romans: place a knight on a lit square (knight 2 of 3)"
HUNS_2 = "Huns: place a knight on a lit square (knight 2 of 3)"
RED = (255 * 160 // 255, 0, 0)  # palette.ERROR at the profile's brightness


def put(board, names, ms=300):
    """Magnets on exactly these squares, then `ms` of the board's loop."""
    board.set_squares(sum(1 << board.layout.index(n) for n in names.split()))
    board.run_ms(ms)


def lines(board, since):
    return [s.strip() for s in board.pico.output(since).split("\n") if s.strip()]


def all_red(board, frames):
    return [f for f in frames if set(board.leds(f.data)) == {RED}]


def test_unplug_and_replug_mid_game_on_the_pio_chain(flashed):
    board = flashed("pico.json")
    with board:
        assert board.boot() == "attila: 4x5 on pico, 20 squares"
        board.run_ms(300)
        put(board, "a1")  # module 1: the Romans' first knight
        assert lines(board, 0)[-1] == "Huns: place a knight on a lit square (knight 1 of 3)"
        since = board.pico.mark()
        frames = len(board.pico.frames)
        board.unplug(3)  # modules 3 and 4: c1..e4 would read 12 magnets
        board.run_ms(4500)  # longer than a passing trouble sign (3 s)
        assert lines(board, since) == [WORDS % 3]
        late = [f for f in board.pico.frames[frames:] if f.t0 > board.pico.us - 1.2e6]
        assert all_red(board, late), "the trouble sign still flashes after 4 s"
        since = board.pico.mark()
        put(board, "a1 b1", 1000)  # the Huns' knight on module 1 while 3 is out: the game waits
        assert lines(board, since) == []
        board.unplug(0)  # the cable back in
        board.run_ms(300)
        assert lines(board, since) == [ROMANS_2]  # b1 read now, no phantom square
        put(board, "a1 b1 c1")  # module 4, after the break: play goes on
        assert lines(board, since)[-1] == HUNS_2
        assert board.pico.events == [] and not board.pico.led_errors()


@pytest.mark.parametrize("name", ["pico-spi.json", "bit-banged"])
def test_every_chain_back_end_names_the_module(flashed, tmp_path, mpy_dir, name):
    if name == "bit-banged":
        with open(profile("pico.json")) as f:
            data = json.load(f)
        del data["sensors"]["pio"]
        path = tmp_path / "pico-bitbang.json"
        path.write_text(json.dumps(data))
        board = PicoBoard.flashed(str(tmp_path / "bb"), LAYOUT, str(path), out_dir=mpy_dir)
    else:
        board = flashed(name)
    board.unplug(2)  # at power-up already
    with board:
        board.boot()
        board.run_ms(300)
        said = lines(board, 0)
        assert said[-1] == WORDS % 2, said
        assert "take" not in " ".join(said)  # no square of modules 2-4 read as a piece
        since = board.pico.mark()
        board.unplug(0)
        board.run_ms(300)
        assert lines(board, since) == ["Romans: place a knight on a lit square (knight 1 of 3)"]
