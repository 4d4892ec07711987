"""CircuitPython bindings: CircuitPython's own scanning, LED write and PWM.

Why it is built this way: docs/pages/inside/design.md (ports/circuitpython/hardware.py).
"""

import time

import board
import digitalio
import keypad
import neopixel_write
import supervisor
from attila.board import PULLS_MS
from attila.sensing.chain import Chain

SCAN_S = 0.005  # keypad scans every 5 ms; attila.sensing.debounce debounces on top


def sleep_ms(ms):
    """Wait (a test may put its clock here)."""
    time.sleep(ms / 1000)


def board_pin(name):
    """The `board` pin of a profile's pin name (numbers mean "GP<n>")."""
    key = name if isinstance(name, str) else "GP%d" % name
    pin = getattr(board, key, None)
    if pin is None:
        raise ValueError("this board has no pin %r (board.%s)" % (name, key))
    return pin


class KeyEvents:
    """A keypad scanner read as bits: key k sets the bits of `bits[k]`.

    scan() (or read()) drains the scanner's event queue into the mask; it
    allocates nothing (EventQueue.get_into fills one Event). On creation and
    after a queue overflow the scanner is reset, which reports every key
    pressed at that moment at once: the first scan is already the truth.
    """

    def __init__(self, keys, bits):
        self.keys = keys
        self._events = keys.events
        self._event = keypad.Event()
        self._bits = tuple(bits)
        self.raw = 0
        sleep_ms(PULLS_MS)
        self._restart()

    def _restart(self):
        self._events.clear()
        self.raw = 0
        self.keys.reset()

    def scan(self):
        events = self._events
        if not events:  # (idle: nothing to read; an overflowed queue is full)
            return self.raw
        if events.overflowed:
            self._restart()
        event = self._event
        bits = self._bits
        raw = self.raw
        while events.get_into(event):
            if event.pressed:
                raw |= bits[event.key_number]
            else:
                raw &= ~bits[event.key_number]
        self.raw = raw
        return raw

    read = scan

    def deinit(self):
        self.keys.deinit()


class Strip:
    """The LED chain through neopixel_write: `buf` is in the LEDs' own order.

    Not through Adafruit's NeoPixel library: its show() ends in the same
    neopixel_write, but the library takes room in a heap the board already
    fills, and CircuitPython's garbage collector then runs in many more loop
    steps (its cost: docs/pages/flash/circuitpython.md).
    """

    def __init__(self, pin, count, bpp=3):
        self._pin = digitalio.DigitalInOut(board_pin(pin))
        self._pin.switch_to_output(value=False)
        self.buf = bytearray(count * bpp)

    def write(self):
        neopixel_write.neopixel_write(self._pin, self.buf)


def strip(profile, count):
    return Strip(profile.led_pin, count, len(profile.led_order))


def _shift_bits(registers):
    """Key -> chain bit of a 74HC165 chain: key 0 is Q7 (input D7) of register 1;
    the byte past the chain (attila.sensing.chain) and the tied inputs set none."""
    bits = []
    base = 0
    for used in registers:
        for n in range(8):
            d = 7 - n
            bits.append(1 << (base + d) if d < used else 0)
        base += used
    return bits + [0] * 8


class ChainKeys(KeyEvents):
    """A 74HC165 chain read by ShiftRegisterKeys, checked as attila.sensing.chain checks
    it: the tied inputs and the byte past the chain arrive as key events too,
    kept as the register bytes they read (`_levels`), and a module that does
    not answer keeps the last good bits from it on, its number above them."""

    def __init__(self, keys, registers, modules, active_low):
        self._check = Chain(registers, modules)
        self._low = active_low  # a pressed key reads low
        self._levels = bytearray(len(registers) + 1)
        self._live = 0  # the chain bits the events say, before the check
        KeyEvents.__init__(self, keys, _shift_bits(registers))

    def _restart(self):
        # keypad takes every key as released, then reports the pressed ones
        released = 0xFF if self._low else 0
        levels = self._levels
        for k in range(len(levels)):
            levels[k] = released
        self._live = 0
        KeyEvents._restart(self)
        self.raw = self._check.held(0, self._check.broken(levels))

    def scan(self):
        events = self._events
        if not events:  # (idle: nothing to read; an overflowed queue is full)
            return self.raw
        if events.overflowed:
            self._restart()
        event = self._event
        bits = self._bits
        levels = self._levels
        low = self._low
        live = self._live
        while events.get_into(event):
            k = event.key_number
            if event.pressed:
                live |= bits[k]
            else:
                live &= ~bits[k]
            if event.pressed != low:  # the input reads high
                levels[k >> 3] |= 0x80 >> (k & 7)
            else:
                levels[k >> 3] &= ~(0x80 >> (k & 7))
        self._live = live
        check = self._check
        self.raw = check.held(live, check.broken(levels))
        return self.raw

    read = scan


