"""MicroPython bindings: every pin of a build is made here, from its profile.

The rest of the firmware never names a pin. Pins are machine.Pin; LEDs go
out through MicroPython's `neopixel` module (driver "neopixel") or straight
through machine.bitstream (driver "bitstream"); the sensor back-ends are the
portable ones in attila.sensing.scanners, a 74HC165 chain read by hardware SPI or,
on the RP2040/RP2350, by a PIO state machine (PioChain); the buzzer is a
machine.PWM.
"""

import machine
import time
from micropython import const

from attila.sensing.scanners import ButtonReader, GpioScanner, MatrixScanner, ShiftScanner

# WS2812B at 800 kHz: (high ns for 0, low for 0, high for 1, low for 1).
_TIMING_800K = (400, 850, 800, 450)
# RP2040: SIO GPIO_IN, the level of GPIO 0..29 (bits 30, 31 read 0: a small int).
_GPIO_IN = const(0xD0000004)

TYPE_CHECKING = False  # mypy takes it as true: the names asm_pio gives a PIO program
if TYPE_CHECKING:
    from rp2.asm_pio import *  # noqa: F403


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


def levels(profile, pins):
    """levels() -> bit k set while pins[k] reads high, in one register read (RP2040
    only, where GPIO_IN always fits a small int); None elsewhere: read pin by pin.

    Absent pins (None) read low. Runs of consecutive GPIOs cost one shift each.
    """
    if profile.chip != "rp2040" or not hasattr(machine, "mem32"):
        return None
    runs = []  # type: list  # [first GPIO, count, bit]: pins[bit + i] is GPIO first + i
    for k, pin in enumerate(pins):
        if pin is None:
            continue
        if runs and pin == runs[-1][0] + runs[-1][1] and k == runs[-1][2] + runs[-1][1]:
            runs[-1][1] += 1
        else:
            runs.append([pin, 1, k])
    spans = tuple((first, (1 << n) - 1, bit) for first, n, bit in runs)
    mem = machine.mem32
    if len(spans) == 1:
        first, mask, bit = spans[0]

        def one():
            return (mem[_GPIO_IN] >> first & mask) << bit

        return one

    def read():
        # (no for loop, nothing unpacked: a frame of more than 11 slots
        # would come from the heap, see attila.board.Board.step)
        g = mem[_GPIO_IN]
        v = 0
        k = len(spans)
        while k:
            k -= 1
            s = spans[k]
            v |= (g >> s[0] & s[1]) << s[2]
        return v

    return read


def strip(profile, count):
    """The LED strip a profile asks for."""
    bpp = len(profile.led_order)
    if profile.led_driver == "bitstream":
        return BitstreamStrip(profile.led_pin, count, bpp)
    return NeoPixelStrip(profile.led_pin, count, bpp)


_program = []  # type: list  # the assembled PIO program, once


def _hc165_program():
    """The PIO program that reads a 74HC165 chain (rp2 exists on RP2040/RP2350 only).

    Four PIO cycles a bit: at 4 x baudrate, a 1 MHz chain has SH/LD low
    500 ns, CLK high 500 ns and low 500 ns, and QH is sampled 500 ns after
    the CLK rise that moved it (the 74HC165 at 2 V needs 100 ns pulses, 125 ns
    from SH/LD to CLK, and gives QH within 205 ns).
    """
    if _program:
        return _program[0]
    import rp2

    @rp2.asm_pio(set_init=rp2.PIO.OUT_HIGH, sideset_init=rp2.PIO.OUT_LOW,
                 in_shiftdir=rp2.PIO.SHIFT_LEFT, autopush=True, push_thresh=8)
    def hc165():
        pull(block)           .side(0)      # wait for a request: bits - 1
        mov(x, osr)           .side(0)
        set(pins, 0)          .side(0) [1]  # SH/LD low: every register loads
        set(pins, 1)          .side(0) [1]  # SH/LD high: QH = D7 of register 1
        label("bit")
        in_(pins, 1)          .side(0) [1]  # CLK low; sample QH (8 bits a word)
        jmp(x_dec, "bit")     .side(1) [1]  # CLK rises: the chain shifts

    _program.append(hc165)
    return hc165


