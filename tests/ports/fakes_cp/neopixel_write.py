"""Fake CircuitPython `neopixel_write`: records every buffer sent to the LEDs."""

writes = []  # (pin name, bytes)


def neopixel_write(digitalinout, buf):
    writes.append((digitalinout.name, bytes(buf)))
