"""Hardware profiles: which pins, which sensor wiring, which LEDs (boards/profiles/README.md).

parse() checks every field, a section at a time, and raises ProfileError
naming the file and the field; nothing is half-read. What the chip under
its port would refuse at boot (a watchdog too long, an internal pull-down
on the RP2350) is refused here, on the computer as on the board.
"""

from attila.compat import const
from attila.datafile import decode, read_text
from attila.errors import AttilaError
from attila.leds.strip import BUDGET_MA, IDLE_MA, MA_PER_CHANNEL, ORDERS, Leds
from attila.opponent.levels import BUDGET_MS, LEVEL_NAMES
from attila.pins import problem, same, spelling
from attila.sensing.debounce import HOLD_MS, Debouncer
from attila.sensing.wiring import Wiring, check_order


class ProfileError(AttilaError):
    """A hardware profile that cannot be used."""


PORTS = ("micropython", "circuitpython")
CHIPS = ("rp2040", "rp2350", "esp32", "other")
KINDS = ("gpio", "matrix", "74hc165")
DRIVERS = ("neopixel", "bitstream")
_TOP = ("name", "description", "port", "chip", "board", "leds", "sensors", "buttons",
        "buzzer", "sound", "loop_ms", "watchdog_ms", "game", "sdcard", "notes")
SETTLE_US = const(100)  # matrix: wait after driving a row (docs/pages/build/wiring.md)
# 74HC165 read by PIO: its QH is valid 205 ns after CLK rises (2.0 V, 85 degC),
# and the state machine samples it half a clock period later.
PIO_BAUDRATE_MAX = const(2000000)
PIO_MACHINES = {"rp2040": 8, "rp2350": 12}  # state machines: 4 per PIO block
WATCHDOG_SPARE_MS = const(1000)  # a blocking decision leaves the watchdog this much

_LEDS = ("pin", "order", "driver", "brightness", "budget_ma", "ma_per_channel", "idle_ma",
         "offset", "local_order")
_SENSORS = {
    "gpio": ("kind", "pins", "active_low", "pull", "debounce_ms", "local_order"),
    "matrix": ("kind", "rows", "cols", "settle_us", "debounce_ms", "local_order"),
    "74hc165": ("kind", "load", "clock", "data", "pull", "spi", "pio", "baudrate",
                "active_low", "debounce_ms", "local_order"),
}
_BUTTONS = ("undo", "menu", "active_low", "debounce_ms")
_GAME = ("computer", "level", "budget_ms", "coach")
_SDCARD = ("spi", "sck", "mosi", "miso", "cs", "baudrate")
SD_BAUDRATE = const(10000000)  # SPI clock of the card once it is up (it starts at 400 kHz)
SD_MA = const(100)  # a microSD card reading draws 20-100 mA: off the LEDs' budget_ma


def watchdog_max(port, chip):
    """Longest watchdog_ms the port accepts on the chip (the reasons:
    docs/pages/inside/design.md, attila/profile.py)."""
    if chip in ("rp2040", "rp2350"):
        return 8000 if port == "circuitpython" else 8388
    return 60000


class Profile:
    """A checked hardware profile; fields as attributes (see boards/profiles/README.md)."""

    def wiring(self, layout, modules):
        """The Wiring of a layout's modules under this profile's local orders."""
        try:
            return Wiring(layout, modules, self.led_local, self.sensor_local, self.led_offset)
        except AttilaError as e:
            raise ProfileError("%s: %s" % (self.source, e))

    def check_sensors(self, wiring):
        """ProfileError unless the profile's sensor pins can read every square of the wiring."""
        n = wiring.sensor_bits
        if self.sensor_kind == "gpio" and len(self.sensor_pins) != n:
            raise ProfileError("%s: sensors.pins lists %d pins; the layout has %d squares"
                               % (self.source, len(self.sensor_pins), n))
        if self.sensor_kind == "matrix" and len(self.rows) * len(self.cols) < n:
            raise ProfileError("%s: a %dx%d matrix cannot read %d squares"
                               % (self.source, len(self.rows), len(self.cols), n))

    def leds(self, wiring, order=None):
        """The LED renderer (colour order, unless the port's buffer wants its own)."""
        try:
            return Leds(wiring, order or self.led_order, self.brightness, self.budget_ma,
                        self.ma_per_channel, self.idle_ma)
        except ValueError as e:
            raise ProfileError("%s: leds: %s" % (self.source, e))

    def debouncer(self, size):
        """The square debouncer with the profile's hold time."""
        return Debouncer(size, self.debounce_ms)


