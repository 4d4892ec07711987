"""What the CPython tests of several folders share (tests/portable's helpers
run on MicroPython too and stay there: check, fakefs)."""

import time

WAIT_S = 120  # what a board or a process must come to, on a loaded machine: nothing is timed


def wait_for(predicate, what, seconds=WAIT_S):
    """The predicate's first true value, asked every 50 ms; it fails only when
    the thing waited for never comes (`what` says what: a string, or a
    function called then)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting for %s" % (what() if callable(what) else what))
