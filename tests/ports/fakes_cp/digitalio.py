"""Fake CircuitPython `digitalio`: pins answer from the devices of physical.py.

Devices are looked up by pin name in the fake machine module's `devices`
(physical.py registers them there), so the same simulated 74HC165 chain,
matrix and switches serve both ports' tests.
"""

import machine

in_use = {}


class Direction:
    INPUT = "input"
    OUTPUT = "output"


class Pull:
    UP = "up"
    DOWN = "down"


class DigitalInOut:
    def __init__(self, pin):
        if pin.name in in_use:
            raise ValueError("%s in use" % pin.name)
        in_use[pin.name] = self
        self.name = pin.name
        self.direction = Direction.INPUT
        self.pull = None
        self._out = False
        self.dev = machine.devices.get(pin.name)

    def switch_to_output(self, value=False, drive_mode=None):
        self.direction = Direction.OUTPUT
        self.value = value

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT
        self.pull = pull

    @property
    def value(self):
        if self.direction == Direction.OUTPUT:
            return self._out
        if self.dev is not None:
            return bool(self.dev.read(self.name, self.pull))
        return self.pull == Pull.UP

    @value.setter
    def value(self, v):
        if self.direction != Direction.OUTPUT:
            raise AttributeError("Cannot set value when direction is input.")
        self._out = bool(v)
        if self.dev is not None:
            self.dev.drive(self.name, 1 if v else 0)

    def deinit(self):
        in_use.pop(self.name, None)
