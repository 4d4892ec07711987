"""Time differences on the board's wrapping millisecond clock.

Every time comparison in the firmware goes through ticks_diff: the clocks
wrap (MicroPython's time.ticks_ms() every 2**30 ms, CircuitPython's
supervisor.ticks_ms() every 2**29 ms, starting 2**16 ms before its first
wrap, on purpose). The difference taken modulo 2**29 is right on both clocks
for any two times less than 2**28 ms apart, the board's longest interval
being seconds; all of it in small ints: nothing is allocated.
"""

from attila.compat import const

_PERIOD = const(0x20000000)  # 2**29: one period of the shorter clock
# (new - old) & TICKS_MASK: the time since `old`, where `new` cannot be
# earlier (a loop that cannot afford a call of ticks_diff: CircuitPython's).
TICKS_MASK = const(0x1FFFFFFF)
_HALF = const(0x10000000)


def ticks_diff(new, old):
    """Signed milliseconds from `old` to `new` (negative when `new` is earlier)."""
    d = (new - old) & TICKS_MASK
    if d >= _HALF:
        d -= _PERIOD
    return d
