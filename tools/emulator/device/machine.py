# `machine` on the emulated board: pins that read as the host wires them
# (see _emu_hw.py), a bitstream that records the LED bytes, SPI for a
# 74HC165 chain, a watchdog, reset() that reboots the emulated board.
import _emu_js
import _emu_hw
import _emu_time


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None, **kw):
        self._id = id
        self._mode = self.IN
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None, **kw):
        if mode != -1:
            self._mode = mode
        if pull != -1:
            _emu_hw.pulls[self._id] = "up" if pull == self.PULL_UP else "down" if pull == self.PULL_DOWN else None
        if self._mode == self.OUT:
            _emu_hw.drive(self._id, 0 if value is None else (1 if value else 0))
        elif value is not None:
            _emu_hw.levels[self._id] = 1 if value else 0

    def value(self, v=None):
        if v is None:
            if self._mode == self.OUT:
                return _emu_hw.levels.get(self._id, 0)
            return _emu_hw.read(self._id)
        _emu_hw.drive(self._id, 1 if v else 0)
        return None

    __call__ = value

    def on(self):
        _emu_hw.drive(self._id, 1)

    def off(self):
        _emu_hw.drive(self._id, 0)

    high = on
    low = off

    def toggle(self):
        self.value(0 if self.value() else 1)

    def irq(self, handler=None, trigger=0, **kw):
        return None

    def __repr__(self):
        return "Pin(%r)" % (self._id,)


class Signal:
    def __init__(self, pin, invert=False):
        self._pin = pin
        self._invert = invert

    def value(self, v=None):
        if v is None:
            return self._pin.value() ^ self._invert
        self._pin.value((1 if v else 0) ^ self._invert)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


def bitstream(pin, encoding, timing, buf):
    _emu_hw.led_write(getattr(pin, "_id", pin), buf)


class SPI:
    def __init__(self, id=0, baudrate=1000000, **kw):
        self.id = id

    def init(self, *a, **kw):
        pass

    def readinto(self, buf, write=0):
        data = _emu_hw.spi_read(len(buf))
        for k in range(len(buf)):
            buf[k] = data[k]

    def read(self, n, write=0):
        return bytes(_emu_hw.spi_read(n))

    def write(self, buf):
        pass

    def deinit(self):
        pass


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0, **kw):
        self._pin = pin
        self._freq = freq
        self._duty = duty_u16

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d

    def deinit(self):
        self._duty = 0


class WDT:
    """The watchdog: resets the board unless fed within `timeout` ms (for ever).

    Refuses what the RP2040's does (ports/rp2/machine_wdt.c): over 8388 ms.
    """

    def __init__(self, id=0, timeout=5000):
        if not 0 <= timeout <= 8388:
            raise ValueError("timeout exceeds 8388")
        self.timeout = timeout
        _emu_js.wdtStart(timeout)

    def feed(self):
        _emu_js.wdtFeed()


class ADC:
    def __init__(self, pin, **kw):
        self._pin = pin

    def read_u16(self):
        return 0


def reset():
    _emu_js.reset()
    raise SystemExit


def soft_reset():
    raise SystemExit


def reset_cause():
    return _emu_js.resetCause()


def freq(hz=None):
    return 125000000


def unique_id():
    return b"\xe6\x60\x58\x38\x83\x00\x00\x01"


def idle():
    _emu_time.sleep_ms(1)


def lightsleep(ms=0):
    _emu_time.sleep_ms(ms)


deepsleep = lightsleep


def disable_irq():
    return 0


def enable_irq(state=0):
    pass


PWRON_RESET = 1
WDT_RESET = 3
