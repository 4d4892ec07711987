"""Fake CircuitPython `neopixel_write`: records every buffer sent to the LEDs."""

import digitalio

writes = []  # (pin name, bytes)


def neopixel_write(digitalinout, buf):
    if not isinstance(digitalinout, digitalio.DigitalInOut):
        raise TypeError("digitalinout must be of type DigitalInOut")
    if digitalinout.name not in digitalio.in_use:
        raise ValueError("Object has been deinitialized and can no longer be used.")
    writes.append((digitalinout.name, bytes(buf)))
