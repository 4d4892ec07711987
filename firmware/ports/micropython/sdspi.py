"""A microSD card on an SPI bus, read a block at a time (SD Physical Layer spec, SPI mode).

    card = SDSpi(machine.SPI(0, sck=..., mosi=..., miso=...), machine.Pin(5), 10_000_000)
    card.readblocks(n, buf)     # buf: 512 bytes or a multiple; OSError when it fails

The board only reads, so this is the read half of an SD driver, with the
commands every card answers: CMD0 (to SPI mode), CMD8 (v2 card?), CMD55 +
ACMD41 (start up, high capacity asked), CMD58 (byte or block addresses),
CMD16 (512-byte blocks), CMD17 (read a block). It is ours rather than
micropython-lib's `sdcard` so that `attila flash` needs nothing from the
internet; it speaks the same protocol (tools/pico/sdcard.mjs serves both).
A read allocates nothing.
"""

import time

from micropython import const

_IDLE = const(1)
_TRIES = const(100)  # response bytes before giving up on a command
_WAIT = const(20000)  # 0xFF bytes before a block's data token: 16 ms at 10 MHz
_TOKEN = const(0xFE)


def _crc7(buf, n):
    crc = 0
    for i in range(n):
        crc ^= buf[i]
        for _ in range(8):
            crc = ((crc << 1) ^ (0x12 if crc & 0x80 else 0)) & 0xFF
    return crc


class SDSpi:
    """An SD card in SPI mode (blocks of 512 bytes): readblocks() and ioctl()."""

    def __init__(self, spi, cs, baudrate=10000000):
        self.spi = spi
        self.cs = cs
        self._cmd = bytearray(6)
        self._one = bytearray(1)
        self._ocr = bytearray(4)
        self._crc = bytearray(2)
        cs.init(cs.OUT, value=1)
        spi.init(baudrate=400000, polarity=0, phase=0)
        for _ in range(10):  # 80 clocks with CS high: the card wakes up
            spi.write(b"\xff")
        for _ in range(5):
            if self.command(0, 0) == _IDLE:
                break
        else:
            raise OSError("no SD card")
        r = self.command(8, 0x1AA, self._ocr)
        v2 = r == _IDLE
        if v2 and self._ocr[3] != 0xAA:
            raise OSError("the SD card does not answer CMD8")
        for _ in range(_TRIES):
            self.command(55, 0)
            if self.command(41, 0x40000000 if v2 else 0) == 0:
                break
            time.sleep_ms(10)
        else:
            raise OSError("the SD card does not start (ACMD41)")
        self.unit = 512  # byte addresses (SDSC) ...
        if v2 and self.command(58, 0, self._ocr) == 0 and self._ocr[0] & 0x40:
            self.unit = 1  # ... or block addresses (SDHC, SDXC)
        if self.command(16, 512) != 0:
            raise OSError("the SD card refuses 512-byte blocks")
        spi.init(baudrate=baudrate, polarity=0, phase=0)

    def command(self, cmd, arg, answer=None, keep=False):
        """Send a command; its R1 (0xFF: none); `answer` gets the bytes after R1."""
        spi = self.spi
        b = self._cmd
        b[0] = 0x40 | cmd
        b[1] = arg >> 24 & 0xFF
        b[2] = arg >> 16 & 0xFF
        b[3] = arg >> 8 & 0xFF
        b[4] = arg & 0xFF
        # Only CMD0 and CMD8 need a right CRC in SPI mode (CRC checks are off until CMD59).
        b[5] = _crc7(b, 5) | 1 if cmd == 0 or cmd == 8 else 0xFF
        self.cs(0)
        spi.write(b)
        one = self._one
        r = 0xFF
        for _ in range(_TRIES):
            spi.readinto(one, 0xFF)
            r = one[0]
            if not r & 0x80:
                break
        if answer is not None and r != 0xFF:
            spi.readinto(answer, 0xFF)
        if not keep or r != 0:
            self.cs(1)
            spi.write(b"\xff")
        return r

    def readblocks(self, n, buf):
        """Read the blocks from `n` on into buf (a multiple of 512 bytes)."""
        if len(buf) == 512:
            self._block(n, buf)  # the board's one block: nothing allocated
            return
        mv = memoryview(buf)
        at = 0
        while at < len(buf):
            self._block(n, mv[at:at + 512])
            n += 1
            at += 512

    def _block(self, n, buf):
        spi = self.spi
        if self.command(17, n * self.unit, None, True) != 0:
            raise OSError(5)  # EIO: the card refused the address
        one = self._one
        for _ in range(_WAIT):
            spi.readinto(one, 0xFF)
            if one[0] != 0xFF:
                break
        if one[0] != _TOKEN:
            self.cs(1)
            spi.write(b"\xff")
            raise OSError(5)  # EIO: an error token, or none
        spi.readinto(buf, 0xFF)
        spi.readinto(self._crc, 0xFF)
        self.cs(1)
        spi.write(b"\xff")

    def ioctl(self, op, arg):
        if op == 5:  # block size
            return 512
        return 0
