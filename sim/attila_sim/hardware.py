"""Virtual hardware: the reed switches, the LED strip and the push buttons.

These stand where the ports' drivers stand on a real board, so the core's
Board and Controller run on top unchanged:
  VirtualSwitches.scan() -> raw bitmask in SENSOR CHAIN order, computed from
      the pieces on the table through the wiring (the inverse of what
      wiring.squares() undoes on a real board);
  VirtualStrip: a NeoPixel-like strip: `buf` holds the bytes in LED chain
      order and colour order, write() latches them: `sent` is what the LEDs
      show, the very bytes the firmware would clock out;
  VirtualButtons.read(): the undo and menu buttons held, one bit each.
"""


class VirtualSwitches:
    """Reed switches under the squares: occupied where the table has a piece."""

    def __init__(self, table, wiring):
        self.table = table
        self.wiring = wiring
        self.scans = 0

    def occupied(self):
        """Square-order occupancy the switches see now."""
        return self.table.occupied()

    def scan(self):
        """Raw reading, in sensor chain order (what a scanner back-end returns)."""
        self.scans += 1
        return self.wiring.chain(self.occupied())


class VirtualStrip:
    """A NeoPixel-like LED strip that keeps what was last written."""

    def __init__(self, n, bpp=3):
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.sent = bytes(n * bpp)  # the bytes the LEDs show
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, colour):
        self.buf[i * self.bpp:(i + 1) * self.bpp] = bytes(colour)

    def __getitem__(self, i):
        return tuple(self.buf[i * self.bpp:(i + 1) * self.bpp])

    def fill(self, colour):
        for i in range(self.n):
            self[i] = colour

    def write(self, data=None):
        """Latch the buffer (or the given bytes) onto the LEDs."""
        if data is not None:
            self.buf[:] = bytes(data)
        self.sent = bytes(self.buf)
        self.writes += 1

    def show(self):  # CircuitPython's name for write()
        self.write()


class VirtualButtons:
    """The undo and menu push buttons: bit b of `held` while button b is down."""

    def __init__(self):
        self.held = 0
        self.reads = 0

    def read(self):
        """Bitmask of the buttons held (bit 0 undo, bit 1 menu)."""
        self.reads += 1
        return self.held
