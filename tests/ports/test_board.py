"""Board.step and the sensor back-ends, with plain fake objects (CPython)."""

import pytest

from attila.board import Board
from attila.controls import Controls
from attila.leds.strip import Leds
from attila.game.modules import compose, place_module
from attila.sensing.scanners import ButtonReader, GpioScanner, MatrixScanner, ShiftScanner
from attila.sensing.debounce import Debouncer
from attila.sensing.wiring import Wiring


def wiring_4x5():
    layout, modules = compose(
        [
            place_module(1, "2x2", 0, 0, 0),
            place_module(2, "2x2", 0, 2, 0),
            place_module(3, "2x3", 2, 2, 90),
            place_module(4, "2x3", 2, 0, 90),
        ],
        "4x5",
    )
    return layout, Wiring(layout, modules)


class Scanner:
    def __init__(self):
        self.raw = 0

    def scan(self):
        return self.raw


class Strip:
    def __init__(self, n):
        self.buf = bytearray(n)
        self.sent = []

    def write(self):
        self.sent.append(bytes(self.buf))


class Keys:
    def __init__(self):
        self.held = 0

    def read(self):
        return self.held


class Controller(Controls):
    def __init__(self, size, release=False):
        self.frame = bytearray(3 * size)
        self.red = 0
        self.log = []
        self.ticks = 0
        if release:
            self.release = lambda b, t: self.log.append(("release", b, t))

    def sense(self, mask, now):
        self.log.append(("sense", mask, now))
        self.red = 255 if mask else 0  # square a1 red when anything is down

    def press(self, b, now):
        self.log.append(("press", b, now))

    def tick(self, now):
        """The frame painted: True when it changed (the Controls protocol)."""
        self.ticks += 1
        changed = self.frame[0] != self.red
        self.frame[0] = self.red
        return changed


def make(release=False):
    layout, w = wiring_4x5()
    c = Controller(layout.size, release)
    s = Scanner()
    k = Keys()
    st = Strip(60)
    b = Board(c, s, st, w, Debouncer(layout.size), k)
    return b, c, s, k, st


def run(board, t0, t1):
    for t in range(t0, t1, 10):
        board.step(t)


def test_sense_only_debounced_changes_and_write_only_new_frames():
    b, c, s, k, st = make()
    run(b, 0, 40)
    assert c.log == [("sense", 0, 30)]  # the empty board, once ready
    assert st.sent == [bytes(60)]  # dark at boot, then nothing new
    s.raw = 1 << 9  # chain bit 9: c3 (module 3, local 1)
    run(b, 40, 100)
    assert c.log[1] == ("sense", 1 << 12, 70)
    assert len(st.sent) == 2
    assert st.sent[1][:3] == bytes((0, 255, 0))  # a1 red, GRB on the wire
    run(b, 100, 300)
    assert len(c.log) == 2 and len(st.sent) == 2 and c.ticks == 30


def test_buttons_press_and_release():
    b, c, s, k, st = make(release=True)
    run(b, 0, 40)
    k.held = 0b10
    run(b, 40, 60)  # 20 ms: not yet
    k.held = 0
    run(b, 60, 100)
    k.held = 0b01
    run(b, 100, 140)
    k.held = 0
    run(b, 140, 180)
    assert c.log[1:] == [("press", 0, 130), ("release", 0, 170)]


def test_brightness_rerenders_the_same_frame():
    b, c, s, k, st = make()
    s.raw = 1
    run(b, 0, 50)
    assert st.sent[-1][:3] == bytes((0, 255, 0))
    b.set_brightness(51)
    b.step(60)
    assert st.sent[-1][:3] == bytes((0, 51, 0))
    b.set_brightness(999)
    assert b.leds.brightness == 255


def test_strip_too_small():
    layout, w = wiring_4x5()
    with pytest.raises(ValueError, match="strip buffer has 59 bytes"):
        Board(Controller(layout.size), Scanner(), Strip(59), w, Debouncer(20))
    Board(Controller(layout.size), Scanner(), Strip(80), w, Debouncer(20),
          leds=Leds(w, "GRBW"))


