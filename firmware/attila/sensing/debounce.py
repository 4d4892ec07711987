"""Per-square debounce of raw sensor scans.

Why it is built this way: docs/pages/inside/design.md (attila/sensing/debounce.py).
"""

from attila.compat import const
from attila.ticks import ticks_diff

HOLD_MS = const(30)  # default time a reading must hold before it is accepted


class Debouncer:
    """Stable occupancy of `size` squares from raw scans.

    update(mask, now_ms) -> stable mask. `ready` turns true once the first
    readings have held for hold_ms, so the first stable mask can be trusted
    even when it is empty. `quiet` is true while nothing is being timed (the
    last reading is the stable state and ready): an update() with that same
    reading would change nothing, so a caller may skip it.
    """

    def __init__(self, size, hold_ms=HOLD_MS):
        if hold_ms < 0:
            raise ValueError("debounce time %r must be >= 0 ms" % hold_ms)
        self.size = size
        self.hold_ms = hold_ms
        self.stable = 0
        self.ready = False
        self.quiet = False
        self._raw = 0
        self._since = [0] * size  # time each square's reading last flipped
        self._start = 0
        self._started = False

    def reset(self, mask=0, now_ms=0):
        """Take `mask` as stable right now (e.g. after a self-test)."""
        self.stable = mask
        self._raw = mask
        self.ready = True
        self.quiet = False  # the next reading is compared with `mask`
        self._started = True
        self._start = now_ms

    def update(self, mask, now_ms):
        """Feed one raw scan (square order); return the stable mask."""
        since = self._since
        if not self._started:
            # Every square's reading starts its clock now.
            self._started = True
            self._start = now_ms
            self._raw = mask
            for i in range(self.size):
                since[i] = now_ms
        flipped = mask ^ self._raw
        if flipped:
            self._raw = mask
            i = 0
            while flipped:
                if flipped & 1:
                    since[i] = now_ms
                flipped >>= 1
                i += 1
        hold = self.hold_ms
        if not self.ready:
            if ticks_diff(now_ms, self._start) < hold:
                return self.stable
            self.ready = True
        diff = mask ^ self.stable
        if diff:
            accept = 0
            bit = 1
            i = 0
            while diff:
                if diff & 1 and ticks_diff(now_ms, since[i]) >= hold:
                    accept |= bit
                diff >>= 1
                bit <<= 1
                i += 1
            self.stable ^= accept
        self.quiet = mask == self.stable
        return self.stable

    def settling(self):
        """Squares whose reading differs from the stable state (still being timed)."""
        return self._raw ^ self.stable
