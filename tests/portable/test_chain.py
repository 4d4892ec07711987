"""A loose module cable: the 74HC165 chain checked (attila.sensing.chain), on the scanner and the board.

A fake chain of the 4x5 board's registers (2x2, 2x2, 2x3, 2x3: inputs used
4, 4, 6, 6; the others tied to 3.3 V) behind bit-banged pins, SPI or a
reader. `unplug(n)`: the cable into module n is out, so module n-1 shifts
in its SER's pull-down (0s) from there on.
"""

import check
from attila.board import Board
from attila.sensing.chain import Chain
from attila.play.controller import Controller
from attila.leds.strip import Leds
from attila.game.modules import compose, place_module
from attila.leds.palette import TROUBLE_ON
from attila.play.modes import CUE_ERROR, PLAY
from attila.sensing.scanners import ShiftScanner
from attila.sensing.debounce import Debouncer
from attila.sensing.wiring import Wiring

REGS = (4, 4, 6, 6)
WORDS = "Module %d not answering: check its cable (the game waits)"


def layout_4x5():
    return compose([place_module(1, "2x2", 0, 0, 0), place_module(2, "2x2", 0, 2, 0),
                    place_module(3, "2x3", 2, 2, 90), place_module(4, "2x3", 2, 0, 90)], "4x5")


class Pin:
    def __init__(self, read=None, write=None):
        self._read = read
        self._write = write

    def value(self, v=None):
        if v is None:
            return self._read()
        if self._write is not None:
            self._write(v)


class FakeChain:
    """74HC165s with pull-ups on the used inputs, the rest tied high, each SER
    pulled down; `answering` registers are cabled (-1: QH floats to the pull-up)."""

    def __init__(self, regs=REGS):
        self.regs = regs
        self.closed = 0  # chain bits of closed switches
        self.answering = len(regs)
        self._bits = []
        self.load = Pin(write=self._load)
        self.clock = Pin(write=self._clock)
        self.data = Pin(read=self._data)

    def unplug(self, module):
        """The cable into `module` out (module 1: the one at the board)."""
        self.answering = module - 1

    def byte(self, k):
        if self.answering == 0:
            return 0xFF  # no register drives QH: the pin's pull-up
        if k >= self.answering:
            return 0  # past the break (or the chain): the SER's pull-down
        base = sum(self.regs[:k])
        v = 0xFF
        for d in range(self.regs[k]):
            if self.closed >> (base + d) & 1:
                v &= ~(1 << d)
        return v & 0xFF

    def readinto(self, buf):
        for k in range(len(buf)):
            buf[k] = self.byte(k)

    def _load(self, v):
        if v == 0:
            n = len(self.regs) + 2
            self._bits = [self.byte(k) >> (7 - i) & 1 for k in range(n) for i in range(8)]

    def _clock(self, v):
        if v == 1 and self._bits:
            self._bits.pop(0)

    def _data(self):
        return self._bits[0] if self._bits else (1 if self.answering == 0 else 0)


def test_tied_inputs_and_the_byte_past_the_chain_name_the_module():
    c = Chain(REGS, (1, 2, 3, 4))
    ok = bytes([0xF0 | 0x5, 0xFF, 0xC0 | 0x3F, 0xFF, 0])
    assert c.broken(ok) == -1
    assert c.broken(bytes([0xF5, 0xFF, 0, 0, 0])) == 2  # cable into module 3 out
    assert c.broken(bytes([0xF5, 0xFF, 0xFF, 0, 0])) == 3
    assert c.broken(bytes([0, 0, 0, 0, 0])) == 0  # QH pulled down, no module
    assert c.broken(bytes([0xFF] * 5)) == 0  # QH pulled up, no module: the byte past says so
    assert c.broken(bytes([0xFF] * 4 + [0xC3])) == -1  # (a longer chain with a magnet on it)


def test_held_keeps_the_last_good_bits_from_the_broken_module_on():
    c = Chain(REGS, (1, 2, 3, 4))
    assert c.held(0b1010 << 8, -1) == 0b1010 << 8  # module 3's squares 0 and 2... good
    # Module 3 out: modules 3 and 4 read all closed; modules 1 and 2 still live.
    raw = c.held(0b1 | (1 << 20) - 1 - 0xFF, 2)
    assert raw & (1 << 20) - 1 == 0b1 | 0b1010 << 8, bin(raw)
    assert c.module(raw) == 3
    assert c.module(c.held(5, -1)) == 0