class Pin:
    def __init__(self, level=1):
        self.level = level
        self.driven = []

    def value(self, v=None):
        if v is None:
            return self.level
        self.driven.append(v)


def test_4x5_file_wires_like_the_hand_composition():
    import os

    from attila.game import layoutfile

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    layout, modules, _ = layoutfile.load(os.path.join(root, "boards", "4x5.json"))
    w = Wiring(layout, modules)
    chain = "a1 b1 a2 b2 a3 b3 a4 b4 c4 c3 d4 d3 e4 e3 c2 c1 d2 d1 e2 e1".split()
    assert [layout.names[s] for s in w.led_square] == chain
    assert [layout.names[s] for s in w.sensor_square] == chain
    assert list(w.led_square) == list(wiring_4x5()[1].led_square)


def test_gpio_scanner():
    pins = [Pin(1), Pin(0), Pin(1), Pin(0)]
    assert GpioScanner(pins).scan() == 0b1010  # active low: 0 is a magnet
    assert GpioScanner(pins, active_low=False).scan() == 0b0101


class MatrixCols:
    """Columns whose level depends on which row is low."""

    def __init__(self, rows, closed):
        self.rows = rows
        self.closed = closed  # set of (row, col)

    def col(self, c):
        outer = self

        class Col:
            def value(self, v=None):
                for r, row in enumerate(outer.rows):
                    if row.driven and row.driven[-1] == 0 and (r, c) in outer.closed:
                        return 0
                return 1

        return Col()


def test_matrix_scanner():
    rows = [Pin(), Pin(), Pin()]
    m = MatrixCols(rows, {(0, 1), (2, 0), (2, 1)})
    slept = []
    sc = MatrixScanner(rows, [m.col(0), m.col(1)], count=5, settle_us=7,
                       sleep_us=lambda us: slept.append((us, low(rows))))
    # bit = row * 2 + col; (2, 1) is bit 5, beyond the 5 sensors
    assert sc.scan() == 0b10010
    # the settle before each row but the first, that row driven low: a column
    # the row before pulled low climbs back meanwhile
    assert slept == [(7, [1]), (7, [2])]
    assert all(r.driven == [1, 0, 1] for r in rows)


def low(rows):
    """The rows driven low now."""
    return [k for k, r in enumerate(rows) if r.driven[-1] == 0]


class Chain:
    """74HC165 chain behind load/clock/data pins (register 0 first)."""

    def __init__(self, inputs):
        self.inputs = inputs
        self.bits = []
        chain = self

        class Load(Pin):
            def value(self, v=None):
                if v == 0:
                    chain.bits = [b >> (7 - i) & 1 for b in chain.inputs for i in range(8)]

        class Clock(Pin):
            def value(self, v=None):
                if v == 1 and chain.bits:  # (past the chain: the SER's pull-down)
                    chain.bits.pop(0)

        class Data(Pin):
            def value(self, v=None):
                return chain.bits[0] if chain.bits else 0

        self.load, self.clock, self.data = Load(), Clock(), Data()


def test_shift_scanner_bitbang_and_spi():
    # register 0 (4 used): D0 and D3 closed (0); register 1 (6 used): D5 closed;
    # unused inputs tied to 3.3 V (attila.sensing.chain checks them), the byte past the chain 0
    inputs = [0xFF & ~0b1001, 0b11011111, 0]
    ch = Chain(inputs)
    sc = ShiftScanner(ch.load, ch.clock, ch.data, (4, 6))
    want = 0b1001 | (1 << 5) << 4
    assert sc.scan() == want

    class Spi:
        def readinto(self, buf):
            buf[:] = bytes(inputs)

    sc = ShiftScanner(Pin(), None, None, (4, 6), spi=Spi())
    assert sc.scan() == want


