"""CircuitPython bindings: pins through board/digitalio, LEDs through adafruit neopixel.

Every pin of a build is made here from its profile (pin names like "GP22"
are looked up on `board`). The sensor back-ends are the portable ones in
attila.scanners; they want MicroPython-style pins, so digitalio is wrapped
in a two-method adapter.
"""

import board
import digitalio
import neopixel

from attila.scanners import ButtonReader, GpioScanner, MatrixScanner, ShiftScanner

try:
    from microcontroller import delay_us as _delay_us
except ImportError:  # Blinka on a host

    def _delay_us(us):
        pass


def board_pin(name):
    """The `board` pin of a profile's pin name (numbers mean "GP<n>")."""
    key = name if isinstance(name, str) else "GP%d" % name
    pin = getattr(board, key, None)
    if pin is None:
        raise ValueError("this board has no pin %r (board.%s)" % (name, key))
    return pin


class Pin:
    """digitalio.DigitalInOut with MicroPython's value() / value(v)."""

    def __init__(self, name, output=False, pull=None, value=0):
        self.io = digitalio.DigitalInOut(board_pin(name))
        if output:
            self.io.switch_to_output(value=bool(value))
        else:
            p = (
                digitalio.Pull.UP
                if pull == "up"
                else digitalio.Pull.DOWN
                if pull == "down"
                else None
            )
            self.io.switch_to_input(pull=p)

    def value(self, v=None):
        if v is None:
            return 1 if self.io.value else 0
        self.io.value = bool(v)


class Strip:
    """The LED chain through adafruit-circuitpython-neopixel.

    The renderer writes `buf` in chain order, colour order RGB (RGBW); the
    library puts the channels in the LEDs' own order (pixel_order) and hands
    the bytes to neopixel_write. Brightness stays 1.0 there: attila.leds has
    already applied brightness and the power cap.
    """

    def __init__(self, pin, count, order="GRB"):
        self.bpp = len(order)
        self.np = neopixel.NeoPixel(
            board_pin(pin),
            count,
            bpp=self.bpp,
            brightness=1.0,
            auto_write=False,
            pixel_order=order,
        )
        self.count = count
        self.buf = bytearray(count * self.bpp)

    def write(self):
        buf = self.buf
        np = self.np
        if self.bpp == 3:
            for i in range(self.count):
                j = 3 * i
                np[i] = buf[j] << 16 | buf[j + 1] << 8 | buf[j + 2]
        else:
            for i in range(self.count):
                j = 4 * i
                np[i] = (buf[j], buf[j + 1], buf[j + 2], buf[j + 3])
        np.show()


def render_order(profile):
    """Colour order the renderer uses for this port's strip buffer."""
    return "RGBW" if len(profile.led_order) == 4 else "RGB"


def strip(profile, count):
    return Strip(profile.led_pin, count, profile.led_order)


def scanner(profile, wiring):
    profile.check_sensors(wiring)
    kind = profile.sensor_kind
    if kind == "gpio":
        return GpioScanner(
            [Pin(p, pull=profile.pull) for p in profile.sensor_pins], profile.active_low
        )
    if kind == "matrix":
        return MatrixScanner(
            [Pin(p, output=True, value=1) for p in profile.rows],
            [Pin(p, pull="up") for p in profile.cols],
            wiring.sensor_bits,
            profile.settle_us,
            _delay_us,
        )
    if profile.spi is not None:
        raise ValueError(
            "%s: sensors.spi: the CircuitPython port reads the 74HC165 chain "
            "bit by bit; remove \"spi\"" % profile.source
        )
    return ShiftScanner(
        Pin(profile.load, output=True, value=1),
        Pin(profile.clock, output=True, value=0),
        Pin(profile.data),
        wiring.registers,
        profile.active_low,
    )


def buttons(profile):
    if not profile.buttons or all(b is None for b in profile.buttons):
        return None
    pull = "up" if profile.buttons_active_low else "down"
    return ButtonReader(
        [None if b is None else Pin(b, pull=pull) for b in profile.buttons],
        profile.buttons_active_low,
    )


def ticks_ms():
    """Milliseconds, wrapping every 2**29 (supervisor.ticks_ms)."""
    import supervisor

    return supervisor.ticks_ms()


class Watchdog:
    """microcontroller.watchdog in RESET mode."""

    def __init__(self, timeout_ms):
        from microcontroller import watchdog
        from watchdog import WatchDogMode

        self._wd = watchdog
        watchdog.timeout = timeout_ms / 1000
        watchdog.mode = WatchDogMode.RESET

    def feed(self):
        self._wd.feed()


def watchdog(timeout_ms):
    if not timeout_ms:
        return None
    try:
        return Watchdog(timeout_ms)
    except (ImportError, AttributeError, NotImplementedError):
        return None
