"""A fake `machine` module that records what the firmware drives.

Runs under MicroPython (unix port) and CPython. Pins read their level from a
device attached to their number (see physical.py: a reed-switch board, a
74HC165 chain, a diode matrix, push buttons), else from `levels`, else from
their pull. Reads, drives, WDT feeds and bitstream writes allocate nothing,
so the firmware's idle loop can run under micropython.heap_lock().
"""

pins = {}  # pin id -> the last Pin made for it
devices = {}  # pin id -> device with read(id) / drive(id, value)
levels = {}  # pin id -> input level when no device answers
watchdogs = []
spis = []


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
                return d.read(self.id)
            if self.mode == Pin.OUT:
                return self.out
            return levels.get(self.id, 1 if self.pull == Pin.PULL_UP else 0)
        self.out = 1 if v else 0
        self.drives += 1
        if self.dev is not None:
            self.dev.drive(self.id, self.out)

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class WDT:
    def __init__(self, id=0, timeout=5000):
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


def reset():
    """Forget every pin, device and recording (between test scenarios)."""
    pins.clear()
    devices.clear()
    levels.clear()
    del watchdogs[:]
    del spis[:]
    bitstream.__init__()