def test_scanner_bit_banged_spi_and_reader_keep_no_phantom_square():
    fake = FakeChain()

    class Spi:
        def readinto(self, buf):
            fake.readinto(buf)

    scanners = (
        ShiftScanner(fake.load, fake.clock, fake.data, REGS),
        ShiftScanner(Pin(write=lambda v: None), None, None, REGS, spi=Spi()),
        ShiftScanner(None, None, None, REGS, reader=fake),
    )
    for sc in scanners:
        fake.answering = 4
        fake.closed = 1 << 0 | 1 << 9  # a1 (module 1) and a square of module 3
        assert sc.scan() == fake.closed
        fake.unplug(3)
        assert sc.scan() == fake.closed | 3 << 20  # module 3's square kept, none added
        fake.closed = 1 << 1 | 1 << 9  # a piece moved on module 1 meanwhile
        assert sc.scan() == fake.closed | 3 << 20
        fake.unplug(1)
        assert sc.scan() >> 20 == 1
        fake.answering = 4
        fake.closed = 1 << 1
        assert sc.scan() == fake.closed  # plugged back: read as it is


class Rig:
    """The core's Board and Controller on the fake chain, stepped every 10 ms."""

    def __init__(self):
        self.layout, modules = layout_4x5()
        self.wiring = w = Wiring(self.layout, modules)
        self.chain = FakeChain(w.registers)
        self.c = Controller(self.layout)
        self.said = []
        leds = Leds(w)

        class Strip:
            buf = bytearray(leds.bytes_needed())

            def write(self):
                pass

        scanner = ShiftScanner(self.chain.load, self.chain.clock, self.chain.data, w.registers,
                               modules=w.register_modules)
        self.cues = []
        rig = self

        class Sounds:
            playing = False

            def play(self, cue, now):
                rig.cues.append(cue)

        self.board = Board(self.c, scanner, Strip(), w, Debouncer(self.layout.size), None,
                           leds, sounds=Sounds(), console=self.said.append)
        self.t = 0

    def put(self, names):
        """Pieces on exactly these squares."""
        mask = 0
        for n in names.split():
            mask |= 1 << self.layout.index(n)
        self.chain.closed = self.wiring.chain(mask)

    def run(self, ms):
        for _ in range(ms // 10):
            self.t += 10
            self.board.step(self.t)


def test_board_waits_for_an_unplugged_module_then_plays_on():
    r = Rig()
    r.run(100)
    r.put("a1")  # module 1: the Romans' first knight
    r.run(100)
    assert r.c.game.describe(r.c.game.history[-1]) == "@a1"
    assert r.c.mode == PLAY
    before = r.c.mask
    r.chain.unplug(3)  # c3, c4, d3, d4, e3, e4 would read occupied
    r.run(100)
    assert r.said[-1] == WORDS % 3, r.said
    assert r.cues[-1] == CUE_ERROR
    assert r.board.inputs.fault == 3
    assert r.c.mask == before and r.board.inputs.occupied == before  # no phantom piece
    r.run(3000)  # the sign stays while the module is out
    assert r.c.painter.sign == 2
    r.t = r.c.painter.sign_t + 10000 - 10000 % 1000 + TROUBLE_ON // 2 - 10  # inside a red flash
    r.run(10)
    assert r.c.frame[0] > 0 and r.c.frame[1] == 0, list(r.c.frame[:3])
    r.put("a1 e1")  # the Huns' knight put down on module 4 while 3 is out: waits
    r.run(200)
    assert len(r.c.game.history) == 1 and r.said[-1] == WORDS % 3
    r.chain.answering = 4  # plugged back
    r.run(100)
    assert r.board.inputs.fault == 0 and r.c.missing == 0
    assert r.c.game.describe(r.c.game.history[-1]) == "@e1", r.said  # play goes on
    assert "not answering" not in r.said[-1], r.said
    r.put("a1 e1 a2")
    r.run(100)
    assert r.c.game.describe(r.c.game.history[-1]) == "@a2"


def test_a_flicker_shorter_than_the_debounce_is_not_a_fault():
    r = Rig()
    r.run(100)
    r.chain.unplug(2)
    r.run(20)
    r.chain.answering = 4
    r.run(100)
    assert r.board.inputs.fault == 0 and not any("not answering" in s for s in r.said), r.said


def test_the_steps_while_a_module_is_out_allocate_nothing():
    """Under MicroPython, heap_lock() proves the board's steps allocate nothing
    while a module is out (the trouble sign flashing, the chain read on)."""
    try:
        import micropython

        lock = micropython.heap_lock
        unlock = micropython.heap_unlock
    except (ImportError, AttributeError):
        check.skip("no micropython.heap_lock here: nothing to prove")
    r = Rig()
    fake = r.chain
    data = bytearray(len(fake.regs) + 1)

    class Reader:  # the chain's bytes as a PIO reads them, copied without allocating
        def readinto(self, buf):
            for k in range(len(buf)):
                buf[k] = data[k]

    r.board.inputs.use(ShiftScanner(None, None, None, r.wiring.registers, reader=Reader(),
                                    modules=r.wiring.register_modules))
    r.put("a1")
    fake.unplug(3)
    fake.readinto(data)
    r.run(300)
    assert r.board.inputs.fault == 3 and r.said[-1] == WORDS % 3
    lock()
    try:
        for _ in range(150):  # 1.5 s: flashes on and off
            r.t += 10
            r.board.step(r.t)
    finally:
        unlock()
    assert r.board.inputs.fault == 3