class PioChain:
    """A 74HC165 chain read by a PIO state machine: readinto(buf) pulses SH/LD and
    shifts in `registers` bytes, D7 first (allocation-free).

    SH/LD is the program's `set` pin, CLK its side-set pin, QH its input: the
    wiring of the bit-banged chain, any pins. `baudrate`: CLK's rate.
    """

    def __init__(self, sm, load, clock, data, registers, baudrate, pull=None):
        import rp2

        self._bits = 8 * registers - 1
        self._sm = rp2.StateMachine(
            sm, _hc165_program(), freq=4 * baudrate, set_base=machine.Pin(load),
            sideset_base=machine.Pin(clock), in_base=pin_in(data, pull))
        self._sm.active(1)
        self._put = self._sm.put  # bound once: called every scan
        self._get = self._sm.get

    def readinto(self, buf):
        self._put(self._bits)
        self._get(buf)


def scanner(profile, wiring):
    """The sensor back-end of a profile, reading `wiring.sensor_bits` sensors."""
    profile.check_sensors(wiring)
    kind = profile.sensor_kind
    if kind == "gpio":
        return GpioScanner(
            [pin_in(p, profile.pull) for p in profile.sensor_pins], profile.active_low,
            levels(profile, profile.sensor_pins),
        )
    if kind == "matrix":
        return MatrixScanner(
            [pin_out(p, 1) for p in profile.rows],
            [pin_in(p, "up") for p in profile.cols],
            wiring.sensor_bits,
            profile.settle_us,
            time.sleep_us,
            levels(profile, profile.cols),
        )
    if profile.pio is not None:
        # (the chain's bytes and the one past it: attila.sensing.chain)
        chain = PioChain(profile.pio, profile.load, profile.clock, profile.data,
                         len(wiring.registers) + 1, profile.baudrate, profile.pull)
        return ShiftScanner(None, None, None, wiring.registers, profile.active_low,
                            reader=chain, modules=wiring.register_modules)
    spi = None
    clock = data = None
    if profile.spi is not None:
        spi = machine.SPI(
            profile.spi,
            baudrate=profile.baudrate,
            polarity=0,
            phase=0,
            sck=machine.Pin(profile.clock),
            miso=pin_in(profile.data, profile.pull),
        )
    else:
        clock = pin_out(profile.clock, 0)
        data = pin_in(profile.data, profile.pull)
    return ShiftScanner(
        pin_out(profile.load, 1), clock, data, wiring.registers, profile.active_low, spi,
        modules=wiring.register_modules,
    )


def buttons(profile):
    """The button reader, or None when the profile has no buttons."""
    if not profile.buttons or all(b is None for b in profile.buttons):
        return None
    pull = "up" if profile.buttons_active_low else "down"
    return ButtonReader(
        [None if b is None else pin_in(b, pull) for b in profile.buttons],
        profile.buttons_active_low,
        levels(profile, profile.buttons),
    )


class Buzzer:
    """A passive piezo on a PWM pin, silent until tone() is called (a piezo disc
    straight from the pin; a magnetic buzzer's ~16 ohm coil needs a transistor)."""

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


def sdcard(profile, feed=None):
    """The profile's microSD card (readblocks); OSError when the slot is empty.
    feed: called while the card starts up (a watchdog's)."""
    from sdspi import SDSpi

    sck, mosi, miso, cs = profile.sd_pins
    # MISO pulled up, as the SD spec asks (a card leaves DO floating until it
    # drives it; the pad's own pull-down would read a silent card as 0x00).
    # The pull is set before the SPI takes the pin: it keeps the pad's pulls.
    data_in = machine.Pin(miso, machine.Pin.IN, machine.Pin.PULL_UP)
    spi = machine.SPI(profile.sd_spi, baudrate=400000, sck=machine.Pin(sck),
                      mosi=machine.Pin(mosi), miso=data_in)
    return SDSpi(spi, pin_out(cs, 1), profile.sd_baudrate, feed)


def watchdog(timeout_ms):
    """machine.WDT where the port has one (None otherwise, or with timeout 0)."""
    if not timeout_ms or not hasattr(machine, "WDT"):
        return None
    return machine.WDT(timeout=timeout_ms)


def radio():
    """True on a board with Wi-Fi (a Pico W, an ESP32): its MicroPython has
    network.WLAN. The RPI_PICO build has no `network` module at all."""
    try:
        import network  # type: ignore[import-not-found]  # (the Pico's stubs: no radio)
    except ImportError:
        return False
    return hasattr(network, "WLAN")
