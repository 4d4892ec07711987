"""The emulated Pico is as strict as the silicon where the firmware could trip.

- rp2040js logs an unaligned 32-bit access and carries it out; a Cortex-M0+
  faults. Any error rp2040js logs fails the run (chip.EmulatorError).
- A WS2812B-V5 latches its frame only after 280 us of low; a low of 100 us
  is neither a bit nor a reset (some LEDs latch, others do not).
- `flash_times="max"` serves each flash erase and program in the W25Q16JV's
  maximum time (sector 400 ms, page 3 ms), for worst-case measurements.
"""

import re

import pytest

from tools.pico.chip import EmulatorError

MAINTENANCE = {"maintenance": b""}  # main.py stops at once: the REPL is free

UNALIGNED = """
@micropython.viper
def word(b) -> int:
    a = int(ptr8(b)) + 1
    return ptr32(a)[0]
print(word(bytearray(8)))
"""

TWO_FRAMES = """
import machine, time
pin = machine.Pin(%d, machine.Pin.OUT, value=0)
time.sleep_ms(1)
machine.bitstream(pin, 0, (400, 850, 800, 450), bytes(3))
time.sleep_us(100)
machine.bitstream(pin, 0, (400, 850, 800, 450), bytes(3))
time.sleep_ms(1)
print("sent")
"""

WRITE_FILE = """
with open("big.bin", "wb") as f:
    f.write(bytes(3000))
print("written")
"""


def repl_board(flashed, **kw):
    board = flashed("pico.json", extra=MAINTENANCE, **kw)
    board.start()
    board.pico.wait_for(b">>> ", 20000, since=0)
    return board


def test_an_unaligned_32_bit_read_fails_the_run(flashed):
    board = repl_board(flashed)
    with board:
        with pytest.raises(EmulatorError) as e:
            board.pico.exec(UNALIGNED)
    assert "not 32 bit aligned" in str(e.value)


def test_a_100_us_low_is_no_ws2812_reset(flashed):
    board = repl_board(flashed)
    with board:
        before = len(board.pico.frames)
        assert "sent" in board.pico.exec(TWO_FRAMES % board.prof.led_pin)
        board.pico.run_ms(2)
        frames = board.pico.frames[before:]
    assert len(frames) == 1, frames
    m = re.match(r"WS2812 timing on GP(\d+): a low of (\d+) ns after bit 24$", frames[0].error)
    assert m and int(m.group(1)) == board.prof.led_pin, frames[0].error
    assert 100_000 <= int(m.group(2)) < 280_000  # sleep_us(100) and the calls around it


def test_maximum_flash_times_are_the_w25q16jv_data_sheet_maxima(flashed):
    board = repl_board(flashed, flash_times="max")
    with board:
        board.pico.flash_ops = []
        t0 = board.pico.ns
        assert "written" in board.pico.exec(WRITE_FILE)
        ops = board.pico.flash_ops
    erases = [op for op in ops if op["op"] == "erase"]
    programs = [op for op in ops if op["op"] == "program"]
    assert erases and programs
    assert {op["ns"] for op in erases} == {400_000_000}  # 4 KB sectors: tSE max
    assert all(op["ns"] % 3_000_000 == 0 for op in programs)  # tPP max a page
    assert board.pico.ns - t0 >= 400_000_000 * len(erases)
