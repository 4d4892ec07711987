"""A loose module cable on the emulated Pico: the board names the module and waits.

tools/pico/wires.mjs pulls the cable into chain module N out at pin level:
from module N on no register answers, and module N-1 shifts in its SER's
pull-down (0s), which an active-low chain reads as a magnet on every square
after the break. The firmware (attila.sensing.chain) finds the module by its tied
inputs, keeps the last good reading of those squares, shows the trouble
sign for as long as the module is out with its number in the status line,
and reads the table again once the cable is back. The same on every
MicroPython back-end of the chain: PIO (pico.json), hardware SPI
(pico-spi.json) and bit-banged (pico.json without "pio").
"""

import bisect
import json

import pytest

from attila.sensing.scanners import ShiftScanner
from conftest import LAYOUT, profile
from tools.pico.board import PicoBoard
from twin import Twin

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


class ChainTwin(Twin):
    """The twin (tests/pico/twin.py) reading its squares through the firmware's
    own ShiftScanner from the chain's bytes as the chip's pins had them,
    loose cable included: `unplugs` lists (ns, module out or 0)."""

    def __init__(self, pico_board, inputs, folder, unplugs):
        Twin.__init__(self, pico_board, inputs, folder)
        b = pico_board
        twin = self

        class Reader:
            def readinto(self, buf):
                k = bisect.bisect_right([t for t, _m in unplugs], twin._now_ns) - 1
                out = unplugs[k][1] if k >= 0 else 0
                regs = b.register_bytes(twin._at(twin._now_ns)[1])
                cabled = b.wiring.register_modules.index(out) if out else len(regs)
                for i in range(len(buf)):
                    buf[i] = regs[i] if i < cabled else 0 if cabled else 0xFF

        scanner = ShiftScanner(None, None, None, b.wiring.registers, b.prof.active_low,
                               reader=Reader(), modules=b.wiring.register_modules)
        self.board.inputs.use(scanner)


def test_unplug_and_replug_mid_game_on_the_pio_chain(flashed, tmp_path):
    board = flashed("pico.json")
    inputs, unplugs = [], []

    def hands(squares=None, unplug=None, ms=300):
        """Change the pieces or the cable between two loop steps, then run `ms`."""
        board.pico.run_to_idle(5000)
        if squares is not None:
            board.set_squares(sum(1 << board.layout.index(n) for n in squares.split()))
            inputs.append((board.pico.ns, board.squares, 0))
        if unplug is not None:
            board.unplug(unplug)
            unplugs.append((board.pico.ns, unplug))
        board.run_ms(ms)

    with board:
        assert board.boot() == "attila: 4x5 on pico, 20 squares"
        twin = ChainTwin(board, inputs, str(tmp_path / "twin"), unplugs)
        board.run_ms(300)
        hands("a1")  # module 1: the Romans' first knight
        assert lines(board, 0)[-1] == "Huns: place a knight on a lit square (knight 1 of 3)"
        since = board.pico.mark()
        frames = len(board.pico.frames)
        hands(unplug=3, ms=4500)  # modules 3 and 4 (c1..e4: 12 magnets) out, > 3 s of sign
        assert lines(board, since) == [WORDS % 3]
        late = [f for f in board.pico.frames[frames:] if f.t0 > board.pico.us - 1.2e6]
        assert all_red(board, late), "the trouble sign still flashes after 4 s"
        since = board.pico.mark()
        hands("a1 b1", ms=1000)  # the Huns' knight on module 1 while 3 is out: the game waits
        assert lines(board, since) == []
        hands(unplug=0)  # the cable back in
        assert lines(board, since) == [ROMANS_2]  # b1 read now, no phantom square
        hands("a1 b1 c1")  # module 4, after the break: play goes on
        assert lines(board, since)[-1] == HUNS_2
        assert board.pico.events == [] and not board.pico.led_errors()
        # The same firmware on the host, fed the chain's bytes: the same frames.
        board.pico.to_next_scan()
        twin.catch_up(board.pico.scans[:-1])
        assert [f.data for f in board.pico.frames] == twin.writes
        assert twin.controller.status() == HUNS_2


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
