"""A 74HC165 chain checked on every scan: which module does not answer.

Every module's register has inputs its squares leave unused (G and H on a
2x3 module, E to H on a 2x2) tied to 3.3 V: they read 1 whatever the
switches. Each register's SER has a 10 kOhm pull-down, so with the cable
into module N out, module N-1 shifts in zeros: from module N on every input
reads 0, and on an active-low chain every square past the break would read
"occupied". Its tied inputs reading 0 name module N.

One byte more than the chain is read (one bit where Python clocks the
chain itself, standing for the byte): past the last register its SER's
pull-down gives 0. With the cable into module 1 out, QH follows the pin's
pull (up on an active-low chain) and every byte reads 0xFF, the tied inputs
included: that extra byte, 0xFF too, names module 1.

A scan with a module missing keeps the last good reading of the squares
from that module on (nothing past the break is read as a piece), and
carries the module's number above the chain bits, where
attila.sensing.wiring.Wiring.squares() does not look: the Board tells the controller.
Used by the MicroPython ShiftScanner (attila.sensing.scanners) and CircuitPython's
keypad reader (ports/circuitpython/hardware.py) alike.
"""


class Chain:
    """The modules of one 74HC165 chain, checked from its bytes.

    registers: the inputs used in each register, in chain order
    (attila.sensing.wiring.Wiring.registers); modules: the module number of each
    register (Wiring.register_modules).
    """

    def __init__(self, registers, modules):
        tied = []
        keep = []
        base = 0
        for n in registers:
            tied.append((0xFF << n) & 0xFF)  # the inputs after the used ones
            keep.append((1 << base) - 1)  # the chain bits of the registers before
            base += n
        self.bits = base
        self._tied = bytes(tied)
        self._keep = tuple(keep)
        self._modules = bytes(modules)
        self.good = 0  # chain bits of the last scan where every module answered

    def broken(self, buf):
        """The first register in `buf` (the chain's bytes, D7 first, then the
        byte past it) that does not answer, or -1 when every one does."""
        tied = self._tied
        n = len(tied)
        for k in range(n):
            t = tied[k]
            if buf[k] & t != t:
                return k
        if buf[n] == 0xFF:
            # Past the last register reads its SER's pull-down, unless no
            # register drives QH at all (every byte as the pin's pull). (A
            # chain with more modules than the layout lists reads so too while
            # they are all empty: the layout must list every module cabled.)
            for k in range(n):
                if buf[k] != 0xFF:
                    return -1
            return 0
        return -1

    def held(self, raw, broken):
        """The chain bits to believe: `raw` (this scan's) up to register
        `broken`, the last good scan's from there on, and that register's module
        number above the chain bits (broken -1: raw as it is)."""
        if broken < 0:
            self.good = raw
            return raw
        keep = self._keep[broken]
        return (raw & keep) | (self.good & ~keep) | self._modules[broken] << self.bits

    def module(self, raw):
        """The module a scan from held() names as not answering (0: none)."""
        return raw >> self.bits
