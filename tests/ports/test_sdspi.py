"""The MicroPython port's SD driver (sdspi.py) against cards as real ones behave (sdfake.py).

SDSC and SDHC, v1 and v2 cards read the right blocks; a card that takes
seconds to start, answers late or sends a bad block once still serves; a
card left sending a block by a reset answers the next start; a card that
answers CMD8 with nonsense is refused by name, not started as a v1 card.
"""

import os
import subprocess
import sys

import pytest
from sdfake import Clock, FakeCard, load, pattern

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _card(**kw):
    clock = Clock()
    return clock, FakeCard(clock, **kw), load(clock)


@pytest.mark.parametrize("kind", ["sdhc", "sdsc", "v1"])
def test_each_kind_of_card_reads_its_blocks(kind):
    _clock, card, sdspi = _card(kind=kind)
    dev = sdspi.SDSpi(card.spi, card.cs)
    assert dev.bytes_mode == (kind != "sdhc")
    buf = bytearray(1024)
    dev.readblocks(40, buf)
    assert bytes(buf) == pattern(40) + pattern(41)
    reads = [a for i, a in card.commands if i == 17]
    assert reads == ([40, 41] if kind == "sdhc" else [40 * 512, 41 * 512])
    if kind == "v1":
        assert (41, 0) in card.commands  # no HCS asked of a v1 card


def test_a_card_busy_for_seconds_at_start_is_waited_for_with_the_watchdog_fed():
    clock, card, sdspi = _card(start_ms=3000)
    fed = []
    dev = sdspi.SDSpi(card.spi, card.cs, feed=lambda: fed.append(clock.us))
    assert 3000e3 <= clock.us < 3100e3
    gaps = [b - a for a, b in zip([0.0] + fed, fed)]
    assert len(fed) > 200 and max(gaps) < 20e3  # fed every ACMD41 (10 ms apart)
    buf = bytearray(512)
    dev.readblocks(3, buf)
    assert buf == pattern(3)


def test_a_card_that_never_starts_is_given_up_after_5_s():
    clock, card, sdspi = _card(start_ms=60000)
    with pytest.raises(OSError, match=r"the SD card does not start \(ACMD41: 0x01\)"):
        sdspi.SDSpi(card.spi, card.cs)
    assert 5000e3 < clock.us < 5100e3


def test_slow_replies_and_a_late_data_token_are_waited_for():
    _clock, card, sdspi = _card(ncr=8, nac_ms=95)
    dev = sdspi.SDSpi(card.spi, card.cs)
    buf = bytearray(512)
    dev.readblocks(7, buf)
    assert buf == pattern(7) and dev.retries == 0


def test_a_card_left_sending_a_block_by_a_reset_answers_the_next_start():
    _clock, card, sdspi = _card()
    dev = sdspi.SDSpi(card.spi, card.cs)
    assert dev.command(17, 5, None, True) == 0
    part = bytearray(100)
    card.spi.readinto(part, 0xFF)  # reset here: 400 bytes of the block still to come
    assert card.data
    again = sdspi.SDSpi(card.spi, card.cs)  # main.py after a soft reset, the card still powered
    buf = bytearray(512)
    again.readblocks(6, buf)
    assert buf == pattern(6)


@pytest.mark.parametrize("r1", [0x09, 0x7F, 0x00])
def test_a_cmd8_reply_other_than_idle_or_illegal_is_an_error(r1):
    _clock, card, sdspi = _card(cmd8=r1)
    with pytest.raises(OSError, match=r"^the SD card answers CMD8 with 0x%02x$" % r1):
        sdspi.SDSpi(card.spi, card.cs)
    assert not [c for c in card.commands if c[0] == 41]  # not started as a v1 card


def test_a_block_that_fails_once_is_read_again():
    _clock, card, sdspi = _card(bad={9: 2})
    dev = sdspi.SDSpi(card.spi, card.cs)
    buf = bytearray(512)
    dev.readblocks(9, buf)
    assert buf == pattern(9) and dev.retries == 2
    card.bad[9] = 3  # three bad reads in a row: that read fails, the card still serves
    with pytest.raises(OSError) as e:
        dev.readblocks(9, buf)
    assert e.value.args == (5,)
    dev.readblocks(10, buf)
    assert buf == pattern(10)


def test_the_driver_under_test_leaves_no_fake_micropython_behind():
    """A later first import of the search (which tries the viper kernel when
    `micropython` imports) must find CPython as it is: run before tests/sim
    or tests/docs in one process, a stand-in left in sys.modules broke it."""
    code = ("import sys; sys.path.insert(0, 'tests/ports'); import sdfake; "
            "sdfake.load(sdfake.Clock()); assert 'micropython' not in sys.modules; "
            "import attila.opponent.search as s; assert not s.NATIVE; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr[-600:]
