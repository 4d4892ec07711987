"""A fake `machine` module that records what the firmware drives.

Runs under MicroPython (unix port) and CPython. Pins read their level from a
device attached to their number (see physical.py: a reed-switch board, a
74HC165 chain, a diode matrix, push buttons; a device is told the pin's
pull, as an open switch reads by it), else from `levels`, else from their
pull (none: low, as the RP2040's pads come out of reset pulled down).
Reads, drives, WDT feeds, PWM changes and bitstream writes allocate nothing
(with `history` None), so the firmware's idle loop can run under
micropython.heap_lock().

mem32 answers a read of the RP2040's SIO GPIO_IN (0xd0000004) with every
input pin's level as Pin.value() reads it, and what the firmware drives on
the others.

WDT and PWM refuse what MicroPython's rp2 port refuses (ports/rp2/
machine_wdt.c, machine_pwm.c: a timeout over 8388 ms, up to v1.28 on the
RP2350 too), or its esp32 port with `chip = "esp32"` (a timeout <= 0).
"""

pins = {}  # pin id -> the last Pin made for it
devices = {}  # pin id -> device with read(id, pull) / drive(id, value)
levels = {}  # pin id -> input level when no device answers
watchdogs = []
spis = []
pwms = []
chip = "rp2040"  # "rp2350" (same limits up to MicroPython 1.28) or "esp32"
WDT_MAX_MS = 8388


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self.out = 0
        self.drives = 0  # number of value(v) calls
        self.dev = devices.get(id)
        pins[id] = self
        if value is not None:
            self.value(value)

    def init(self, mode=-1, pull=-1, value=None):
        self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            d = self.dev
            if d is not None:
                return d.read(self.id, self.pulled())
            if self.mode == Pin.OUT:
                return self.out
            return levels.get(self.id, 1 if self.pull == Pin.PULL_UP else 0)
        self.out = 1 if v else 0
        self.drives += 1
        if self.dev is not None:
            self.dev.drive(self.id, self.out)

    def __call__(self, v=None):
        return self.value(v)

    def pulled(self):
        """"up", "down" or None: the pull an undriven input reads by."""
        return "up" if self.pull == Pin.PULL_UP else "down" if self.pull == Pin.PULL_DOWN else None

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class WDT:
    def __init__(self, id=0, timeout=5000):
        if chip == "esp32":
            if timeout <= 0:
                raise ValueError("WDT timeout too short")
        elif not 0 <= timeout <= WDT_MAX_MS:  # rp2: compared as an unsigned 32-bit int
            raise ValueError("timeout exceeds %d" % WDT_MAX_MS)
        self.timeout = timeout
        self.feeds = 0
        watchdogs.append(self)

    def feed(self):
        self.feeds += 1


class SPI:
    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, sck=None, mosi=None, miso=None):
        self.id = id
        self.baudrate = baudrate
        self.polarity = polarity
        self.phase = phase
        self.sck = sck
        self.miso = miso
        self.dev = devices.get(miso.id) if miso is not None else None
        self.reads = 0
        spis.append(self)

    def readinto(self, buf, write=0):
        self.reads += 1
        self.dev.spi_read(buf)


class PWM:
    """machine.PWM with rp2's limits; `history` records every (freq, duty_u16) change."""

    def __init__(self, dest, *, freq=None, duty_u16=None):
        self.pin = dest
        self.f = 0
        self.duty = 0
        self.history = []
        pwms.append(self)
        if freq is not None:
            self.freq(freq)
        if duty_u16 is not None:
            self.duty_u16(duty_u16)

    def freq(self, value=None):
        if value is None:
            return self.f
        if value < 8:  # the divider tops out at 256 at 125 MHz: 7.45 Hz
            raise ValueError("freq too small")
        if value > 62500000:
            raise ValueError("freq too large")
        self.f = value
        if self.history is not None:
            self.history.append((self.f, self.duty))

    def duty_u16(self, value=None):
        if value is None:
            return self.duty
        self.duty = 65535 if value > 65535 else value
        if self.history is not None:
            self.history.append((self.f, self.duty))

    def deinit(self):
        self.duty = 0


class _Bitstream:
    def __init__(self):
        self.count = 0
        self.pin = None
        self.timing = None
        self.last = None
        self.history = []  # copies of every write (None: keep only `last`)

    def __call__(self, pin, encoding, timing, buf):
        assert encoding == 0
        self.count += 1
        self.pin = pin.id
        self.timing = timing
        if self.last is None or len(self.last) != len(buf):
            self.last = bytearray(len(buf))
        self.last[:] = buf
        if self.history is not None:
            self.history.append(bytes(buf))


bitstream = _Bitstream()


class _Mem32:
    GPIO_IN = 0xD0000004

    def __getitem__(self, addr):
        if addr != self.GPIO_IN:
            raise ValueError("fake mem32: only GPIO_IN (0xd0000004) is wired, not 0x%08x" % addr)
        v = 0
        for gpio in range(30):
            p = pins.get(gpio)
            if p is None:
                level = levels.get(gpio, 0)
            elif p.mode == Pin.IN:
                level = p.value()
            else:  # an output (its own level), or a pin another block drives (PIO)
                level = p.out
            if level:
                v |= 1 << gpio
        return v


mem32 = _Mem32()


def reset():
    """Forget every pin, device and recording (between test scenarios)."""
    pins.clear()
    devices.clear()
    levels.clear()
    del watchdogs[:]
    del spis[:]
    del pwms[:]
    bitstream.__init__()
