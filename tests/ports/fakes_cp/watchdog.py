"""Fake CircuitPython `watchdog` module."""


class WatchDogMode:
    RAISE = "raise"
    RESET = "reset"