def scanner(profile, wiring):
    """The sensors of a profile, read by keypad in the background."""
    profile.check_sensors(wiring)
    kind = profile.sensor_kind
    count = wiring.sensor_bits
    pressed = not profile.active_low
    if kind == "gpio":
        keys = keypad.Keys([board_pin(p) for p in profile.sensor_pins],
                           value_when_pressed=pressed, pull=profile.pull is not None,
                           interval=SCAN_S)
        return KeyEvents(keys, [1 << k for k in range(len(profile.sensor_pins))])
    if kind == "matrix":
        # Rows driven low one at a time, columns pulled up, diodes' cathodes
        # towards the rows: columns_to_anodes. Key = row * len(cols) + col.
        keys = keypad.KeyMatrix([board_pin(p) for p in profile.rows],
                                [board_pin(p) for p in profile.cols],
                                columns_to_anodes=True, interval=SCAN_S)
        n = len(profile.rows) * len(profile.cols)
        return KeyEvents(keys, [1 << k if k < count else 0 for k in range(n)])
    registers = wiring.registers
    keys = keypad.ShiftRegisterKeys(clock=board_pin(profile.clock),
                                    data=board_pin(profile.data),
                                    latch=board_pin(profile.load), value_to_latch=True,
                                    key_count=8 * len(registers) + 8,  # + the byte past
                                    value_when_pressed=pressed, interval=SCAN_S)
    return ChainKeys(keys, registers, wiring.register_modules, profile.active_low)


def buttons(profile):
    """The UNDO/MENU reader (bit 0 undo, bit 1 menu), or None without buttons."""
    pins = [b for b in profile.buttons if b is not None]
    if not pins:
        return None
    keys = keypad.Keys([board_pin(p) for p in pins],
                       value_when_pressed=not profile.buttons_active_low, pull=True,
                       interval=SCAN_S)
    return KeyEvents(keys, [1 << b for b in range(len(profile.buttons))
                            if profile.buttons[b] is not None])


class Buzzer:
    """A passive piezo on a pwmio.PWMOut, silent until tone() is called."""

    def __init__(self, pin):
        import pwmio

        self._pwm = pwmio.PWMOut(board_pin(pin), duty_cycle=0, frequency=1000,
                                 variable_frequency=True)

    def tone(self, hz, duty_u16):
        """Play `hz` (0: silence) at the duty cycle that sets the volume."""
        if hz:
            self._pwm.frequency = hz
        self._pwm.duty_cycle = duty_u16


def buzzer(profile):
    """The buzzer's tone(hz, duty_u16) function."""
    return Buzzer(profile.buzzer).tone


# Milliseconds, wrapping every 2**29: the loop's clock, read twice a loop
# step. The C function itself: a function of ours around it (doing `import
# supervisor`) would cost each call many times the C call's own time.
ticks_ms = supervisor.ticks_ms


class Watchdog:
    """microcontroller.watchdog in RESET mode; feed() is its own (C) method,
    called with no Python call around it every loop step."""

    def __init__(self, timeout_ms):
        from microcontroller import watchdog
        from watchdog import WatchDogMode

        watchdog.timeout = timeout_ms / 1000
        watchdog.mode = WatchDogMode.RESET
        self.feed = watchdog.feed


def sdcard(profile):
    """The profile's microSD card, CircuitPython's sdcardio (readblocks); OSError when empty."""
    import busio
    import sdcardio

    sck, mosi, miso, cs = (board_pin(p) for p in profile.sd_pins)
    return sdcardio.SDCard(busio.SPI(sck, MOSI=mosi, MISO=miso), cs,
                           baudrate=profile.sd_baudrate)


def watchdog(timeout_ms):
    if not timeout_ms:
        return None
    try:
        return Watchdog(timeout_ms)
    except (ImportError, AttributeError, NotImplementedError):
        return None