def _fail(where, msg):
    raise ProfileError("%s: %s" % (where, msg))


def _keys(where, data, known):
    if not isinstance(data, dict):
        _fail(where, "must be an object {...}")
    for key in data:
        if key not in known:
            _fail(where, "unknown field %r (known: %s)" % (key, ", ".join(known)))


def _int(where, data, key, default, lo, hi):
    v = data.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        _fail(where, "%s must be a whole number %d..%d, not %r" % (key, lo, hi, v))
    return v


def _bool(where, data, key, default):
    v = data.get(key, default)
    if not isinstance(v, bool):
        _fail(where, "%s must be true or false, not %r" % (key, v))
    return v


def _pin(where, value, key, p):
    """A pin of the profile `p` (its port and chip known), written as its port names one."""
    if isinstance(value, bool) or not (
        (isinstance(value, int) and 0 <= value <= 255)
        or (isinstance(value, str) and value)
    ):
        _fail(where, "%s must be a pin number or name, not %r" % (key, value))
    why = spelling(p.port, p.chip, value)
    if why:
        _fail(where, "%s: %s" % (key, why))
    return value


def _need(where, data, key):
    if key not in data:
        _fail(where, "needs %r" % key)
    return data[key]


def _pins(where, data, key, p):
    v = _need(where, data, key)
    if not isinstance(v, list) or not v:
        _fail(where, "%s must be a non-empty list of pins" % key)
    return tuple(_pin(where, x, "%s[%d]" % (key, i), p) for i, x in enumerate(v))


def _local(where, data):
    v = data.get("local_order")
    if v is None:
        return None
    if not isinstance(v, dict):
        _fail(where, 'local_order must be an object like {"2x3": [0, 1, 3, 2, 4, 5]}')
    out = {}
    for kind, order in v.items():
        key = 'local_order["%s"]' % kind
        if not isinstance(order, list) or any(
            isinstance(x, bool) or not isinstance(x, int) for x in order
        ):
            _fail(where, "%s must be a list of local indices" % key)
        try:
            out[kind] = check_order(order, len(order), key)
        except AttilaError as e:
            raise ProfileError("%s: %s" % (where, e))
    return out


def parse(data, source="profile"):
    """Profile from decoded JSON; ProfileError says which file and field is wrong."""
    _keys(source, data, _TOP)
    p = Profile()
    p.source = source
    _port(source, data, p)
    _leds(source + ": leds", _need(source, data, "leds"), p)
    sensors = _need(source, data, "sensors")
    _sensors(source + ": sensors", sensors, p)
    _buttons(source + ": buttons", data.get("buttons"), p)
    _sdcard(source + ": sdcard", data.get("sdcard"), p, p.port == "circuitpython")
    if p.sdcard:  # the card draws from the supply the LEDs share: its share comes off theirs
        if p.budget_ma < 2 * SD_MA:
            _fail(source + ": leds", "budget_ma %d leaves the LEDs %d mA beside the microSD "
                  "card's %d mA: give at least %d" % (p.budget_ma, p.budget_ma - SD_MA, SD_MA,
                                                      2 * SD_MA))
        p.budget_ma -= SD_MA
    _sound(source, data, p)
    _once(source, p)
    _check_pins(source, p)
    if p.port == "circuitpython" and p.sensor_kind == "74hc165":
        _external_pull(source + ": sensors", sensors, p)
    _timing(source, data, p)
    _game(source + ": game", data.get("game", {}), p)
    longest = p.watchdog_ms - WATCHDOG_SPARE_MS
    if p.watchdog_ms and p.budget_ms > longest:
        _fail(source + ": game", "budget_ms %d does not fit the %d ms watchdog: the board "
              "may think that long without feeding it (a blocking decision); %s"
              % (p.budget_ms, p.watchdog_ms, "at most %d" % longest if longest >= 100 else
                 "the watchdog needs %d ms or more" % (100 + WATCHDOG_SPARE_MS)))
    return p


def _port(source, data, p):
    """The profile's name, port, board and chip."""
    name = data.get("name", "")
    if not isinstance(name, str):
        _fail(source, "name must be a string")
    p.name = name
    p.port = data.get("port", "micropython")
    if p.port not in PORTS:
        _fail(source, "port must be one of %s, not %r" % (", ".join(PORTS), p.port))
    p.model = data.get("board", "")  # the microcontroller board's name, as its maker gives it
    if not isinstance(p.model, str):
        _fail(source, "board must be a string")
    p.chip = data.get("chip", _chip(p.model))
    if p.chip not in CHIPS:
        _fail(source, "chip must be one of %s, not %r" % (", ".join(CHIPS), p.chip))


