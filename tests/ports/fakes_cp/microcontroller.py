"""Fake CircuitPython `microcontroller`: delay_us and the watchdog of the raspberrypi port.

watchdog.timeout refuses a negative value and, as the raspberrypi port
checks the float as an int, anything from 9 s up ("timeout must be <= 8");
mode RAISE is not implemented there.
"""


def delay_us(us):
    pass


class _Watchdog:
    def __init__(self):
        self._timeout = 0.0
        self._mode = None
        self.feeds = 0

    @property
    def mode(self):
        return self._mode

    @mode.setter
    def mode(self, value):
        from watchdog import WatchDogMode

        if value == WatchDogMode.RAISE:
            raise NotImplementedError()
        self._mode = value

    @property
    def timeout(self):
        return self._timeout

    @timeout.setter
    def timeout(self, value):
        if int(value) < 0:
            raise ValueError("timeout must be >= 0")
        if int(value) > 8:
            raise ValueError("timeout must be <= 8")
        self._timeout = value

    def feed(self):
        self.feeds += 1


watchdog = _Watchdog()
nvm = bytearray(b"\xff" * 4096)  # microcontroller.nvm: a bytearray-like of 4 KB


class Pin:
    """Type of board pins (the library names it in annotations)."""
