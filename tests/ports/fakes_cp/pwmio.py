"""Fake CircuitPython `pwmio.PWMOut` (raspberrypi port's checks); records every change.

`frequency` is writable only with variable_frequency=True (else
AttributeError, as CircuitPython raises); 0 Hz or more than half the CPU
clock is refused; duty_cycle is 16-bit (0..65535, else ValueError).
"""

import digitalio

outputs = []
CPU_HZ = 125000000


class PWMOut:
    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        if frequency == 0 or frequency > CPU_HZ // 2:
            raise ValueError("Invalid PWM frequency")
        self.pin = pin
        self._dio = digitalio.DigitalInOut(pin)  # claims the pin
        self._variable = variable_frequency
        self._frequency = frequency
        self._duty = 0
        self.history = []
        self.duty_cycle = duty_cycle
        outputs.append(self)

    @property
    def duty_cycle(self):
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, value):
        if not 0 <= value <= 0xFFFF:
            raise ValueError("duty_cycle must be 0-65535")
        self._duty = value
        self.history.append((self._frequency, value))

    @property
    def frequency(self):
        return self._frequency

    @frequency.setter
    def frequency(self, value):
        if not self._variable:
            raise AttributeError("Invalid variable_frequency")
        if value == 0 or value > CPU_HZ // 2:
            raise ValueError("Invalid frequency")
        self._frequency = value
        self.history.append((value, self._duty))

    def deinit(self):
        self._dio.deinit()
