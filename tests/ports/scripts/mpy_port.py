"""The MicroPython port (firmware/ports/micropython/main.py) on fake hardware.

Run by tests/ports/test_micropython_port.py under the unix port of
MicroPython:

    MICROPYPATH=tests/ports/fakes:firmware/ports/micropython:firmware \
        micropython tests/ports/scripts/mpy_port.py SCENARIO

in a directory holding profile.json and layout.json (boards/4x5.json). The
LED bytes expected below are worked out by hand from the module chain of
boards/4x5.json, not from the firmware's own tables. Prints "OK <scenario>".
"""

import sys

import machine
import neopixel
import physical

import main
from attila.controls import Controls

# Squares of boards/4x5.json in chain order (module 1 a1.., module 2 a3..,
# the turned 2x3 modules 3 and 4 from their top-left square).
CHAIN = "a1 b1 a2 b2 a3 b3 a4 b4 c4 c3 d4 d3 e4 e3 c2 c1 d2 d1 e2 e1".split()
# 74HC165 input of each chain sensor: (register, D index).
INPUTS = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)] + [
    (r, d) for r in (2, 3) for d in range(6)
]


class Stub(Controls):
    """A controller as the board reads it (attila.controls.Controls): lights the occupied squares.

    Like attila.play.controller it has `cue` (set by the test here)
    and `said` with status(); self_test() records when it was started.
    """

    def __init__(self, layout):
        self.layout = layout
        self.frame = bytearray(3 * layout.size)
        self.colour = (200, 100, 50)
        self.sensed = []
        self.chained = []  # chain(): the modules named as not answering
        self.presses = []
        self.occupied = 0
        self.tests = []
        self.cue = 0
        self.said = 0
        self.words = "Romans: place a knight"

    def status(self):
        return self.words

    def self_test(self, now_ms):
        self.tests.append(now_ms)

    def sense(self, mask, now_ms):
        self.sensed.append(mask)
        self.occupied = mask
        self.paint()

    def chain(self, module, now_ms):
        self.chained.append(module)

    def paint(self):
        for i in range(self.layout.size):
            c = self.colour if self.occupied >> i & 1 else (0, 0, 0)
            self.frame[3 * i] = c[0]
            self.frame[3 * i + 1] = c[1]
            self.frame[3 * i + 2] = c[2]

    def press(self, button, now_ms):
        self.presses.append(button)

    def tick(self, now_ms):
        return False


def stub_factory(prof, layout, tiles, store, book=None):
    stub = Stub(layout)
    stub.book = book  # what main.py opened (scenario_book)
    return stub


