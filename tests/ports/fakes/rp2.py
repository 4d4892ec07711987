"""A fake `rp2` module: PIO state machines at the level of their FIFOs.

Runs under MicroPython (unix port) and CPython, for the firmware's 74HC165
program (firmware/ports/micropython/hardware.py: PioChain). asm_pio does
not assemble the program: the real one runs on the emulated Pico
(tests/pico). A StateMachine finds the device behind its pins
(machine.devices, e.g. physical.HC165Chain) and does to it what that
program does: put(n) pulses SH/LD (the `set` pin) and shifts n + 1 bits in
from the `in` pin, one rising edge of the side-set pin each, 8 bits to a
FIFO word; get(buf) hands the words over. put() and get() allocate nothing.

StateMachine refuses what MicroPython's rp2 port refuses: an id beyond the
chip's state machines, a frequency its divider cannot make from 125 MHz.
"""

import machine

SYS_HZ = 125000000


class PIO:
    OUT_LOW = 2
    OUT_HIGH = 3
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1


def asm_pio(**settings):
    """The decorator: keeps the settings, not the program."""

    def program(fn):
        return ("asm_pio", fn.__name__, settings)

    return program


class StateMachine:
    def __init__(self, id, program, freq=-1, set_base=None, sideset_base=None, in_base=None):
        machines = 12 if machine.chip == "rp2350" else 8
        if not 0 <= id < machines:
            raise ValueError("invalid StateMachine")
        if freq != -1 and not SYS_HZ // 65536 < freq <= SYS_HZ:
            raise ValueError("freq out of range")
        self.id = id
        self.program = program
        self.freq = freq
        self.load = set_base.id
        self.clock = sideset_base.id
        self.data = in_base.id
        self.dev = machine.devices.get(self.data)
        self.on = False
        self.fifo = bytearray(64)  # words pushed, low byte each
        self.count = 0
        self.requests = 0
        # set_init OUT_HIGH, sideset_init OUT_LOW: SH/LD high, CLK low
        self.dev.drive(self.load, 1)
        self.dev.drive(self.clock, 0)

    def active(self, on=None):
        if on is not None:
            self.on = bool(on)
        return self.on

    def put(self, value):
        assert self.on, "state machine not active"
        self.requests += 1
        dev = self.dev
        dev.drive(self.load, 0)
        dev.drive(self.load, 1)
        v = 0
        for n in range(value + 1):
            dev.drive(self.clock, 0)
            v = (v << 1 | dev.read(self.data)) & 0xFF
            dev.drive(self.clock, 1)
            if n & 7 == 7:
                self.fifo[self.count] = v
                self.count += 1
                v = 0
        dev.drive(self.clock, 0)

    def get(self, buf=None):
        assert self.count >= (1 if buf is None else len(buf)), "get() would block for ever"
        if buf is None:
            v = self.fifo[0]
            for k in range(self.count - 1):
                self.fifo[k] = self.fifo[k + 1]
            self.count -= 1
            return v
        n = len(buf)
        for k in range(n):
            buf[k] = self.fifo[k]
        for k in range(self.count - n):
            self.fifo[k] = self.fifo[n + k]
        self.count -= n
        return buf
