"""Fake CircuitPython `busio.SPI`: the bus of the microSD card (sdcardio takes it)."""

import digitalio

buses = []


class SPI:
    def __init__(self, clock, MOSI=None, MISO=None):  # noqa: N803 - CircuitPython's names
        # The pins are claimed as CircuitPython does (a pin used twice raises).
        self.pins = [digitalio.DigitalInOut(p) for p in (clock, MOSI, MISO) if p is not None]
        buses.append(self)
