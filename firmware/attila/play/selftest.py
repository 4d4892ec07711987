"""Self-test: every LED in turn, then a magnet on every square, then a report.

Why it is built this way: docs/pages/inside/design.md (attila/play/selftest.py).
"""

from attila.compat import const
from attila.leds.palette import (
    ERROR,
    FAST_ON,
    FAST_PERIOD,
    GOOD,
    OFF,
    SLOW_ON,
    SLOW_PERIOD,
    TILE,
    lit,
    put,
)
from attila.ticks import ticks_diff

LEDS = const(0)
MAGNETS = const(1)
REPORT = const(2)
STEP_MS = const(150)


def _names(layout, mask):
    out = []
    for i in range(layout.size):
        if mask >> i & 1:
            out.append(layout.names[i])
    return " ".join(out)


class SelfTest:
    """State of one self-test run on a layout."""

    def __init__(self, layout, mask, now, before=0):
        self.layout = layout
        self.phase = LEDS
        self.start = now
        self.before = before  # the controller's mode before the test: back to it after
        self.emptied = ~mask  # squares that have read empty since the test began
        self.mask = mask if mask >= 0 else 0
        self.on = 0  # squares that have read occupied
        self.empty = 0  # squares that have read empty
        self.passed = 0  # read occupied, then empty

    def sense(self, mask, now):
        self.mask = mask
        self.emptied |= ~mask
        if self.phase == MAGNETS:
            self._note(mask)

    def _note(self, mask):
        full = self.layout.all
        self.on |= mask
        self.empty |= full & ~mask
        self.passed |= self.on & ~mask & full
        if self.passed == full:
            self.phase = REPORT

    def press(self, now):
        """A button press; True when the self-test is over."""
        if self.phase == LEDS:
            self._magnets()
            return False
        if self.phase == MAGNETS:
            self.phase = REPORT
            return False
        return True

    def _magnets(self):
        self.phase = MAGNETS
        self._note(self.mask)

    def tick(self, now):
        """Advance the LED sweep; True when the phase changed."""
        if self.phase == LEDS and ticks_diff(now, self.start) >= STEP_MS * 3 * self.layout.size:
            self._magnets()
            return True
        return False

    def dead(self):
        """Squares whose sensor never read occupied."""
        return self.layout.all & ~self.on

    def stuck(self):
        """Squares whose sensor never read empty."""
        return self.layout.all & ~self.empty

    def draw(self, buf, now):
        """Paint the frame (buf is all dark); True when it animates."""
        n = self.layout.size
        if self.phase == LEDS:
            step = ticks_diff(now, self.start) // STEP_MS
            if step < 0:
                step = 0
            sq = step // 3
            if sq < n:
                ch = step % 3
                buf[3 * sq + ch] = 255
            return True
        if self.phase == MAGNETS:
            for i in range(n):
                if not self.passed >> i & 1:
                    put(buf, i, GOOD if self.mask >> i & 1 else TILE)
            return False
        dead = self.dead()
        stuck = self.stuck()
        slow = lit(now, SLOW_PERIOD, SLOW_ON)
        fast = lit(now, FAST_PERIOD, FAST_ON)
        for i in range(n):
            if stuck >> i & 1:
                put(buf, i, ERROR if fast else OFF)
            elif dead >> i & 1:
                put(buf, i, ERROR if slow else OFF)
            else:
                put(buf, i, GOOD)
        return bool(dead | stuck)

    def status(self):
        layout = self.layout
        if self.phase == LEDS:
            return "Self-test: every LED lights red, green, blue in turn (MENU: skip)"
        if self.phase == MAGNETS:
            left = layout.all & ~self.passed
            count = 0
            for i in range(layout.size):
                count += left >> i & 1
            return (
                "Self-test: put a magnet on each lit square and take it off "
                "(%d left; MENU: finish)" % count
            )
        dead = self.dead()
        stuck = self.stuck()
        if not dead and not stuck:
            return "Self-test: all %d sensors work (MENU: leave)" % layout.size
        parts = []
        if dead:
            parts.append("dead sensors (slow red): " + _names(layout, dead))
        if stuck:
            parts.append("stuck sensors (fast red): " + _names(layout, stuck))
        return "Self-test: " + "; ".join(parts) + " (MENU: leave)"