def expect(lit, rgb, level, chain=CHAIN, bpp=3, count=20):
    """Wire bytes (GRB) with the squares named in `lit` at colour rgb * level // 255."""
    out = bytearray(count * bpp)
    r, g, b = (v * level // 255 for v in rgb)
    for k, name in enumerate(chain):
        if name in lit:
            out[k * bpp : k * bpp + 3] = bytes((g, r, b))
    return out


def start(clock, ticks=5):
    main._controller = stub_factory
    return main.main(ticks=ticks, clock=clock.now, sleep=clock.sleep)


def reference(ticks=5):
    """The reference wiring (74HC165 chain, UNDO and MENU) under main.py."""
    physical.HC165Chain(13, 10, 12, 4)
    physical.Switches([16, 17])
    clock = physical.Clock()
    return start(clock, ticks), clock


def scenario_hc165():
    clock = physical.Clock()
    chain = physical.HC165Chain(13, 10, 12, 4)
    keys = physical.Switches([16, 17])
    board = start(clock)
    strip = neopixel.strips[0]
    wdt = machine.watchdogs[0]
    assert board.controller.sensed == [0], board.controller.sensed  # empty board, once
    assert strip.writes == 1 and strip.last == bytearray(60)
    assert wdt.timeout == 5000 and wdt.feeds == 5
    assert machine.pins[22].mode == machine.Pin.OUT
    assert strip.n == 20 and strip.bpp == 3
    # QH pulled the way an empty square reads (active low: up), so a chain
    # with its cable unplugged reads empty squares, not phantom ones.
    assert machine.pins[12].pull == machine.Pin.PULL_UP, machine.pins[12].pull

    def run(n):
        main.run(board, 10, wdt, n, clock.now, clock.sleep)

    # A magnet on module 3's input D0 (c4) and module 4's D1 (c1).
    chain.close(2, 0)
    chain.close(3, 1)
    run(5)
    assert strip.last == expect(("c4", "c1"), (200, 100, 50), 160), list(strip.last)
    # GRB: c4 is LED 8 -> bytes 24..26 = G, R, B of (125, 62, 31)
    assert list(strip.last[24:27]) == [62, 125, 31]
    assert list(strip.last[45:48]) == [62, 125, 31]  # c1 is LED 15
    writes = strip.writes

    # A chattering switch (a1) never reaches the controller.
    for k in range(6):
        chain.close(0, 0, k % 2 == 0)
        run(1)
    chain.close(0, 0, False)
    run(5)
    assert strip.writes == writes, (strip.writes, writes)
    assert board.controller.sensed[-1] == (1 << 17 | 1 << 2)

    # Every input of every register lands on its own square.
    for bit, (reg, d) in enumerate(INPUTS):
        chain.clear()
        chain.close(reg, d)
        run(4)
        assert strip.last == expect((CHAIN[bit],), (200, 100, 50), 160), (bit, list(strip.last))

    # Buttons: UNDO pressed once (with chatter), then MENU.
    keys.set(16, True)
    run(1)
    keys.set(16, False)
    run(1)
    keys.set(16, True)
    run(5)
    keys.set(16, False)
    run(5)
    keys.set(17, True)
    run(5)
    assert board.controller.presses == [0, 1], board.controller.presses

    # Full white on every square: the cap holds the LEDs to 400 mA.
    board.controller.colour = (255, 255, 255)
    for reg, d in INPUTS:
        chain.close(reg, d)
    run(5)
    assert strip.last == bytearray(b"\x50" * 60), list(strip.last)  # 80 each
    assert board.leds.current_ma(strip.last) == 396
    assert wdt.feeds == 5 + 5 + 6 + 5 + 4 * 20 + 17 + 5
    print("OK hc165")


def scenario_spi():
    clock = physical.Clock()
    chain = physical.HC165Chain(13, 10, 12, 4)
    physical.Switches([16, 17])
    chain.close(1, 3)  # module 2, D3: b4
    board = start(clock, 6)
    spi = machine.spis[0]
    assert spi.id == 1 and spi.sck.id == 10 and spi.miso.id == 12
    assert spi.miso.pull == machine.Pin.PULL_UP, spi.miso.pull
    assert spi.reads == 6 and chain.latches == 6
    strip = neopixel.strips[0]
    assert strip.last == expect(("b4",), (200, 100, 50), 160), list(strip.last)
    assert board.controller.sensed == [1 << 16]
    print("OK spi")


def scenario_esp32():
    clock = physical.Clock()
    chain = physical.HC165Chain(25, 18, 19, 4)
    physical.Switches([32, 33])
    chain.close(0, 2)  # module 1, D2: a2
    board = start(clock)
    spi = machine.spis[0]
    assert spi.id == 2 and spi.sck.id == 18 and spi.miso.id == 19
    assert spi.miso.pull == machine.Pin.PULL_UP, spi.miso.pull
    assert machine.watchdogs[0].timeout == 5000
    strip = neopixel.strips[0]
    assert strip.pin.id == 27
    assert strip.last == expect(("a2",), (200, 100, 50), 160), list(strip.last)
    assert board.controller.sensed == [1 << 5]
    print("OK esp32")


def scenario_gpio():
    pins = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 18, 19, 20, 21]
    clock = physical.Clock()
    sw = physical.Switches(pins)
    physical.Switches([16, 17])
    sw.set(0, True)  # chain sensor 0: a1
    sw.set(21, True)  # chain sensor 19: e1
    board = start(clock)
    strip = neopixel.strips[0]
    assert strip.last == expect(("a1", "e1"), (200, 100, 50), 160), list(strip.last)
    for k, p in enumerate(pins):
        assert machine.pins[p].pull == machine.Pin.PULL_UP, p
    main.run(board, 10, None, 5, clock.now, clock.sleep)
    print("OK gpio")