def test_button_reader():
    r = ButtonReader([Pin(0), None, Pin(1)])
    assert r.read() == 0b001
    r = ButtonReader([Pin(1), Pin(0)], active_low=False)
    assert r.read() == 0b01


class Counting(Debouncer):
    def __init__(self, size):
        super().__init__(size)
        self.updates = 0

    def update(self, mask, now_ms):
        self.updates += 1
        return super().update(mask, now_ms)


def test_a_step_where_nothing_changed_skips_the_squares_and_the_debouncers():
    layout, w = wiring_4x5()
    squares = []
    w.squares = lambda raw, f=w.squares: squares.append(raw) or f(raw)
    c, s, k, st = Controller(layout.size), Scanner(), Keys(), Strip(60)
    deb = Counting(layout.size)
    b = Board(c, s, st, w, deb, k)
    run(b, 0, 100)  # the empty board: read, timed until ready, then quiet
    assert squares == [0] and deb.updates == 4 and deb.quiet
    b.inputs._keys = keys = Counting(2)  # the buttons' debouncer, counted from here on
    keys.reset(0, 100)
    run(b, 100, 300)
    assert squares == [0] and deb.updates == 4 and c.ticks == 30  # tick runs every step
    assert keys.updates == 1  # once after its reset, then quiet
    s.raw = 1 << 9
    run(b, 300, 400)  # a new scan: its squares once, the debouncer until it settles
    assert squares == [0, 1 << 9] and deb.updates == 4 + 4 and deb.quiet
    assert c.log[-1] == ("sense", 1 << 12, 330)
    k.held = 0b10  # a button: its debouncer wakes up, presses as before
    run(b, 400, 500)
    assert c.log[-1] == ("press", 1, 430) and b.inputs._keys.quiet


def test_shift_scanner_with_a_reader_unpacks_only_new_bytes():
    inputs = [0xFF & ~0b1001, 0b11011111, 0]  # (unused inputs tied high; the byte past: 0)
    unpacked = []

    class Reader:  # loads and shifts the chain itself, as the RP2040's PIO does
        reads = 0

        def readinto(self, buf):
            self.reads += 1
            buf[:] = bytes(inputs)

    r = Reader()
    sc = ShiftScanner(None, None, None, (4, 6), reader=r)
    sc._unpack = lambda buf, f=sc._unpack: unpacked.append(bytes(buf)) or f(buf)
    want = 0b1001 | (1 << 5) << 4
    assert sc.scan() == want and sc.scan() == want and r.reads == 2
    assert unpacked == [bytes(inputs)]  # the second scan's bytes were the same
    inputs[1] = 0b11111111  # D5 of register 1 opens
    assert sc.scan() == 0b1001 and len(unpacked) == 2


def test_pin_readers_take_the_ports_levels_in_one_read():
    # levels(): bit k = level of pins[k] (cols[k]); the port reads them at once
    pins = [Pin(1), Pin(0), Pin(1), Pin(0)]
    assert GpioScanner(pins, levels=lambda: 0b0101).scan() == 0b1010
    assert GpioScanner(pins, active_low=False, levels=lambda: 0b0101).scan() == 0b0101
    r = ButtonReader([Pin(0), None, Pin(1)], levels=lambda: 0b100)  # absent: reads low
    assert r.read() == 0b001
    rows = [Pin(), Pin(), Pin()]
    m = MatrixCols(rows, {(0, 1), (2, 0), (2, 1)})
    cols = [m.col(0), m.col(1)]

    def levels():
        return cols[0].value() | cols[1].value() << 1

    slept = []
    sc = MatrixScanner(rows, cols, count=5, settle_us=7,
                       sleep_us=lambda us: slept.append((us, low(rows))), levels=levels)
    assert sc.scan() == 0b10010
    assert slept == [(7, [1]), (7, [0])]  # the rows last to first
    assert all(r.driven == [1, 0, 1] for r in rows)
