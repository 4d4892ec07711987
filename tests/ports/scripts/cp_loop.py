"""code.run(), the CircuitPython port's loop, on the fakes (scenarios of cp_port.py).

The cues played on the buzzer note by note, the status line on the USB
serial console (also to a host that holds it open and never reads), and
the loop's pace on a clock that wraps.
"""

import sys

from cp_start import clock, port, reference, run  # first: the fakes' path

import hardware
import microcontroller
import pwmio
import supervisor


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
    run(board, 3)  # status_count unchanged: not printed
    c.status_count += 1
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
        c.status_count += 1
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
