"""The CircuitPython port (firmware/ports/circuitpython: boot.py, code.py) on fake modules.

Run by tests/ports/test_circuitpython_port.py with CPython, one scenario per
fresh process, in a directory holding profile.json and layout.json:

    python tests/ports/scripts/cp_port.py SCENARIO

Only CircuitPython's own modules are fakes (tests/ports/fakes_cp: board,
digitalio, keypad, neopixel_write, pwmio, storage, supervisor,
microcontroller, watchdog, written from CircuitPython's documentation), and
behind their pins the circuits of tests/ports/fakes/physical.py. The LED
bytes expected below are worked out by hand from the module chain of
boards/4x5.json. Prints "OK <scenario>".
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path[:0] = [
    os.path.join(ROOT, "tests", "ports", "fakes_cp"),
    os.path.join(ROOT, "firmware", "ports", "circuitpython"),
    os.path.join(ROOT, "firmware"),
    os.path.join(ROOT, "tests", "ports", "fakes"),  # machine.py / physical.py only
]

import keypad  # noqa: E402
import microcontroller  # noqa: E402
import neopixel_write  # noqa: E402
import physical  # noqa: E402
import pwmio  # noqa: E402
import storage  # noqa: E402
import supervisor  # noqa: E402

import code as port  # noqa: E402
import hardware  # noqa: E402
from attila.game import layoutfile  # noqa: E402
from attila.controls import Controls  # noqa: E402

LAYOUT = layoutfile.load(os.path.join(ROOT, "boards", "4x5.json"))[0]


def squares(*names):
    """The square-order mask of some squares of boards/4x5.json."""
    return sum(1 << LAYOUT.index(n) for n in names)


CHAIN = "a1 b1 a2 b2 a3 b3 a4 b4 c4 c3 d4 d3 e4 e3 c2 c1 d2 d1 e2 e1".split()
# 74HC165 input of each chain sensor: (register, D index).
INPUTS = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)] + [
    (r, d) for r in (2, 3) for d in range(6)
]
DIRECT = ["GP%d" % n for n in list(range(16)) + [19, 20, 21, 26]]


class Clock:
    """The board's clock: supervisor.ticks_ms, moved on by sleep()."""

    def __init__(self, t=1000):
        supervisor.t[0] = t

    def now(self):
        return supervisor.ticks_ms()

    def sleep(self, ms):
        supervisor.t[0] += ms


clock = Clock()
hardware.sleep_ms = clock.sleep


class Stub(Controls):
    """A controller with the contract's API (C2): lights the occupied squares."""

    def __init__(self, layout, store):
        self.layout = layout
        self.store = store
        self.frame = bytearray(3 * layout.size)
        self.colour = (200, 100, 50)
        self.sensed = []
        self.presses = []
        self.tests = []
        self.troubles = []
        self.cue = 0
        self.said = 0
        self.words = "Romans: place a knight"

    def sense(self, mask, now_ms):
        self.sensed.append(mask)
        for i in range(self.layout.size):
            self.frame[3 * i: 3 * i + 3] = bytes(self.colour if mask >> i & 1 else (0, 0, 0))

    def press(self, button, now_ms):
        self.presses.append(button)

    def tick(self, now_ms):
        return False

    def status(self):
        return self.words

    def self_test(self, now_ms):
        self.tests.append(now_ms)

    def trouble(self, text):
        self.troubles.append(text)
        self.said += 1


def stub_factory(prof, layout, tiles, store, book=None, card=None):
    stub = Stub(layout, store)
    stub.book = book  # what code.py opened (scenario_book)
    stub.card = card  # (scenario_opening)
    return stub


port._controller = stub_factory


def boot():
    """Power-up: boot.py, then code.py may no longer remount."""
    import boot as boot_py

    result = boot_py.main()
    storage.booted = True
    return result


def start(ticks=5):
    return port.main(ticks=ticks, clock=clock.now, sleep=clock.sleep)


def reference(ticks=5):
    """The reference wiring (74HC165 chain, UNDO and MENU), boot.py, then code.py."""
    chain = physical.HC165Chain("GP13", "GP10", "GP12", 4)
    physical.Switches(["GP16", "GP17"])
    boot()
    return start(ticks), chain