def scenario_matrix():
    clock = physical.Clock()
    m = physical.Matrix([0, 1, 2, 3], [4, 5, 6, 7, 8])
    physical.Switches([16, 17])
    m.close(0, 2)  # sensor 2: a2
    m.close(1, 0)  # sensor 5: b3
    m.close(3, 4)  # sensor 19: e1
    board = start(clock)
    strip = neopixel.strips[0]
    # LEDs are serpentine in this profile: module 1 a1 b1 b2 a2 ...
    serp = "a1 b1 b2 a2 a3 b3 b4 a4 c4 c3 d3 d4 e4 e3 c2 c1 d1 d2 e2 e1".split()
    assert strip.last == expect(("a2", "b3", "e1"), (200, 100, 50), 160, serp), list(
        strip.last
    )
    assert list(strip.last[9:12]) == [62, 125, 31]  # a2 is LED 3
    assert m.scans == 5
    # only one row low at a time, all high between scans
    assert list(m.row_level) == [1, 1, 1, 1]
    print("OK matrix")


def scenario_bitstream():
    clock = physical.Clock()
    chain = physical.HC165Chain(13, 10, 12, 4)
    physical.Switches([16, 17])
    chain.close(3, 5)  # module 4, D5: e1
    start(clock)
    bs = machine.bitstream
    assert neopixel.strips == []
    assert bs.pin == 22 and bs.timing == (400, 850, 800, 450)
    assert bs.last == expect(("e1",), (200, 100, 50), 160), list(bs.last)
    assert bs.count == 2  # dark at boot, then e1 once debounced
    print("OK bitstream")


def scenario_maintenance():
    physical.HC165Chain(13, 10, 12, 4)
    keys = physical.Switches([16, 17])
    keys.set(16, True)  # UNDO and MENU held at power-up
    keys.set(17, True)
    clock = physical.Clock()
    assert start(clock) is None
    assert machine.watchdogs == [] and neopixel.strips == []
    # The same with a file named `maintenance` and no button held.
    keys.set(16, False)
    keys.set(17, False)
    open("maintenance", "w").close()
    assert start(clock) is None
    assert machine.watchdogs == [] and neopixel.strips == []
    print("OK maintenance")


def _saved(actions):
    """A saved game of these actions on file, the reference wiring, the real controller."""
    from attila.game import layoutfile
    from attila.assembly import controller_for
    from attila.game.notation import replay
    from attila.game.rules import Game
    from attila.saves.savetext import dump
    from attila.saves.store import Store

    layout = layoutfile.load("layout.json")[0]
    Store("game.txt").save(dump(replay(Game(layout), actions)))
    physical.HC165Chain(13, 10, 12, 4)
    physical.Switches([16, 17])
    main._controller = controller_for


def scenario_resume():
    # A saved game and no marker: the board asks (RESUME). With the `resume`
    # marker that attila games leaves before its reset: it plays on, and the
    # marker is gone.
    import os

    from attila.play.controller import CORRECT, PLAY, RESUME

    _saved("@a1 @e4")
    clock = physical.Clock()
    board = main.main(ticks=5, clock=clock.now, sleep=clock.sleep)
    assert board.controller.mode == RESUME, board.controller.mode
    assert not board.controller.store.in_place  # (the unix port's files: a host's)
    open("resume", "w").close()
    board = main.main(ticks=5, clock=clock.now, sleep=clock.sleep)
    assert board.controller.mode != RESUME and len(board.controller.game.history) == 2
    assert board.controller.mode in (PLAY, CORRECT)  # CORRECT: the pieces are not on it
    try:
        os.stat("resume")
        raise AssertionError("the resume marker is still there")
    except OSError:
        pass
    print("OK resume")


