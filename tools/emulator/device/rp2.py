# `rp2` on the emulated board: PIO state machines at the level of their FIFOs,
# for the firmware's 74HC165 program (firmware/ports/micropython/hardware.py).
# asm_pio keeps the settings, not the program (the real program runs on the
# emulated Pico, tools/pico). put(n) does to the wired chain what that
# program does: SH/LD low then high on its `set` pin, then n + 1 bits in from
# its `in` pin, one rising edge of its side-set pin each, 8 bits a FIFO word.
import _emu_hw


class PIO:
    OUT_LOW = 2
    OUT_HIGH = 3
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2


def asm_pio(**settings):
    def program(fn):
        return ("asm_pio", settings)

    return program


class StateMachine:
    def __init__(self, id, program=None, freq=-1, set_base=None, sideset_base=None,
                 in_base=None, **kw):
        if not 0 <= id < 8:
            raise ValueError("invalid StateMachine")
        self._load = set_base._id
        self._clock = sideset_base._id
        self._data = in_base._id
        self._fifo = []
        self._on = False
        _emu_hw.drive(self._load, 1)
        _emu_hw.drive(self._clock, 0)

    def active(self, on=None):
        if on is not None:
            self._on = bool(on)
        return self._on

    def put(self, value, shift=0):
        _emu_hw.drive(self._load, 0)
        _emu_hw.drive(self._load, 1)
        v = 0
        for n in range(value + 1):
            _emu_hw.drive(self._clock, 0)
            v = (v << 1 | _emu_hw.read(self._data)) & 0xFF
            _emu_hw.drive(self._clock, 1)
            if n & 7 == 7:
                self._fifo.append(v)
                v = 0
        _emu_hw.drive(self._clock, 0)

    def get(self, buf=None, shift=0):
        if buf is None:
            return self._fifo.pop(0)
        for k in range(len(buf)):
            buf[k] = self._fifo.pop(0)
        return buf

    def rx_fifo(self):
        return len(self._fifo)
