"""A microSD card's SPI side for sdspi.py's tests on CPython: SDSC or SDHC, v1 or v2, slow.

    clock = Clock(); card = FakeCard(clock, kind="sdhc", start_ms=3000)
    sdspi = load(clock)                      # firmware/ports/micropython/sdspi.py on the fake clock
    dev = sdspi.SDSpi(card.spi, card.cs)

Byte by byte as tools/pico/sdcard.mjs (the emulated chip's card) and a real
card: `ncr` 0xFF bytes before each R1, a data token `nac_ms` after CMD17,
ACMD41 "busy" for `start_ms` from the first one; a block once started is
sent whole, whatever the host sends meanwhile (a reset mid-block leaves it
so); an SDHC card asked without HCS (a v1 host) never starts. Each byte on
the bus takes 8 clocks of the SPI's baud rate on the fake clock.
"""

import importlib.util
import os
import sys
import types
from collections import deque

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SDSPI = os.path.join(ROOT, "firmware", "ports", "micropython", "sdspi.py")


class Clock:
    """time.ticks_ms / ticks_diff / sleep_ms on a clock the bus moves on."""

    def __init__(self):
        self.us = 0.0

    def ticks_ms(self):
        return int(self.us // 1000)

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        self.us += ms * 1000


def load(clock):
    """sdspi.py as a module of its own, its `time` the fake clock.

    Its `from micropython import const` is answered by a stand-in that is
    in sys.modules only while sdspi.py runs: left there, it would tell a
    later import (attila.opponent.search trying the viper kernel) that
    this is MicroPython."""
    spec = importlib.util.spec_from_file_location("sdspi_under_test", SDSPI)
    mod = importlib.util.module_from_spec(spec)
    real = sys.modules.get("micropython")
    if real is None:
        sys.modules["micropython"] = types.SimpleNamespace(const=lambda v: v)
    try:
        spec.loader.exec_module(mod)
    finally:
        if real is None:
            del sys.modules["micropython"]
    mod.time = clock
    return mod


def pattern(n):
    """Block n's bytes (few 0xFF, most with bit 7 clear: they read as an R1)."""
    return bytes((n * 13 + i) % 100 for i in range(512))


class _Cs:
    OUT = 1

    def __init__(self, card):
        self.card = card
        self.level = 1

    def init(self, mode=-1, value=None):
        if value is not None:
            self(value)

    def __call__(self, v=None):
        if v is None:
            return self.level
        self.level = 1 if v else 0
        if self.level:
            self.card.got.clear()  # a command cut short is dropped


class _Spi:
    def __init__(self, card):
        self.card = card
        self.baudrate = 400000

    def init(self, baudrate=400000, polarity=0, phase=0):
        assert polarity == 0 and phase == 0
        self.baudrate = baudrate

    def _byte(self, mosi):
        self.card.clock.us += 8e6 / self.baudrate
        return self.card.transfer(mosi)

    def write(self, buf):
        for b in buf:
            self._byte(b)

    def readinto(self, buf, fill=0):
        for i in range(len(buf)):
            buf[i] = self._byte(fill)


class FakeCard:
    def __init__(self, clock, kind="sdhc", blocks=64, ncr=1, nac_ms=0, start_ms=0, cmd8=None,
                 bad=None):
        assert kind in ("sdhc", "sdsc", "v1")
        self.clock = clock
        self.kind = kind
        self.blocks = blocks
        self.ncr = ncr
        self.nac_ms = nac_ms
        self.start_ms = start_ms
        self.cmd8 = cmd8  # R1 to CMD8 instead of the right one (a glitch, an odd card)
        self.bad = dict(bad or {})  # block: reads that fail before it reads right
        self.cs = _Cs(self)
        self.spi = _Spi(self)
        self.got = bytearray()
        self.out = deque()
        self.data = deque()  # a block being sent: commands are not heard meanwhile
        self.token_at = 0.0
        self.idle = True
        self.app = False
        self.first41 = None
        self.commands = []  # (index, argument) heard
        self.reads = []  # blocks sent

    def transfer(self, mosi):
        if self.cs.level:
            return 0xFF
        if self.data:
            if self.out:
                return self.out.popleft()
            if self.clock.us < self.token_at:
                return 0xFF
            return self.data.popleft()
        if self.got or (mosi & 0xC0) == 0x40:
            self.got.append(mosi)
            if len(self.got) == 6:
                self._command(bytes(self.got))
                self.got.clear()
            return 0xFF
        return self.out.popleft() if self.out else 0xFF

    def _r1(self, r):
        self.out.clear()
        self.out.extend([0xFF] * self.ncr)
        self.out.append(r)

    def _command(self, c):
        index = c[0] & 0x3F
        arg = int.from_bytes(c[1:5], "big")
        self.commands.append((index, arg))
        app, self.app = self.app, False
        idle = 1 if self.idle else 0
        if index == 0:
            self.idle = True
            self.first41 = None
            self._r1(1)
        elif index == 8:
            if self.cmd8 is not None:
                self._r1(self.cmd8)
            elif self.kind == "v1":
                self._r1(idle | 4)
            else:
                self._r1(idle)
                self.out.extend([0, 0, arg >> 8 & 0x0F, arg & 0xFF])
        elif index == 55:
            self.app = True
            self._r1(idle)
        elif app and index == 41:
            if self.first41 is None:
                self.first41 = self.clock.us
            hcs = arg & 0x40000000
            if self.kind == "sdhc" and not hcs:
                self._r1(1)  # a high-capacity card never starts for a v1 host
                return
            if self.clock.us - self.first41 >= self.start_ms * 1000:
                self.idle = False
            self._r1(1 if self.idle else 0)
        elif index == 58:
            self._r1(idle)
            ccs = 0x40 if self.kind == "sdhc" and not self.idle else 0
            self.out.extend([0x80 | ccs, 0xFF, 0x80, 0])
        elif self.idle:
            self._r1(idle | 4)
        elif index == 16:
            self._r1(0 if arg == 512 else 0x40)
        elif index == 17:
            if self.kind != "sdhc":
                if arg % 512:
                    self._r1(0x20)  # address error: not on a block
                    return
                arg //= 512
            if arg >= self.blocks:
                self._r1(0x40)
                return
            self._r1(0)
            self.token_at = self.clock.us + self.nac_ms * 1000
            if self.bad.get(arg, 0) > 0:
                self.bad[arg] -= 1
                self.data.append(0x08)  # error token: ECC failed
                return
            self.reads.append(arg)
            self.data.extend(b"\xfe" + pattern(arg) + b"\x00\x00")
        else:
            self._r1(idle | 4)
