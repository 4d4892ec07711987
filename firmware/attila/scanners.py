"""Sensor back-ends: read every reed switch into one raw bitmask (chain order).

The three wirings of DESIGN.md, written once for every port. A pin is any
object with MicroPython's `value()` (read) and `value(v)` (drive); the
CircuitPython binding wraps digitalio in that shape. Nothing here names a
pin number or imports hardware: the port builds the pins and hands them in.

Bit k of a scan is the k-th sensor of the chain (module 1's squares first,
see attila.wiring); a set bit means "a magnet is there". scan() allocates
nothing while the mask fits a small int (30 sensors on a 32-bit board).
"""


def _nosleep(us):
    pass


class GpioScanner:
    """One input pin per switch: pins[k] is chain sensor k.

    Reed switch from the pin to GND with the pull-up on (active_low), or to
    3V3 with a pull-down.
    """

    def __init__(self, pins, active_low=True):
        self._pins = tuple(pins)
        self.bits = len(self._pins)
        self._invert = (1 << self.bits) - 1 if active_low else 0

    def scan(self):
        raw = 0
        bit = 1
        for p in self._pins:
            if p.value():
                raw |= bit
            bit <<= 1
        return raw ^ self._invert


class MatrixScanner:
    """Rows x columns with a diode per switch: chain sensor k = row * len(cols) + col.

    Rows are outputs held high; each scan drives one row low at a time and
    reads the columns (inputs with pull-ups): a closed switch pulls its column
    low through its diode (cathode towards the row). The diodes keep several
    closed switches from reading as false closures. `count` limits the bits
    to the sensors that exist.
    """

    def __init__(self, rows, cols, count=None, settle_us=100, sleep_us=_nosleep):
        self._rows = tuple(rows)
        self._cols = tuple(cols)
        self.bits = len(self._rows) * len(self._cols) if count is None else count
        self._mask = (1 << self.bits) - 1
        self._settle = settle_us
        self._sleep = sleep_us
        for r in self._rows:
            r.value(1)

    def scan(self):
        raw = 0
        bit = 1
        for r in self._rows:
            r.value(0)
            self._sleep(self._settle)
            for c in self._cols:
                if not c.value():
                    raw |= bit
                bit <<= 1
            r.value(1)
        return raw & self._mask


class ShiftScanner:
    """A chain of 74HC165, one register per module (module 1 nearest the board).

    `registers` gives the inputs used in each register in chain order
    (attila.wiring.Wiring.registers): a 2x3 module uses D0..D5 of its
    register, a 2x2 module D0..D3; unused inputs are skipped. A low pulse on
    `load` (SH/LD) latches every input; then each register shifts out D7
    first on `data` (QH of the first register), one bit per rising `clock`.
    With `spi` (a machine.SPI-like object with readinto) the bytes come in by
    hardware SPI instead of bit-banging; `clock` and `data` are then unused.
    Reed switches to GND with pull-ups (active_low) read 0 when closed.
    """

    def __init__(self, load, clock, data, registers, active_low=True, spi=None):
        self._load = load
        self._clock = clock
        self._data = data
        self._regs = tuple(registers)
        self._spi = spi
        self._buf = bytearray(len(self._regs))
        self.bits = sum(self._regs)
        self._invert = (1 << self.bits) - 1 if active_low else 0
        load.value(1)
        if clock is not None:
            clock.value(0)

    def _shift(self):
        buf = self._buf
        clock = self._clock
        data = self._data
        for k in range(len(buf)):
            v = 0
            for _ in range(8):
                v = v << 1 | data.value()
                clock.value(1)
                clock.value(0)
            buf[k] = v

    def scan(self):
        self._load.value(0)
        self._load.value(1)
        if self._spi is not None:
            self._spi.readinto(self._buf)
        else:
            self._shift()
        buf = self._buf
        raw = 0
        base = 0
        k = 0
        for n in self._regs:
            raw |= (buf[k] & ((1 << n) - 1)) << base
            base += n
            k += 1
        return raw ^ self._invert


class ButtonReader:
    """Push buttons: bit b of read() is set while button b is held (None: absent)."""

    def __init__(self, pins, active_low=True):
        self._pins = tuple(pins)
        self._invert = 0 if not active_low else (1 << len(self._pins)) - 1
        # Absent buttons read as "not held".
        for b, p in enumerate(self._pins):
            if p is None:
                self._invert &= ~(1 << b)
        self._present = tuple(p for p in self._pins if p is not None)
        self._bits = tuple(1 << b for b, p in enumerate(self._pins) if p is not None)

    def read(self):
        v = 0
        bits = self._bits
        k = 0
        for p in self._present:
            if p.value():
                v |= bits[k]
            k += 1
        return v ^ self._invert
