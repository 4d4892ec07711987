"""Real microSD cards on the emulated Pico (tools/pico/sdcard.mjs): kinds, latencies, a reset.

The firmware's own driver (sdspi.py) and readers (attila.opponent.fat, attila.opponent.card)
read a 12-square layout's card (test_pico_card's) from an SDSC card (byte
addresses), a v1 card (no CMD8) and a slow SDHC card (0-8 bytes before each
reply, up to 100 ms before a block, 1 s of "busy" at start); a card left
sending a block by a reset mid-read answers the board's next start; the
card's MISO is pulled up (the emulated card reports the pad's pull-down).
Skipped where mtools is not installed (the CI script installs it).
"""

import random
import shutil

import pytest
from test_pico_card import _board, _image, world  # noqa: F401 - world: the fixture

from tools.pico.board import PicoBoard
from tools.pico.chip import CTRL_A, CTRL_C, CTRL_D

pytestmark = pytest.mark.skipif(shutil.which("mformat") is None,
                                reason="mtools (mformat, mcopy) is not installed")

OPEN = ("import hardware, time\n"
        "from attila import profile\nfrom attila.game import layoutfile\n"
        "from attila.assembly import open_card\n"
        "p = profile.load('profile.json')\n"
        "lay, _m, _t = layoutfile.load('layout.json')\n"
        "t0 = time.ticks_ms()\n"
        "card, said = open_card(hardware, p, lay)\n"
        "print(said)\n")


def _asked(n):
    rng = random.Random(n)
    out = []
    for _ in range(n):
        squares = rng.sample(range(12), 12)
        out.append((sum(1 << i for i in squares[:3]), sum(1 << i for i in squares[3:6]),
                    sum(1 << i for i in squares[6:6 + rng.randrange(7)])))
    return out


@pytest.mark.parametrize("kind,slow", [("sdsc", False), ("v1", False), ("sdhc", True)],
                         ids=["sdsc", "v1", "sdhc-slow"])
def test_each_kind_of_card_serves_the_tables(world, tmp_path, mpy_dir, kind, slow):  # noqa: F811
    asked = _asked(12)
    image = _image(str(tmp_path / "sd.img"), world["card"])
    board = PicoBoard.flashed(str(tmp_path / "board"), world["layout"], world["profile"],
                              extra={"maintenance": b""}, out_dir=mpy_dir, sd_image=image,
                              sd_card={"kind": kind, "slow": slow})
    with board:
        out = board.pico.exec(
            OPEN + "print(time.ticks_diff(time.ticks_ms(), t0))\n"
            "print(''.join(str(card.won(*q)) for q in %r))\n" % (asked,), max_ms=120000)
        events = board.pico.events
    said, ms, got = out.strip().splitlines()
    assert said == "card: the solved game of twelve (294 blocks): the board plays it"
    assert got == "".join(str(int(world["tables"].won(*q))) for q in asked)
    assert (int(ms) >= 1000) == slow  # a slow card is busy for 1 s at start
    assert events == []


def _raw(pico, code):
    """Send `code` to the raw REPL and run it, without waiting for its end."""
    start = pico.mark()
    pico.write(CTRL_C + CTRL_C + CTRL_A)
    pico.wait_for(b"raw REPL; CTRL-B to exit\r\n>", 5000, since=start)
    pico.write(code.encode())
    pico.write(CTRL_D)


def test_a_card_left_sending_a_block_by_a_reset_answers_the_next_boot(world, tmp_path,  # noqa: F811
                                                                       mpy_dir):
    image = _image(str(tmp_path / "sd.img"), world["card"])
    with _board(world, tmp_path, mpy_dir, image, {"maintenance": b""}) as board:
        board.pico.exec(OPEN + "import os\n"
                        "os.remove('maintenance')\n"
                        "dev = hardware.sdcard(p)\n"
                        "assert dev.command(17, 3, None, True) == 0\n"
                        "part = bytearray(40)\n"
                        "dev.spi.readinto(part, 0xFF)\n")  # the token and 39 bytes: 475 to come
        mark = board.pico.mark()
        _raw(board.pico, "import machine\nmachine.reset()\n")  # the card keeps its power
        board.pico.wait_for(b"attila: card", 20000, since=mark)
        at = board.pico.wait_for(b"\n", 1000, since=board.pico.serial.find(b"attila: card", mark))
        line = board.pico.serial[board.pico.serial.find(b"attila: card", mark):at].decode()
        resets = [why for _us, why in board.pico.resets]
    assert resets == ["reset"]
    assert line.strip() == "attila: card: the solved game of twelve (294 blocks): the board plays it"
