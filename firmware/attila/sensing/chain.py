"""A 74HC165 chain checked on every scan: which module does not answer.

Why it is built this way: docs/pages/inside/design.md (attila/sensing/chain.py).
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