def _leds(where, leds, p):
    """The LED chain: its pin, colour order, driver, brightness and power."""
    cp = p.port == "circuitpython"
    _keys(where, leds, _LEDS)
    p.led_pin = _pin(where, _need(where, leds, "pin"), "pin", p)
    p.led_order = leds.get("order", "GRB")
    if p.led_order not in ORDERS:
        _fail(where, "order must be one of %s, not %r" % (", ".join(ORDERS), p.led_order))
    p.led_driver = leds.get("driver", "neopixel")
    if p.led_driver not in DRIVERS:
        _fail(where, "driver must be one of %s, not %r" % (", ".join(DRIVERS), p.led_driver))
    if cp and "driver" in leds:
        _fail(where, "driver is for MicroPython; CircuitPython writes the LEDs "
                     "with neopixel_write")
    p.brightness = _int(where, leds, "brightness", 255, 0, 255)
    p.budget_ma = _int(where, leds, "budget_ma", BUDGET_MA, 1, 100000)
    p.ma_per_channel = _int(where, leds, "ma_per_channel", MA_PER_CHANNEL, 1, 1000)
    p.idle_ma = _int(where, leds, "idle_ma", IDLE_MA, 0, 100)
    p.led_offset = _int(where, leds, "offset", 0, 0, 64)
    p.led_local = _local(where, leds)


def _sensors(where, sensors, p):
    """The reed switches: their kind and its pins."""
    if not isinstance(sensors, dict):
        _fail(where, "must be an object {...}")
    kind = sensors.get("kind")
    if kind not in KINDS:
        _fail(where, "kind must be one of %s, not %r" % (", ".join(KINDS), kind))
    _keys(where, sensors, _SENSORS[kind])
    p.sensor_kind = kind
    p.debounce_ms = _int(where, sensors, "debounce_ms", HOLD_MS, 0, 1000)
    p.sensor_local = _local(where, sensors)
    p.active_low = _bool(where, sensors, "active_low", True)
    p.sensor_pins = ()
    p.pull = None
    p.rows = p.cols = ()
    p.settle_us = 0
    p.load = p.clock = p.data = None
    p.spi = None
    p.pio = None
    p.baudrate = 1000000
    if kind == "gpio":
        p.sensor_pins = _pins(where, sensors, "pins", p)
        _pull(where, sensors, p, "an open switch")
    elif kind == "matrix":
        _matrix(where, sensors, p)
    else:
        _chain(where, sensors, p)


def _matrix(where, sensors, p):
    """A row/column matrix with diodes."""
    p.rows = _pins(where, sensors, "rows", p)
    p.cols = _pins(where, sensors, "cols", p)
    if p.port == "circuitpython" and "settle_us" in sensors:
        _fail(where, "settle_us is for MicroPython: CircuitPython's keypad.KeyMatrix "
                     "reads a row about 1 us after driving it (see the docs, "
                     "docs/pages/build/wiring.md: short wires or 2.2 kOhm pull-ups on "
                     "the columns)")
    p.settle_us = _int(where, sensors, "settle_us", SETTLE_US, 0, 10000)
    p.active_low = True  # rows driven low one at a time, columns pulled up


def _chain(where, sensors, p):
    """A chain of 74HC165, read by bit-banging, SPI or PIO."""
    cp = p.port == "circuitpython"
    p.load = _pin(where, _need(where, sensors, "load"), "load", p)
    p.clock = _pin(where, _need(where, sensors, "clock"), "clock", p)
    p.data = _pin(where, _need(where, sensors, "data"), "data", p)
    # QH with no cable (unplugged, loose) must not float: pulled to "empty".
    if not cp:
        _pull(where, sensors, p, "a chain with its cable unplugged")
    spi = sensors.get("spi")
    if spi is not None:
        spi = _int(where, sensors, "spi", 0, 0, 3)
        if cp:
            _fail(where, "spi is for MicroPython: CircuitPython reads the 74HC165 chain "
                         "with keypad.ShiftRegisterKeys; remove \"spi\"")
    p.spi = spi
    p.baudrate = _int(where, sensors, "baudrate", 1000000, 1000, 50000000)
    pio = sensors.get("pio")
    if pio is not None:
        if cp:
            _fail(where, "pio is for MicroPython: CircuitPython reads the 74HC165 chain "
                         "with keypad.ShiftRegisterKeys; remove \"pio\"")
        if p.chip not in PIO_MACHINES:
            _fail(where, "pio needs an RP2040 or RP2350, not chip %r; remove \"pio\" "
                         "(or use \"spi\")" % p.chip)
        if spi is not None:
            _fail(where, "spi and pio both given: the chain is read by one of them")
        pio = _int(where, sensors, "pio", 0, 0, PIO_MACHINES[p.chip] - 1)
        if p.baudrate > PIO_BAUDRATE_MAX:
            _fail(where, "baudrate %d is too fast for the 74HC165 chain read by PIO: "
                         "at most %d (QH is valid 205 ns after CLK rises)"
                  % (p.baudrate, PIO_BAUDRATE_MAX))
    p.pio = pio


