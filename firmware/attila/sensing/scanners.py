"""Sensor back-ends: read every reed switch into one raw bitmask (chain order).

Why it is built this way: docs/pages/inside/design.md (attila/sensing/scanners.py).
"""

from attila.sensing.chain import Chain


def _nosleep(us):
    pass


class GpioScanner:
    """One input pin per switch: pins[k] is chain sensor k.

    Reed switch from the pin to GND with the pull-up on (active_low), or to
    3V3 with a pull-down.
    """

    def __init__(self, pins, active_low=True, levels=None):
        pins = tuple(pins)
        self._reads = tuple(p.value for p in pins)  # bound once: a call each, no look-up
        self._levels = levels
        self.bits = len(pins)
        self._invert = (1 << self.bits) - 1 if active_low else 0

    def scan(self):
        if self._levels is not None:
            return self._levels() ^ self._invert
        raw = 0
        bit = 1
        for read in self._reads:
            if read():
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

    `settle_us` is waited before each row but the first of a scan: a column
    a closed switch of the row before pulled low climbs back through its
    pull-up meanwhile (docs/pages/build/wiring.md). The first row's columns
    have had the whole loop to do so, and a column falls through a closed
    switch at once. With `levels` the rows are read last to first.
    """

    def __init__(self, rows, cols, count=None, settle_us=100, sleep_us=_nosleep, levels=None):
        self._rows = tuple(rows)
        self._cols = tuple(cols)
        self.bits = len(self._rows) * len(self._cols) if count is None else count
        self._mask = (1 << self.bits) - 1
        self._settle = settle_us
        self._sleep = sleep_us
        # Bound once: the scan calls them, no look-up per pin.
        self._drives = tuple(r.value for r in self._rows)
        self._backwards = tuple(reversed(self._drives))
        self._reads = tuple(c.value for c in self._cols)
        self._levels = levels
        self._width = len(self._cols)
        self._high = (1 << self._width) - 1  # every column high: nothing closed
        for r in self._rows:
            r.value(1)

    def scan(self):
        if self._levels is not None:
            return self._scan_levels()
        return self._scan_pins()

    def _scan_pins(self):
        raw = 0
        bit = 1
        sleep = self._sleep
        for drive in self._drives:
            drive(0)
            if bit != 1:
                sleep(self._settle)
            for read in self._reads:
                if not read():
                    raw |= bit
                bit <<= 1
            drive(1)
        return raw & self._mask

    def _scan_levels(self):
        # The rows last to first, each row's columns shifted in below the
        # rows after it: three locals (a frame of more than 11 slots comes
        # from MicroPython's heap: see attila.board.Board.step).
        raw = -1  # no row read yet
        for drive in self._backwards:
            drive(0)
            if raw < 0:
                raw = 0
            else:
                self._sleep(self._settle)
            raw = raw << self._width | (self._levels() ^ self._high)
            drive(1)
        return raw & self._mask


class ShiftScanner:
    """A chain of 74HC165, one register per module (module 1 nearest the board).

    `registers` gives the inputs used in each register in chain order
    (attila.sensing.wiring.Wiring.registers): a 2x3 module uses D0..D5 of its
    register, a 2x2 module D0..D3; unused inputs are skipped. A low pulse on
    `load` (SH/LD) latches every input; then each register shifts out D7
    first on `data` (QH of the first register), one bit per rising `clock`.
    Faster than bit-banging, where the port has it:
      spi     a machine.SPI-like object (readinto): the bytes come in by
              hardware SPI after the load pulse; `clock` and `data` unused;
      reader  an object whose readinto(buf) loads and shifts the whole chain
              itself (the RP2040's PIO in the MicroPython port); `load`,
              `clock` and `data` unused (None).
    Reed switches to GND with pull-ups (active_low) read 0 when closed. The
    registers' bytes are unpacked into chain bits only when they changed.

    One byte more than the chain is read, and every module's tied inputs
    are checked (attila.sensing.chain): with a module not answering, scan() keeps
    the last good bits from it on and carries its number above the chain
    bits. `modules`: the module number of each register
    (Wiring.register_modules; default 1, 2, 3 ...).
    """

    def __init__(self, load, clock, data, registers, active_low=True, spi=None, reader=None,
                 modules=None):
        self._load = load
        self._regs = tuple(registers)
        self._spi = spi
        self._reader = reader
        n = len(self._regs) + 1  # the chain, then the byte past it
        self._buf = bytearray(n)  # this scan
        self._seen = bytearray(n)  # the bytes self._raw was unpacked from
        self.bits = sum(self._regs)
        self._invert = (1 << self.bits) - 1 if active_low else 0
        self.chain = Chain(self._regs, modules or range(1, n))
        self._raw = self._judge(self._seen)
        if load is not None:
            load.value(1)
            self._pulse = load.value
        if reader is None and spi is None:
            clock.value(0)
            self._tick = clock.value  # bound once: 24+ calls a scan
            self._read = data.value

    def _shift(self):
        buf = self._buf
        tick = self._tick
        read = self._read
        n = len(buf) - 1
        for k in range(n):
            v = 0
            for _ in range(8):
                v = v << 1 | read()
                tick(1)
                tick(0)
            buf[k] = v
        # Past the chain one bit says what its byte would (attila.sensing.chain): one
        # read and no clock, where a whole byte would clock 8 bits from Python
        # in every scan.
        buf[n] = 0xFF if read() else 0

    def _unpack(self, buf):
        raw = 0
        base = 0
        k = 0
        for n in self._regs:
            raw |= (buf[k] & ((1 << n) - 1)) << base
            base += n
            k += 1
        return raw ^ self._invert

    def scan(self):
        buf = self._buf
        if self._reader is not None:
            self._reader.readinto(buf)
        else:
            self._pulse(0)
            self._pulse(1)
            if self._spi is not None:
                self._spi.readinto(buf)
            else:
                self._shift()
        if buf != self._seen:
            self._seen[:] = buf
            self._raw = self._judge(buf)
        return self._raw

    def _judge(self, buf):
        chain = self.chain
        return chain.held(self._unpack(buf), chain.broken(buf))


class ButtonReader:
    """Push buttons: bit b of read() is set while button b is held (None: absent)."""

    def __init__(self, pins, active_low=True, levels=None):
        pins = tuple(pins)
        self._invert = 0 if not active_low else (1 << len(pins)) - 1
        # Absent buttons read as "not held".
        for b, p in enumerate(pins):
            if p is None:
                self._invert &= ~(1 << b)
        self._reads = tuple(p.value for p in pins if p is not None)  # bound once
        self._bits = tuple(1 << b for b, p in enumerate(pins) if p is not None)
        self._levels = levels  # over all of `pins`, an absent one reading low

    def read(self):
        if self._levels is not None:
            return self._levels() ^ self._invert
        return self._read_pins()

    def _read_pins(self):
        v = 0
        bits = self._bits
        k = 0
        for read in self._reads:
            if read():
                v |= bits[k]
            k += 1
        return v ^ self._invert
