"""Fake CircuitPython `microcontroller`: delay_us and a recording watchdog."""


def delay_us(us):
    pass


class _Watchdog:
    def __init__(self):
        self.timeout = None
        self.mode = None
        self.feeds = 0

    def feed(self):
        self.feeds += 1


watchdog = _Watchdog()


class Pin:
    """Type of board pins (the library names it in annotations)."""