def scenario_collected():
    # Boot leaves garbage (the files read, a saved game restored): main.py
    # collects it before its loop, else the loop's first allocation that
    # finds no room does, in a loop step (about 20 ms on a Pico).
    import gc

    _saved("@a1 @e4 @b1 @d4 @a4 @e1")
    free = []

    def entered(*_args):
        free.append(gc.mem_free())  # as the loop would start
        gc.collect()
        free.append(gc.mem_free())

    main.run = entered
    clock = physical.Clock()
    main.main(ticks=5, clock=clock.now, sleep=clock.sleep)
    assert len(free) == 2, free
    assert free[1] - free[0] < 1024, "%d bytes of garbage left to the loop" % (free[1] - free[0])
    print("OK collected")


def scenario_selftest():
    physical.HC165Chain(13, 10, 12, 4)
    keys = physical.Switches([16, 17])
    keys.set(17, True)  # MENU held at power-up: the self-test, watchdog and all
    clock = physical.Clock()
    board = start(clock)
    c = board.controller
    assert c.tests == [1005], c.tests  # after the 5 ms the pulls need
    wdt = machine.watchdogs[0]
    assert wdt.timeout == 5000 and wdt.feeds == 5
    main.run(board, 10, wdt, 10, clock.now, clock.sleep)
    assert c.presses == [], c.presses  # the MENU held since power-up is no press
    keys.set(17, False)
    main.run(board, 10, wdt, 10, clock.now, clock.sleep)
    keys.set(17, True)
    main.run(board, 10, wdt, 10, clock.now, clock.sleep)
    assert c.presses == [1], c.presses  # a new press is
    print("OK selftest")


def scenario_unplugged():
    # The chain's cable unplugged: nothing drives QH, which reads by its pull
    # (up: every byte 0xFF, the one past the chain too, which a cabled chain
    # reads 0): no square is read, module 1 is named (attila.sensing.chain).
    clock = physical.Clock()
    physical.Switches([16, 17])
    board = start(clock)
    assert machine.pins[12].pull == machine.Pin.PULL_UP, machine.pins[12].pull
    assert board.controller.sensed == [], board.controller.sensed
    assert board.controller.chained == [1], board.controller.chained
    print("OK unplugged")


def scenario_unwired():
    # No buttons wired at all: the inputs read by their pull-ups, so nothing
    # is held (read without their pulls they would read low: "held").
    physical.HC165Chain(13, 10, 12, 4)
    clock = physical.Clock()
    board = start(clock)
    assert board is not None and board.controller.tests == []
    for p in (16, 17):
        assert machine.pins[p].pull == machine.Pin.PULL_UP, p
    print("OK unwired")


def scenario_sound():
    # "sound": 50 in the profile: each cue plays its tune on the PWM pin,
    # note by note on the loop's clock, and the Board hands the cue back as 0.
    board, clock = reference(1)
    pwm = machine.pwms[0]
    assert pwm.pin.id == 18 and pwm.duty == 0 and pwm.history[-1] == (1000, 0), pwm.history
    del pwm.history[:]
    c = board.controller
    half = 16384  # 50 % of the loudest (32768)

    def ticks(n, *changes):
        before = len(pwm.history)
        main.run(board, 10, None, n, clock.now, clock.sleep)
        assert pwm.history[before:] == list(changes), (n, pwm.history[before:])

    c.cue = 3  # the board's turn: G6 80 ms, a 30 ms rest, C7 140 ms
    ticks(1, (1568, 0), (1568, half))
    assert c.cue == 0  # handed on, and reset
    ticks(7)
    ticks(1, (1568, 0))  # 80 ms on: the rest
    ticks(2)
    ticks(1, (2093, 0), (2093, half))  # 30 ms later: C7
    ticks(13)
    ticks(1, (2093, 0))  # 140 ms on: silence
    assert not board.sounds.playing
    ticks(20)
    c.cue = 1  # placed: C7 40 ms; a new cue cuts it short
    ticks(2, (2093, 0), (2093, half))
    c.cue = 2
    ticks(1, (1319, half), (1319, half))  # straight from one note to the next
    print("OK sound")


