"""MicroPython bindings: every pin of a build is made here, from its profile.

The rest of the firmware never names a pin. Pins are machine.Pin; LEDs go
out through MicroPython's `neopixel` module (driver "neopixel") or straight
through machine.bitstream (driver "bitstream"); the sensor back-ends are the
portable ones in attila.scanners; the buzzer is a machine.PWM.
"""

import machine
import time

from attila.scanners import ButtonReader, GpioScanner, MatrixScanner, ShiftScanner

# WS2812B at 800 kHz: (high ns for 0, low for 0, high for 1, low for 1).
_TIMING_800K = (400, 850, 800, 450)


def pin_in(pin, pull=None):
    """An input pin with the pull named "up", "down" or None."""
    p = machine.Pin.PULL_UP if pull == "up" else machine.Pin.PULL_DOWN if pull == "down" else None
    return machine.Pin(pin, machine.Pin.IN, p)  # type: ignore[arg-type]  # stub: pull=None is valid


def pin_out(pin, value=0):
    """An output pin driven to `value`."""
    return machine.Pin(pin, machine.Pin.OUT, value=value)


class NeoPixelStrip:
    """The LED chain through the port's `neopixel` module: .buf is its own buffer."""

    def __init__(self, pin, count, bpp=3):
        import neopixel

        self._np = neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), count, bpp=bpp)
        self.buf = self._np.buf  # wire order: the renderer writes it directly

    def write(self):
        self._np.write()


class BitstreamStrip:
    """The LED chain through machine.bitstream (no neopixel module needed)."""

    def __init__(self, pin, count, bpp=3):
        self._pin = machine.Pin(pin, machine.Pin.OUT, value=0)
        self.buf = bytearray(count * bpp)

    def write(self):
        machine.bitstream(self._pin, 0, _TIMING_800K, self.buf)


def strip(profile, count):
    """The LED strip a profile asks for."""
    bpp = len(profile.led_order)
    if profile.led_driver == "bitstream":
        return BitstreamStrip(profile.led_pin, count, bpp)
    return NeoPixelStrip(profile.led_pin, count, bpp)


def scanner(profile, wiring):
    """The sensor back-end of a profile, reading `wiring.sensor_bits` sensors."""
    profile.check_sensors(wiring)
    kind = profile.sensor_kind
    if kind == "gpio":
        return GpioScanner(
            [pin_in(p, profile.pull) for p in profile.sensor_pins], profile.active_low
        )
    if kind == "matrix":
        return MatrixScanner(
            [pin_out(p, 1) for p in profile.rows],
            [pin_in(p, "up") for p in profile.cols],
            wiring.sensor_bits,
            profile.settle_us,
            time.sleep_us,
        )
    spi = None
    clock = data = None
    if profile.spi is not None:
        spi = machine.SPI(
            profile.spi,
            baudrate=profile.baudrate,
            polarity=0,
            phase=0,
            sck=machine.Pin(profile.clock),
            miso=machine.Pin(profile.data),
        )
    else:
        clock = pin_out(profile.clock, 0)
        data = pin_in(profile.data)
    return ShiftScanner(
        pin_out(profile.load, 1), clock, data, wiring.registers, profile.active_low, spi
    )


def buttons(profile):
    """The button reader, or None when the profile has no buttons."""
    if not profile.buttons or all(b is None for b in profile.buttons):
        return None
    pull = "up" if profile.buttons_active_low else "down"
    return ButtonReader(
        [None if b is None else pin_in(b, pull) for b in profile.buttons],
        profile.buttons_active_low,
    )


class Buzzer:
    """A passive piezo on a PWM pin, silent until tone() is called."""

    def __init__(self, pin):
        self._pwm = machine.PWM(machine.Pin(pin), freq=1000, duty_u16=0)

    def tone(self, hz, duty_u16):
        """Play `hz` (0: silence) at the duty cycle that sets the volume."""
        if hz:
            self._pwm.freq(hz)
        self._pwm.duty_u16(duty_u16)


def buzzer(profile):
    """The buzzer's tone(hz, duty_u16) function."""
    return Buzzer(profile.buzzer).tone


def watchdog(timeout_ms):
    """machine.WDT where the port has one (None otherwise, or with timeout 0)."""
    if not timeout_ms or not hasattr(machine, "WDT"):
        return None
    return machine.WDT(timeout=timeout_ms)
