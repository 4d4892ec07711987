"""A virtual table for the controller tests: pieces as an occupancy mask, a clock.

Times are whole multiples of 100 ms unless a test sets them, so blink phases
are exact: FAST (400 ms period) is lit at t % 400 in {0, 100}, dark at
{200, 300}; SLOW (1000 ms) is lit at t % 1000 < 500.

A hand movement takes 100 ms; then the hand rests until the squares have
been still for CALM_MS (the board saves and plans then), unless the Table
is made with rest=False (a piece slid across the squares, a quick player).
"""

from attila.play.controller import Controller
from attila.play.presses import BUTTON_MENU, BUTTON_UNDO
from attila.play.settling import CALM_MS
from attila.game.notation import parse_placement, parse_turn
from fakefs import FakeFs, PowerCut  # noqa: F401 (the resume tests take them from here)

DARK = (0, 0, 0)
BLUE = (0, 96, 255)  # Romans
AMBER = (255, 112, 0)  # Huns
BLUE_DIM = (0, 24, 64)
AMBER_DIM = (64, 28, 0)
WHITE = (255, 255, 255)
RED = (255, 0, 0)
GREEN = (0, 255, 0)


class Table:
    """A table of pieces (an occupancy mask) and a clock `t` in ms.

    With `wrap`, the controller reads the clock as a board does: modulo
    `wrap` (2**30 MicroPython's ticks_ms, 2**29 CircuitPython's); `t` keeps
    counting for the test.
    """

    def __init__(self, layout, mask=0, t=0, wrap=0, rest=True, **kw):
        self.layout = layout
        self.c = Controller(layout, **kw)
        self.mask = mask
        self.t = t
        self.wrap = wrap
        self.rests = rest
        self.c.sense(mask, self.now())
        self.c.tick(self.now())

    def now(self):
        """The clock as the controller reads it."""
        return self.t % self.wrap if self.wrap else self.t

    # -- hands ---------------------------------------------------------------
    def bit(self, name):
        return 1 << self.layout.index(name)

    def sense(self):
        self.t += 100
        self.c.sense(self.mask, self.now())
        self.c.tick(self.now())
        if self.rests:
            self.rest()

    def rest(self):
        """The hands keep still until the squares have settled and a search
        under way is done (the loop ticks every 10 ms meanwhile)."""
        self.at(self.t + CALM_MS)
        for _ in range(1000):
            if not self.c.searching:
                break
            self.at(self.t + 10)

    def lift(self, name):
        b = self.bit(name)
        assert self.mask & b, "nothing to lift on " + name
        self.mask &= ~b
        self.sense()

    def put(self, name):
        b = self.bit(name)
        assert not self.mask & b, "square taken: " + name
        self.mask |= b
        self.sense()

    def carry(self, a, b):
        self.lift(a)
        self.put(b)

    def press(self, button):
        """A click: down and up at once (a hold is `hold`)."""
        self.t += 100
        self.c.press(button, self.now())
        self.c.release(button, self.now())
        self.c.tick(self.now())

    def hold(self, button, ms):
        """The button held down for ms, ticking every 100 ms, then released;
        the loop ticks after the release, as after a click (a refused UNDO's
        red flashes, the new game of a long MENU start there)."""
        self.t += 100
        self.c.press(button, self.now())
        end = self.t + ms
        while self.t < end:
            self.at(min(self.t + 100, end))
        self.c.release(button, self.now())
        self.c.tick(self.now())

    def undo(self):
        self.press(BUTTON_UNDO)

    def menu(self):
        self.press(BUTTON_MENU)

    def act(self, text):
        """Carry out a placement or a turn with the hands."""
        if text.startswith("@"):
            self.put(self.layout.names[parse_placement(self.layout, text)])
            return
        a, b, c = parse_turn(self.layout, text)
        names = self.layout.names
        self.carry(names[a], names[b])
        if c >= 0:
            self.put(names[c])

    # -- eyes ------------------------------------------------------------------
    def at(self, t):
        """Move the clock to t (ms) and let the controller animate."""
        assert t >= self.t
        self.t = t
        self.c.tick(self.now())
        return self

    def rgb(self, name):
        k = 3 * self.layout.index(name)
        f = self.c.frame
        return (f[k], f[k + 1], f[k + 2])

    def lit(self):
        """{square name: (r, g, b)} of every lit square."""
        out = {}
        for i, name in enumerate(self.layout.names):
            c = self.rgb(name)
            if c != DARK:
                out[name] = c
        return out

    def squares(self, colour):
        """Names of the squares showing `colour`, in square order."""
        return [n for n in self.layout.names if self.rgb(n) == colour]

    def robot(self):
        """Put the pieces where the controller expects them."""
        self.mask = self.c.expected()
        self.sense()
