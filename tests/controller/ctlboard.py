"""A whole board around the real controller, for the controller tests.

The core's own Board (debounce, buttons, LED rendering) with plain fake
hardware: a scanner that reads the pieces on a table, a strip that keeps the
bytes written, buttons that are held or not. The clock steps by the main
loop's period; with `wrap` the board reads it modulo `wrap`, as a board
reads ticks_ms.
"""

from attila.board import Board
from attila.play.controller import Controller
from attila.leds.strip import Leds
from attila.game.modules import compose, place_module
from attila.sensing.debounce import Debouncer
from attila.sensing.wiring import Wiring

LOOP_MS = 10
HAND_MS = 60  # after a hand movement: long enough for the 30 ms debounce


def layout_4x5():
    return compose(
        [
            place_module(1, "2x2", 0, 0, 0),
            place_module(2, "2x2", 0, 2, 0),
            place_module(3, "2x3", 2, 2, 90),
            place_module(4, "2x3", 2, 0, 90),
        ],
        "4x5",
    )


class Rack:
    """A Board on fake hardware: `mask` the pieces, `held` the buttons, `t` the clock."""

    def __init__(self, t=0, wrap=0, controller=None, console=None, sounds=None, **kw):
        self.layout, modules = layout_4x5()
        self.wiring = Wiring(self.layout, modules)
        self.c = controller if controller is not None else Controller(self.layout, **kw)
        self.mask = 0
        self.held = 0
        self.t = t
        self.wrap = wrap
        self.frames = []  # every frame the LEDs were given
        rack = self

        class Scanner:
            def scan(self):
                return rack.wiring.chain(rack.mask)

        class Strip:
            def __init__(self, n):
                self.buf = bytearray(n)

            def write(self):
                rack.frames.append(bytes(rack.c.frame))

        class Buttons:
            def read(self):
                return rack.held

        leds = Leds(self.wiring)
        self.board = Board(self.c, Scanner(), Strip(leds.bytes_needed()), self.wiring,
                           Debouncer(self.layout.size), Buttons(), leds, sounds=sounds,
                           console=console)
        self.step()
        self.run(HAND_MS)

    def now(self):
        return self.t % self.wrap if self.wrap else self.t

    def step(self):
        """One pass of the main loop; True when the LEDs were written."""
        return self.board.step(self.now())

    def run(self, ms):
        """The main loop for ms."""
        end = self.t + ms
        while self.t + LOOP_MS <= end:
            self.t += LOOP_MS
            self.step()

    def bit(self, name):
        return 1 << self.layout.index(name)

    def put(self, name):
        self.mask |= self.bit(name)
        self.run(HAND_MS)

    def lift(self, name):
        self.mask &= ~self.bit(name)
        self.run(HAND_MS)

    def hold(self, button, ms):
        """A button held for ms, then let go."""
        self.held |= 1 << button
        self.run(ms)
        self.held &= ~(1 << button)
        self.run(HAND_MS)

    def press(self, button):
        self.hold(button, 80)
