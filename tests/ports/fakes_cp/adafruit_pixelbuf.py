"""Fake CircuitPython `adafruit_pixelbuf`: the built-in PixelBuf that Adafruit's
NeoPixel library subclasses, as CircuitPython 10's C module does it
(shared-module/adafruit_pixelbuf/PixelBuf.c): colours in, bytes in the
LEDs' order out, show() handing the whole buffer to the subclass's
_transmit(). Only what the board uses: RGB(W) orders, brightness 1.0, and
slice assignment of one colour tuple a pixel or of a flat sequence of bytes.
"""


class PixelBuf:
    def __init__(self, size, *, byteorder="BGR", brightness=1.0, auto_write=False,
                 header=b"", trailer=b""):
        if brightness != 1.0 or header or trailer or "P" in byteorder:
            raise NotImplementedError("the fake keeps brightness 1.0, no header, no DotStar")
        self._n = size
        self._order = byteorder
        self._bpp = len(byteorder)
        self._buf = bytearray(size * self._bpp)
        self.auto_write = auto_write

    def __len__(self):
        return self._n

    @property
    def bpp(self):
        return self._bpp

    @property
    def byteorder(self):
        return self._order

    def _set(self, index, colour):
        if len(colour) != self._bpp:
            raise ValueError("Expected tuple of length %d, got %d" % (self._bpp, len(colour)))
        at = index * self._bpp
        for k, c in enumerate("RGBW"[:self._bpp]):
            self._buf[at + self._order.index(c)] = colour[k]

    def __setitem__(self, index, value):
        if not isinstance(index, slice):
            self._set(index, value)
        else:
            start, stop, step = index.indices(self._n)
            count = len(range(start, stop, step))
            flat = len(value) == count * self._bpp and len(value) != count
            if len(value) != count and not flat:
                raise ValueError("Unmatched number of items on RHS (expected %d, got %d)."
                                 % (count, len(value)))
            for k, at in enumerate(range(start, stop, step)):
                self._set(at, tuple(value[k * self._bpp:(k + 1) * self._bpp]) if flat
                          else value[k])
        if self.auto_write:
            self.show()

    def fill(self, colour):
        for k in range(self._n):
            self._set(k, colour if isinstance(colour, tuple) else
                      ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255))
        if self.auto_write:
            self.show()

    def show(self):
        self._transmit(self._buf)