def _buttons(where, buttons, p):
    """UNDO and MENU (none: a board without buttons)."""
    p.buttons = ()
    p.buttons_active_low = True
    p.button_debounce_ms = HOLD_MS
    if buttons is None:
        return
    _keys(where, buttons, _BUTTONS)
    # Index = the controller's button number: 0 undo, 1 menu.
    p.buttons = tuple(
        None if buttons.get(k) is None else _pin(where, buttons[k], k, p)
        for k in ("undo", "menu")
    )
    p.buttons_active_low = _bool(where, buttons, "active_low", True)
    p.button_debounce_ms = _int(where, buttons, "debounce_ms", HOLD_MS, 0, 1000)
    if not p.buttons_active_low:
        _pull_down(where, p, "active_low false (buttons to 3V3, internal pull-downs)",
                   "and set active_low true")


def _sound(source, data, p):
    """The buzzer's pin and the sound's volume."""
    p.buzzer = data.get("buzzer")
    if p.buzzer is not None:
        p.buzzer = _pin(source, p.buzzer, "buzzer", p)
    sound = data.get("sound", False)
    if sound is True:
        sound = 100
    elif sound is False:
        sound = 0
    elif isinstance(sound, bool) or not isinstance(sound, int) or not 0 <= sound <= 100:
        _fail(source, "sound must be true, false or a volume 0..100, not %r" % (sound,))
    if sound and p.buzzer is None:
        _fail(source, "sound needs a buzzer pin (\"buzzer\": 18)")
    p.sound = sound


def _once(source, p):
    """Every pin the profile names is used once (22 and "GP22" are one GPIO)."""
    used = list(p.sensor_pins) + list(p.rows) + list(p.cols)
    used += [x for x in (p.load, p.clock, p.data) if x is not None]
    used += [b for b in p.buttons if b is not None]
    used += list(p.sd_pins)
    if p.buzzer is not None:
        used.append(p.buzzer)
    used.append(p.led_pin)
    seen = []  # type: list
    for pin in used:
        if same(pin) in seen:
            first = used[seen.index(same(pin))]
            _fail(source, "pin %r is used twice%s" % (
                pin, "" if first == pin else " (as %r too: the same GPIO)" % (first,)))
        seen.append(same(pin))


def _timing(source, data, p):
    """The loop's period and the watchdog's, as the chip under its port accepts them."""
    cp = p.port == "circuitpython"
    p.loop_ms = _int(source, data, "loop_ms", 10, 1, 1000)
    p.watchdog_ms = _int(source, data, "watchdog_ms", 0, 0, 60000)
    if p.watchdog_ms and p.watchdog_ms < 10 * p.loop_ms:
        _fail(source, "watchdog_ms %d is too short for loop_ms %d (at least 10 loops)"
              % (p.watchdog_ms, p.loop_ms))
    most = watchdog_max(p.port, p.chip)
    if p.watchdog_ms > most:
        _fail(source, "watchdog_ms %d is more than %s on the %s accepts (at most %d)"
              % (p.watchdog_ms, "CircuitPython" if cp else "MicroPython", p.chip, most))


def _chip(model):
    """The chip a microcontroller board's name implies (else the RP2040)."""
    name = model.lower()
    if "2350" in name or "pico 2" in name or "pico2" in name:
        return "rp2350"
    if "esp32" in name:
        return "esp32"
    return "rp2040"


def _pull(where, sensors, p, what):
    """The inputs' internal pull: by default the one an empty square reads as."""
    p.pull = sensors.get("pull", "up" if p.active_low else "down")
    if p.pull not in ("up", "down", None):
        _fail(where, 'pull must be "up", "down" or null, not %r' % (p.pull,))
    if p.pull == ("down" if p.active_low else "up"):
        _fail(where, 'pull "%s" with active_low %s: %s would read closed; '
              'use "%s" or null (external resistors)'
              % (p.pull, "true" if p.active_low else "false", what,
                 "up" if p.active_low else "down"))
    if p.pull == "down":
        _pull_down(where, p, 'pull "down"', "or add external pull-downs of 8.2 kOhm "
                   "or less and set pull null")