def run(board, n):
    port.run(board, 10, None, n, clock.now, clock.sleep)


def expect(lit, rgb, level=160, chain=CHAIN):
    out = bytearray(60)
    r, g, b = (v * level // 255 for v in rgb)
    for k, name in enumerate(chain):
        if name in lit:
            out[3 * k: 3 * k + 3] = bytes((g, r, b))  # GRB on the wire
    return bytes(out)


def scenario_hc165():
    chain = physical.HC165Chain("GP13", "GP10", "GP12", 4)
    keys = physical.Switches(["GP16", "GP17"])
    chain.close(2, 0)  # module 3 D0: c4
    chain.close(3, 1)  # module 4 D1: c1
    assert boot() is True and storage.root.readonly is False
    board = start()
    c = board.controller
    assert type(board.scanner.keys) is keypad.ShiftRegisterKeys  # scanned in C, not bit-banged
    assert c.store is not None and c.troubles == []  # saves go to microcontroller.nvm
    writes = neopixel_write.writes
    assert writes[0] == ("GP22", bytes(60)), writes[0]  # dark at boot
    assert writes[-1] == ("GP22", expect(("c4", "c1"), (200, 100, 50))), writes[-1]
    assert list(writes[-1][1][24:27]) == [62, 125, 31]  # c4, LED 8: G R B
    assert c.sensed == [squares("c4", "c1")], c.sensed  # once, the truth at once
    wd = microcontroller.watchdog
    assert wd.timeout == 5.0 and wd.mode == "reset" and wd.feeds == 5

    # A chattering switch (a1) never reaches the controller.
    n = len(writes)
    for k in range(6):
        chain.close(0, 0, k % 2 == 0)
        run(board, 1)
    chain.close(0, 0, False)
    run(board, 5)
    assert len(writes) == n and c.sensed[-1] == squares("c4", "c1")

    # Every input of every register lands on its own square.
    for bit, (reg, d) in enumerate(INPUTS):
        chain.clear()
        chain.close(reg, d)
        run(board, 5)
        assert writes[-1] == ("GP22", expect((CHAIN[bit],), (200, 100, 50))), (bit, reg, d)

    # Full white everywhere: the cap holds it to 80 per channel (396 mA).
    c.colour = (255, 255, 255)
    for reg, d in INPUTS:
        chain.close(reg, d)
    run(board, 5)
    assert writes[-1] == ("GP22", b"\x50" * 60), writes[-1]

    # UNDO pressed
    keys.set("GP16", True)
    run(board, 5)
    assert c.presses == [0], c.presses
    print("OK hc165")


def scenario_gpio():
    sw = physical.Switches(DIRECT)
    physical.Switches(["GP16", "GP17"])
    sw.set("GP0", True)  # chain sensor 0: a1
    sw.set("GP26", True)  # chain sensor 19: e1
    boot()
    board = start()
    assert type(board.scanner.keys) is keypad.Keys
    assert neopixel_write.writes[-1] == ("GP22", expect(("a1", "e1"), (200, 100, 50)))
    sw.set("GP0", False)
    sw.set("GP5", True)  # chain sensor 5: b3
    run(board, 5)
    assert board.controller.sensed == [squares("a1", "e1"), squares("b3", "e1")], (
        board.controller.sensed)
    print("OK gpio")


def scenario_matrix():
    m = physical.Matrix(["GP0", "GP1", "GP2", "GP3"], ["GP4", "GP5", "GP6", "GP7", "GP8"])
    physical.Switches(["GP16", "GP17"])
    m.close(0, 2)  # sensor 2: a2
    m.close(1, 0)  # sensor 5: b3
    m.close(3, 4)  # sensor 19: e1
    boot()
    board = start()
    assert type(board.scanner.keys) is keypad.KeyMatrix
    assert neopixel_write.writes[-1] == ("GP22", expect(("a2", "b3", "e1"), (200, 100, 50)))
    assert list(m.row_level) == [1, 1, 1, 1]  # no row left low between scans
    print("OK matrix")


def scenario_overflow():
    # The loop stalls while a switch chatters: the event queue overflows, and
    # the scanner starts afresh from what is pressed now.
    board, chain = reference(1)
    events = board.scanner.keys.events
    for k in range(80):
        chain.close(0, 0, k % 2 == 0)
        clock.sleep(5)
        len(events)  # the background scans that fell due
    assert events.overflowed
    chain.close(1, 0)  # a3 down too, then everything holds still
    run(board, 5)
    assert not events.overflowed
    assert board.controller.sensed[-1] == squares("a3"), board.controller.sensed
    print("OK overflow")


def scenario_selftest():
    physical.HC165Chain("GP13", "GP10", "GP12", 4)
    keys = physical.Switches(["GP16", "GP17"])
    keys.set("GP17", True)  # MENU held at power-up
    assert boot() is True  # not maintenance: the board keeps saving
    board = start()
    c = board.controller
    # code.py's buttons and sensors each waited 5 ms for the pulls (boot.py
    # waits with time.sleep: not on this clock)
    assert c.tests == [1010], c.tests
    run(board, 10)
    assert c.presses == [], c.presses  # the MENU held since power-up is no press
    keys.set("GP17", False)
    run(board, 10)
    keys.set("GP17", True)
    run(board, 10)
    assert c.presses == [1], c.presses
    print("OK selftest")


def scenario_maintenance():
    physical.HC165Chain("GP13", "GP10", "GP12", 4)
    keys = physical.Switches(["GP16", "GP17"])
    keys.set("GP16", True)  # UNDO and MENU held at power-up
    keys.set("GP17", True)
    assert boot() is False and storage.remounts == []  # the computer keeps the drive
    assert start() is None
    assert neopixel_write.writes == [] and microcontroller.watchdog.mode is None
    # The same with a file named `maintenance` and no button held.
    storage.booted = False
    keys.set("GP16", False)
    keys.set("GP17", False)
    open("maintenance", "w").close()
    assert boot() is False and storage.remounts == []
    assert start() is None
    print("OK maintenance")


def scenario_readonly():
    # No boot.py ran since the drive's files came (a new board's first
    # `attila flash --drive`), or boot.py left the drive to the computer:
    # code.py stays in maintenance however often it runs again (a reload at
    # each of the computer's writes), with no button held and no marker file.
    physical.HC165Chain("GP13", "GP10", "GP12", 4)
    physical.Switches(["GP16", "GP17"])
    storage.booted = True
    for _reload in range(3):
        assert start(3) is None
    assert neopixel_write.writes == [] and microcontroller.watchdog.mode is None
    # Reset: boot.py gives the drive to the board, which plays and saves its
    # game in microcontroller.nvm, never on the drive.
    storage.booted = False
    board = start(3) if boot() else None
    c = board.controller
    assert c.store is not None and c.troubles == [], c.troubles
    c.store.save("attila-save 1\nlog @a1\n")
    from nvmsave import NvmStore

    assert NvmStore(microcontroller.nvm).load() == "attila-save 1\nlog @a1\n"
    print("OK readonly")


def scenario_opponent():
    # No viper on CircuitPython: the opponent's slice and node budgets are the port's.
    from attila import opponent
    from attila.assembly import controller_for
    from attila import profile

    prof = profile.load("profile.json")
    c = controller_for(prof, LAYOUT, None)
    port.portable(c)
    planner = c.plan.opponent
    assert planner.slice_nodes == port.SLICE == 8, planner.slice_nodes
    assert planner.node_budget == port.NODES[opponent.STRONG] == 500, planner.node_budget
    print("OK opponent")


def scenario_old():
    # CircuitPython 9.2.0: refused on the console and with every LED red.
    physical.HC165Chain("GP13", "GP10", "GP12", 4)
    physical.Switches(["GP16", "GP17"])

    class Impl:
        name = "circuitpython"
        version = (9, 2, 0)

    assert "9.2.0 is too old: the board needs 9.2.1 or newer" in port.too_old(Impl())
    real = port.too_old
    port.too_old = lambda: real(Impl())
    assert start() is None
    assert neopixel_write.writes == [("GP22", bytes((0, 64, 0)) * 20)], neopixel_write.writes
    print("OK old")


def scenario_sound():
    board, _chain = reference(1)
    pwm = pwmio.outputs[0]
    assert pwm.pin.name == "GP18" and pwm.duty_cycle == 0
    del pwm.history[:]
    half = 16384  # 50 % of the loudest (32768)
    c = board.controller

    def ticks(n, *changes):
        before = len(pwm.history)
        run(board, n)
        assert pwm.history[before:] == list(changes), (n, pwm.history[before:])

    c.cue = 4  # game over: C6 E6 G6 110 ms each, C7 330 ms
    ticks(1, (1047, 0), (1047, half))
    assert c.cue == 0
    ticks(10)
    ticks(1, (1319, half), (1319, half))
    ticks(10)
    ticks(1, (1568, half), (1568, half))
    ticks(10)
    ticks(1, (2093, half), (2093, half))
    ticks(32)
    ticks(1, (2093, 0))
    print("OK sound")


def scenario_status():
    board, _chain = reference(3)
    c = board.controller
    c.words = "Huns: place a knight"
    run(board, 3)  # said unchanged: not printed
    c.said += 1
    run(board, 3)
    print("OK status")


class HostSerial:
    """usb_cdc.console (shared-module/usb_cdc/Serial.c) with a host that holds
    the port open and reads only when told: TinyUSB's 64-byte transmit FIFO."""

    FIFO = 64

    def __init__(self):
        self.connected = True  # DTR set: the host is there
        self.write_timeout = None  # CircuitPython's default: a write waits for ever
        self.fifo = bytearray()
        self.read = bytearray()  # what the host has read
        self.writes = 0
        self.waited = 0  # seconds writes waited for the host (write_timeout)

    @property
    def out_waiting(self):
        return len(self.fifo)

    def write(self, data):
        self.writes += 1
        room = self.FIFO - len(self.fifo)
        if len(data) > room and (self.write_timeout is None or self.write_timeout < 0):
            raise AssertionError("this write waits until the host reads")
        if len(data) > room:
            self.waited += self.write_timeout  # then it gives up
        n = min(room, len(data))
        self.fifo += bytes(data[:n])
        return n

    def host_reads(self):
        self.read += self.fifo
        self.fifo = bytearray()


def scenario_console():
    # A host holds the USB serial open without reading: print() would loop in
    # serial_write_substring until it reads. The status line goes through
    # usb_cdc.console, never more than the FIFO takes: the loop goes on, and
    # once the host reads it gets whole lines, the newest last.
    import types

    serial = HostSerial()
    sys.modules["usb_cdc"] = types.SimpleNamespace(console=serial)
    board, _chain = reference(3)
    c = board.controller
    assert serial.write_timeout == 0
    # code.py's own lines went the same way (print() would wait for ever too):
    # the second one waited SAY_S for room, then went on without its end.
    said = ("attila: 4x5 on circuitpython-pico, 20 squares\r\n"
            "attila: opening table: the game's first turn of play is exact\r\n")
    assert serial.fifo.decode() == said[:HostSerial.FIFO], serial.fifo
    assert serial.waited == port.SAY_S
    serial.waited = 0
    serial.host_reads()
    for k in range(40):
        c.words = "Huns: place a knight (%d)" % k
        c.said += 1
        run(board, 1)
    assert len(serial.fifo) == HostSerial.FIFO  # full, and the loop went on
    run(board, 20)
    assert len(serial.fifo) == HostSerial.FIFO
    for _ in range(10):
        serial.host_reads()
        run(board, 1)
    lines = serial.read.decode().splitlines()
    assert lines[0] == "attila: 4x5 on circuitpython-pico, 20 squares", lines
    assert lines[1].startswith("attila: opening t"), lines
    assert lines[-1] == "Huns: place a knight (39)", lines
    assert all(line.startswith("Huns: place a knight (") for line in lines[2:]), lines
    assert serial.waited == 0
    # A line of code.py's own with the FIFO full (a host that does not read at
    # power-up): it waits SAY_S at most, then the board goes on.
    serial.fifo = bytearray(HostSerial.FIFO)
    port.say("card not used")
    assert serial.waited == port.SAY_S == 0.1 and serial.write_timeout == 0
    # usb_cdc turned off in boot.py: print(), which then writes to nothing.
    sys.modules["usb_cdc"] = types.SimpleNamespace(console=None)
    assert port.status_console() is print
    print("OK console")


def scenario_book():
    # layout.book reaches the controller opened; missing or damaged, the board
    # runs on without it (the test reads what the console said).
    board, _chain = reference(3)
    book = board.controller.book
    if os.path.exists("layout.book") and os.path.getsize("layout.book") == 7323:
        from attila.game.rules import Game

        layout = board.controller.layout
        assert book.placement(Game(layout)) == layout.index("c2")
    else:
        assert book is None
    run(board, 3)
    print("OK book")


def scenario_opening():
    # layout.opening reaches the controller opened (no SD card in the
    # profile); missing or damaged, the board runs on without it (the test
    # reads what the console said).
    board, _chain = reference(3)
    card = board.controller.card
    with open(os.path.join(ROOT, "boards", "solved", "4x5.opening"), "rb") as f:
        solved = f.read()
    have = None
    if os.path.exists("layout.opening"):
        with open("layout.opening", "rb") as f:
            have = f.read()
    if have == solved:
        from attila.game.notation import parse_position
        from attila.opponent.opening import Opening

        assert isinstance(card, Opening) and not card.whole
        game = parse_position("R.H../.H.R./...H./R.... R")
        assert card.ask(game) and card.won(*game.knights, 0) == 1
        # (one square scorched: the reply table's; two: the search's)
        assert not card.ask(parse_position("R.H../.H.R./..xH./R...x R"))
    else:
        assert card is None
        if have is None:  # not even imported (nor its fold map made): the heap is kept
            assert "attila.opponent.opening" not in sys.modules
    run(board, 3)
    print("OK opening")


def scenario_watchdog():
    wd = microcontroller.watchdog
    try:
        wd.timeout = 9.0
        raise AssertionError("a 9 s watchdog was accepted")
    except ValueError as e:
        assert str(e) == "timeout must be <= 8", e
    from attila.profile import ProfileError

    try:
        start()
        raise AssertionError("a 8500 ms watchdog was accepted")
    except ProfileError as e:
        assert str(e) == ("profile.json: watchdog_ms 8500 is more than CircuitPython on the "
                          "rp2040 accepts (at most 8000)"), e
    print("OK watchdog")


def scenario_collected():
    # Boot's garbage is collected before the loop, not by its first
    # allocation that finds no room (a collection in a loop step).
    done = []

    class Gc:
        def collect(self):
            done.append("collect")

    port.gc = Gc()
    port.run = lambda *_args: done.append("loop")
    reference()
    assert done == ["collect", "loop"], done
    print("OK collected")


def scenario_loop():
    """code.run(): a step sleeps what is left of loop_ms (none after a step of
    loop_ms or more) on a clock wrapping at 2**29, through time.sleep in
    seconds unless a sleep(ms) is given; the watchdog is fed once a step."""

    class Timed:
        console = None

        def __init__(self, spans):
            self.spans = list(spans)
            self.starts = []

        def step(self, now):
            self.starts.append(now)
            clock.sleep(self.spans.pop(0))  # the step's own time
            return False

    top = 1 << 29
    slept = []

    def sleep(ms):
        slept.append(ms)
        clock.sleep(ms)

    supervisor.t[0] = top - 22  # the clock wraps inside the third step
    board = Timed([3, 0, 12, 10, 9])
    port.run(board, 10, hardware.watchdog(5000), 5, clock.now, sleep)
    assert board.starts == [top - 22, top - 12, top - 2, 10, 20], board.starts
    assert slept == [7, 10, 1], slept
    assert microcontroller.watchdog.feeds == 5, microcontroller.watchdog.feeds

    seconds = []

    class Time:
        @staticmethod
        def sleep(s):
            seconds.append(s)
            clock.sleep(round(s * 1000))

    real, port.time = port.time, Time
    try:
        board = Timed([3, 0, 12, 10, 9])
        port.run(board, 10, None, 5, clock.now)
    finally:
        port.time = real
    assert seconds == [0.007, 0.01, 0.001], seconds
    print("OK loop")


def scenario_card():
    # A profile with an sdcard: code.py reads it with busio + sdcardio; a missing
    # or foreign card is said once on the console and shown as trouble.
    board, _chain = reference(3)
    print("troubles: %r" % board.controller.troubles)
    run(board, 3)
    print("OK card")


if __name__ == "__main__":
    with open("profile.json") as f:
        json.load(f)  # the scenario's profile is there
    globals()["scenario_" + sys.argv[1]]()

