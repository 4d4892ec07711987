"""Proof that the idle tick allocates nothing: micropython.heap_lock() around it.

Run by tests/ports/test_micropython_port.py under the MicroPython unix port
(MICROPYPATH=tests/ports/fakes:firmware/ports/micropython:firmware) in a
directory with profile.json (boards/profiles/pico.json) and layout.json.
The board is built by main.build() with the real controller, scanning a fake
74HC165 chain and writing a fake neopixel strip. Any allocation inside the
locked loop raises MemoryError and the script fails.

Three idle states: an empty board at the start of the setup, a game under
way, and two extra pieces on the board (the correction blinks, so the
frame changes and is rendered and written under the lock too). A tune
plays on the buzzer under the lock as well. Last, main.run() itself
(clock, step, watchdog feed, sleep) runs under the lock.
"""

import micropython

import machine
import neopixel
import physical

import main
from attila import profile
from attila.game import layoutfile
from attila.play.controller import Controller

prof = profile.load("profile.json")
prof.sound = 60  # the buzzer on: its notes change under the lock too
layout, modules, tiles = layoutfile.load("layout.json")
chain = physical.HC165Chain(13, 10, 12, 4)
keys = physical.Switches([16, 17])
clock = physical.Clock()

controller = Controller(layout)

board = main.build(prof, layout, modules, tiles, None, controller)
strip = neopixel.strips[0]
strip.history = None  # the recorders must not allocate either
pwm = machine.pwms[0]
pwm.history = None
wdt = machine.WDT(timeout=5000)
step = board.step


def settle(n=20):
    for _ in range(n):
        step(clock.t)
        clock.t += 10


def locked(n):
    """n idle steps under heap_lock; returns the LED writes they made."""
    before = strip.writes
    t = clock.t
    micropython.heap_lock()
    try:
        for _ in range(n):
            step(t)
            wdt.feed()
            t += 10
    finally:
        micropython.heap_unlock()
    clock.t = t
    return strip.writes - before


settle()
w1 = locked(500)

# A knight put on e1 (module 4, D5): a legal setup placement, so the game
# moves on; then idle.
chain.close(3, 5)
settle()
assert len(controller.game.history) == 1, controller.game.history
w2 = locked(500)

# Two more pieces put down in one scan: no single legal action, so the board
# blinks the squares to empty; the frame changes and is rendered and written
# under the lock. (Lifting the knight just placed would take the placement
# back, which is a legal action, not a correction.)
chain.close(0, 0)
chain.close(0, 1)
settle()
w3 = locked(500)

# The game-over tune (four notes) from start to end under the lock.
board.sounds.play(4, clock.t)
assert board.sounds.playing and pwm.f == 1047
locked(100)
assert not board.sounds.playing and pwm.f == 2093 and pwm.duty == 0

# main.run itself (clock, step, watchdog feed, sleep) under the lock too.
now = clock.now
sleep = clock.sleep
feeds = wdt.feeds
micropython.heap_lock()
try:
    main.run(board, 10, wdt, 300, now, sleep)
finally:
    micropython.heap_unlock()
assert wdt.feeds == feeds + 300

print("writes under lock:", w1, w2, w3)
assert w3 > 0, "the correction should blink"
print("OK heap")
