"""Simulated hardware behind the fake pins: what a magnet on a square does.

Each device is attached to pin numbers in `machine.devices` before the
firmware makes its pins, and answers reads as the real circuit would: a
read is told the pin's pull ("up", "down", None), as an open switch leaves
the input to it. Tests close and open switches by their place in the
circuit (pin, register input, matrix cell), never through the firmware's
own mapping.
"""

import machine


class Switches:
    """Switches from GPIO pins to GND: closed reads 0, open reads by the pin's pull
    (no pull: low, the RP2040's pads out of reset)."""

    def __init__(self, pin_ids):
        self.pin_ids = list(pin_ids)
        self.closed = {}
        for p in self.pin_ids:
            self.closed[p] = 0
            machine.devices[p] = self

    def set(self, pin_id, closed):
        self.closed[pin_id] = 1 if closed else 0

    def read(self, pin_id, pull=None):
        return 0 if self.closed[pin_id] else 1 if pull == "up" else 0

    def drive(self, pin_id, v):
        raise AssertionError("firmware drove input pin %r" % pin_id)


class HC165Chain:
    """74HC165 registers in a chain; register 0 is nearest the board.

    Inputs have pull-ups: a closed switch reads 0. `close(reg, d)` closes the
    switch on input D<d> of register `reg`.
    """

    def __init__(self, load, clock, data, registers):
        # SH/LD low loads every register from its inputs (asynchronously);
        # high freezes them, and each rising CLK shifts one bit towards QH.
        self.load = load
        self.clock = clock
        self.data = data
        self.inputs = bytearray(b"\xff" * registers)
        self.latched = bytearray(registers)
        self.pos = 8 * registers  # nothing latched yet: the serial input (low)
        self.load_level = 1
        self.clock_level = 0
        self.latches = 0
        for p in (load, clock, data):
            machine.devices[p] = self

    def close(self, reg, d, closed=True):
        if closed:
            self.inputs[reg] &= ~(1 << d) & 0xFF
        else:
            self.inputs[reg] |= 1 << d

    def clear(self):
        for k in range(len(self.inputs)):
            self.inputs[k] = 0xFF

    def drive(self, pin_id, v):
        if pin_id == self.load:
            if not v:  # SH/LD low: the registers follow their inputs
                self.pos = 0
            elif not self.load_level:  # back high: frozen, ready to shift
                self.latched[:] = self.inputs
                self.latches += 1
            self.load_level = v
        elif pin_id == self.clock:
            if v and not self.clock_level and self.load_level:  # rising edge shifts
                self.pos += 1
            self.clock_level = v
        else:
            raise AssertionError("firmware drove QH (pin %r)" % pin_id)

    def read(self, pin_id, pull=None):
        if pin_id != self.data:
            raise AssertionError("firmware read output pin %r" % pin_id)
        if not self.load_level:
            return self.inputs[0] >> 7  # loading: QH shows D7 of the first register
        if self.pos >= 8 * len(self.latched):
            return 0  # serial input of the last register is tied low
        return self.latched[self.pos >> 3] >> (7 - (self.pos & 7)) & 1

    def spi_read(self, buf):
        # Hardware SPI, MSB first: each byte is one register, D7 first.
        n = len(self.latched)
        for k in range(len(buf)):
            buf[k] = self.latched[k] if k < n else 0


class Matrix:
    """Rows driven low one at a time, columns pulled up, a diode per switch."""

    def __init__(self, rows, cols):
        self.rows = list(rows)
        self.cols = list(cols)
        self.closed = bytearray(len(self.rows))  # bit c of row r: switch (r, c)
        self.row_level = bytearray(b"\x01" * len(self.rows))
        self.scans = 0
        for p in self.rows + self.cols:
            machine.devices[p] = self

    def close(self, r, c, closed=True):
        if closed:
            self.closed[r] |= 1 << c
        else:
            self.closed[r] &= ~(1 << c) & 0xFF

    def drive(self, pin_id, v):
        for r in range(len(self.rows)):
            if self.rows[r] == pin_id:
                self.row_level[r] = v
                if r == 0 and not v:
                    self.scans += 1
                return
        raise AssertionError("firmware drove column pin %r" % pin_id)

    def read(self, pin_id, pull=None):
        c = 0
        for k in range(len(self.cols)):
            if self.cols[k] == pin_id:
                c = k
                break
        else:
            raise AssertionError("firmware read row pin %r" % pin_id)
        for r in range(len(self.rows)):
            # current flows only from a pulled-up column through a closed
            # switch and its diode into a row held low
            if not self.row_level[r] and self.closed[r] >> c & 1:
                return 0
        return 1 if pull == "up" else 0


class Clock:
    """A scripted millisecond clock: sleep(ms) moves it on."""

    def __init__(self, t=1000):
        self.t = t

    def now(self):
        return self.t

    def sleep(self, ms):
        self.t += ms
