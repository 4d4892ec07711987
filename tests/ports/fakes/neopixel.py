"""A fake `neopixel` module with the API of MicroPython's (micropython-lib driver).

NeoPixel(pin, n, bpp=3, timing=1) keeps `buf` (n * bpp bytes, wire order);
write() records what would go down the wire: `last` (no allocation) and, when
`history` is a list, a copy of every write.
"""

strips = []


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self.buf = bytearray(n * bpp)
        self.last = bytearray(n * bpp)
        self.writes = 0
        self.history = []
        strips.append(self)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        off = i * self.bpp
        for k in range(self.bpp):
            self.buf[off + self.ORDER[k]] = v[k]

    def write(self):
        self.writes += 1
        self.last[:] = self.buf
        if self.history is not None:
            self.history.append(bytes(self.buf))