def scenario_status():
    # The status line goes to the serial console when `said` changes.
    board, clock = reference(3)
    c = board.controller
    c.words = "Huns: place a knight"
    main.run(board, 10, None, 3, clock.now, clock.sleep)  # said unchanged: not printed
    c.said += 1
    main.run(board, 10, None, 3, clock.now, clock.sleep)
    print("OK status")


def scenario_console():
    # A host holds the serial port open and never reads (here: a pipe nobody
    # reads, 64 kB): the status line changes on every step, 5,000 times, and
    # the loop goes on; the console drops what it cannot send.
    board, clock = reference(3)
    c = board.controller
    for k in range(5000):
        c.words = "Huns: place a knight on a lit square (knight 1 of 3), change %d" % k
        c.said += 1
        main.run(board, 10, None, 1, clock.now, clock.sleep)
    sys.stderr.write("OK console, %d lines dropped\n" % board.console.dropped)


def scenario_book():
    # layout.book next to layout.json (as `attila flash` puts it) reaches the
    # controller opened, not read whole; without it, or damaged, the board runs
    # on without it (the test reads what the console said).
    board, clock = reference(3)
    book = board.controller.book
    if sys.argv[2:] == ["present"]:
        from attila.game.rules import Game

        layout = board.controller.layout
        assert book.count == 1443, book.count
        assert book.placement(Game(layout)) == layout.index("c2")
    else:
        assert book is None
    main.run(board, 10, None, 3, clock.now, clock.sleep)
    print("OK book")


def scenario_watchdog():
    # The fake watchdog refuses what rp2's machine.WDT refuses ...
    try:
        machine.WDT(timeout=9000)
        raise AssertionError("WDT(9000) accepted")
    except ValueError as e:
        assert str(e) == "timeout exceeds 8388", e
    # ... and the profile says so before the board would die at boot.
    from attila.profile import ProfileError

    try:
        start(physical.Clock())
        raise AssertionError("a 9000 ms watchdog was accepted")
    except ProfileError as e:
        assert str(e) == ("profile.json: watchdog_ms 9000 is more than MicroPython on the "
                          "rp2040 accepts (at most 8388)"), e
    assert machine.watchdogs == [] and neopixel.strips == []
    print("OK watchdog")


def scenario_thinking():
    # main.run: while a search is under way the next step follows at once,
    # unless the step wrote the LEDs; at rest it sleeps out the 10 ms loop.
    clock = physical.Clock()
    busy = (False, True, True, True, False)  # the plan, after each step
    wrote = (False, False, True, False, False)
    slept = []

    class Plan:
        busy = False

    class Controller:
        plan = Plan()

    class Board:
        console = None
        controller = Controller()
        k = 0

        def step(self, now_ms):
            k = self.k
            clock.t += 3  # the step's own time
            self.controller.plan.busy = busy[k]
            self.k = k + 1
            return wrote[k]

    def sleep(ms):
        slept.append(ms)
        clock.sleep(ms)

    t0 = clock.t
    main.run(Board(), 10, None, len(busy), clock.now, sleep)
    assert slept == [7, 7, 7], slept  # after steps 0 (at rest), 2 (a write), 4 (decided)
    assert clock.t - t0 == 5 * 3 + 3 * 7, clock.t - t0
    print("OK thinking")


scenario = sys.argv[1] if len(sys.argv) > 1 else "hc165"
globals()["scenario_" + scenario]()