def _external_pull(where, sensors, p):
    """CircuitPython's keypad.ShiftRegisterKeys sets the data pin PULL_NONE
    (shared-module/keypad/ShiftRegisterKeys.c): only a resistor on the board
    keeps QH from floating, so the profile must say pull null."""
    if "pull" in sensors and sensors["pull"] is None:
        return
    to = ("up", "3V3") if p.active_low else ("down", "GND")
    asked = ('"%s"' % sensors["pull"] if isinstance(sensors.get("pull"), str)
             else repr(sensors["pull"]) if "pull" in sensors else '(default "%s")' % to[0])
    _fail(where, 'pull %s: CircuitPython\'s keypad.ShiftRegisterKeys cannot pull the data pin '
          '%r (it leaves it floating: phantom pieces with the cable out); wire a 10 kOhm '
          'pull-%s from it to %s and set "pull": null' % (asked, p.data, to[0], to[1]))


def check_pins(p, model):
    """ProfileError unless the pins suit the microcontroller board `model` too
    (the one a computer found: a profile for a Pico used on a Pico W)."""
    _check_pins(p.source, p, model)


def _check_pins(source, p, model=None):
    """Every pin one the chip has and its microcontroller board leaves free (attila.pins)."""
    model = p.model if model is None else model
    roles = [("leds", p.led_pin, True, False), ("buzzer", p.buzzer, True, False)]
    roles += [("sensors", x, True, False) for x in (p.load, p.clock) + p.rows]
    roles += [("sensors", x, False, p.pull is not None) for x in (p.data,) + p.sensor_pins]
    roles += [("sensors", x, False, True) for x in p.cols]
    roles += [("buttons", x, False, True) for x in p.buttons]
    sd = p.sd_pins  # (sck, mosi, miso, cs): MISO is the card's output
    roles += [("sdcard", x, k != 2, False) for k, x in enumerate(sd)]
    for section, pin, output, pull in roles:
        if pin is not None:
            why = problem(p.chip, model, pin, output, pull)
            if why:
                _fail("%s: %s" % (source, section), why)


def _pull_down(where, p, what, fix):
    """Refuse an internal pull-down on the RP2350 (erratum RP2350-E9)."""
    if p.chip == "rp2350":
        _fail(where, "%s: the RP2350's internal pull-downs do not hold an input low "
                     "(erratum RP2350-E9); wire to GND with pull-ups %s" % (what, fix))


def _sdcard(where, data, p, cp):
    """The microSD card with the solved game (attila.opponent.card), on its own SPI bus."""
    p.sdcard = data is not None
    p.sd_spi = None
    p.sd_pins = ()
    p.sd_baudrate = SD_BAUDRATE
    if data is None:
        return
    _keys(where, data, _SDCARD)
    p.sd_pins = tuple(_pin(where, _need(where, data, k), k, p)
                      for k in ("sck", "mosi", "miso", "cs"))
    if cp:
        if "spi" in data:
            _fail(where, "spi is for MicroPython: CircuitPython finds the bus from the pins; "
                         "remove \"spi\"")
    else:
        p.sd_spi = _int(where, data, "spi", 0, 0, 3)
        _need(where, data, "spi")
    p.sd_baudrate = _int(where, data, "baudrate", SD_BAUDRATE, 100000, 50000000)


def _game(where, data, p):
    """The board's own side and the opponent's strength (hints use it too)."""
    _keys(where, data, _GAME)
    who = data.get("computer", "none")
    if who not in ("R", "H", "none"):
        _fail(where, "computer must be \"R\", \"H\" or \"none\", not %r" % (who,))
    p.computer = "RH".find(who) if who != "none" else -1
    level = data.get("level", "strong")
    if level not in LEVEL_NAMES:
        _fail(where, "level must be one of %s, not %r" % (", ".join(LEVEL_NAMES), level))
    p.level = LEVEL_NAMES.index(level)
    p.budget_ms = _int(where, data, "budget_ms", BUDGET_MS, 100, 30000)
    p.coach = _bool(where, data, "coach", False)


def loads(text, source="profile"):
    """Profile from JSON text."""
    return parse(decode(text, source, ProfileError), source)


def load(path):
    """Read a profile file; errors name the file."""
    return loads(read_text(path, ProfileError), path)
