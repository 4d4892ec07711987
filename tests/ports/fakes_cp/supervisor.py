"""Fake CircuitPython `supervisor`: ticks_ms from a settable clock."""

t = [0]


def ticks_ms():
    return t[0] & 0x1FFFFFFF
