"""main.run(), the MicroPython port's loop, on the fakes (scenarios of mpy_port.py).

The cues played on the buzzer note by note, the status line on the serial
console (also to a host that never reads it), and the loop's pace while a
search is under way.
"""

import sys

import machine
import physical

import main
from mpy_start import reference


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
    # The status line goes to the serial console when `status_count` changes.
    board, clock = reference(3)
    c = board.controller
    c.words = "Huns: place a knight"
    main.run(board, 10, None, 3, clock.now, clock.sleep)  # status_count unchanged: not printed
    c.status_count += 1
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
        c.status_count += 1
        main.run(board, 10, None, 1, clock.now, clock.sleep)
    sys.stderr.write("OK console, %d lines dropped\n" % board.console.dropped)


def scenario_thinking():
    # main.run: while a search is under way the next step follows at once,
    # unless the step wrote the LEDs; at rest it sleeps out the 10 ms loop.
    clock = physical.Clock()
    busy = (False, True, True, True, False)  # the plan, after each step
    wrote = (False, False, True, False, False)
    slept = []

    class Board:
        console = None
        k = 0
        searching = False

        def step(self, now_ms):
            k = self.k
            clock.t += 3  # the step's own time
            self.searching = busy[k]
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
