"""A microSD card on an SPI bus, read a block at a time (SD Physical Layer spec, SPI mode).

Why it is built this way: docs/pages/inside/design.md (ports/micropython/sdspi.py).
"""

import time

from micropython import const

_IDLE = const(1)
_ILLEGAL = const(4)  # R1: illegal command (a v1 card's answer to CMD8)
_TRIES = const(100)  # bytes before a command's R1 (a card takes 0-8)
_CMD0 = const(5)  # CMD0 tries, each after 255 bytes clocked out
_FLUSH = const(255)  # bytes that end a block a reset left half sent (with the CMD0s)
_START_MS = const(5000)  # ACMD41 "busy" at power-up (micropython-lib allows as long)
_TOKEN_MS = const(100)  # CMD17 to the data token: the spec's read time-out
_READS = const(3)  # tries of a block before it fails
_TOKEN = const(0xFE)


def _crc7(buf, n):
    crc = 0
    for i in range(n):
        crc ^= buf[i]
        for _ in range(8):
            crc = ((crc << 1) ^ (0x12 if crc & 0x80 else 0)) & 0xFF
    return crc


class SDSpi:
    """An SD card in SPI mode (blocks of 512 bytes): readblocks() and ioctl().

    feed: called while the card takes long to start (a watchdog's feed)."""

    def __init__(self, spi, cs, baudrate=10000000, feed=None):
        self.spi = spi
        self.cs = cs
        self._cmd = bytearray(6)
        self._one = bytearray(1)
        self._ocr = bytearray(4)
        self._crc = bytearray(2)
        self.bytes_mode = False  # SDSC: the card takes byte addresses
        self.retries = 0  # block reads tried again (a bad read that came right)
        cs.init(cs.OUT, value=1)
        spi.init(baudrate=400000, polarity=0, phase=0)
        for _ in range(10):  # 80 clocks with CS high: the card wakes up
            spi.write(b"\xff")
        for _ in range(_CMD0):
            if self.command(0, 0) == _IDLE:
                break
            self._flush()
        else:
            raise OSError("no SD card")
        r = self.command(8, 0x1AA, self._ocr)
        if r == _IDLE:
            if self._ocr[2] & 0x0F != 1 or self._ocr[3] != 0xAA:
                raise OSError("the SD card does not take 3.3 V (CMD8)")
            v2 = True
        elif r == _IDLE | _ILLEGAL:
            v2 = False  # a v1 card (SDSC): it does not know CMD8
        else:
            raise OSError("the SD card answers CMD8 with 0x%02x" % r)
        t0 = time.ticks_ms()
        while True:
            self.command(55, 0)
            r = self.command(41, 0x40000000 if v2 else 0)
            if r == 0:
                break
            if r != _IDLE or time.ticks_diff(time.ticks_ms(), t0) > _START_MS:
                raise OSError("the SD card does not start (ACMD41: 0x%02x)" % r)
            if feed is not None:
                feed()
            time.sleep_ms(10)
        if v2:
            if self.command(58, 0, self._ocr) != 0:
                raise OSError("the SD card does not tell its capacity (CMD58)")
            self.bytes_mode = not self._ocr[0] & 0x40  # CCS: block addresses
        else:
            self.bytes_mode = True
        if self.command(16, 512) != 0:
            raise OSError("the SD card refuses 512-byte blocks")
        spi.init(baudrate=baudrate, polarity=0, phase=0)

    def _flush(self):
        """Clock out 255 bytes with the card selected: a card still sending a
        block finishes it (it ignores commands until then)."""
        spi = self.spi
        one = self._one
        self.cs(0)
        for _ in range(_FLUSH):
            spi.readinto(one, 0xFF)
        self.cs(1)
        spi.write(b"\xff")

    def command(self, cmd, arg, answer=None, keep=False):
        """Send a command; its R1 (0xFF: none); `answer` gets the bytes after R1."""
        b = self._cmd
        b[1] = arg >> 24 & 0xFF
        b[2] = arg >> 16 & 0xFF
        b[3] = arg >> 8 & 0xFF
        b[4] = arg & 0xFF
        return self._send(cmd, answer, keep)

    def _send(self, cmd, answer, keep):
        spi = self.spi
        b = self._cmd
        b[0] = 0x40 | cmd
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
        """Read block n, tried again when it fails (a card's hiccup fails no lookup)."""
        for k in range(_READS):
            if k:
                self.retries += 1
                self._flush()
            if self._read(n, buf):
                return
        raise OSError(5)  # EIO: no right answer, three times

    def _read(self, n, buf):
        b = self._cmd
        if self.bytes_mode:  # n * 512 in bytes, without a big int on the board
            b[1] = n >> 15 & 0xFF
            b[2] = n >> 7 & 0xFF
            b[3] = n << 1 & 0xFF
            b[4] = 0
        else:
            b[1] = n >> 24 & 0xFF
            b[2] = n >> 16 & 0xFF
            b[3] = n >> 8 & 0xFF
            b[4] = n & 0xFF
        if self._send(17, None, True) != 0:
            return False  # the card refused the address, or did not answer
        spi = self.spi
        one = self._one
        t0 = time.ticks_ms()
        while True:
            spi.readinto(one, 0xFF)
            if one[0] != 0xFF or time.ticks_diff(time.ticks_ms(), t0) > _TOKEN_MS:
                break
        ok = one[0] == _TOKEN  # else an error token, or none
        if ok:
            spi.readinto(buf, 0xFF)
            spi.readinto(self._crc, 0xFF)
        self.cs(1)
        spi.write(b"\xff")
        return ok

    def ioctl(self, op, arg):
        if op == 5:  # block size
            return 512
        return 0
