"""Hardware profiles: the shipped ones work with every layout; bad ones say where."""

import glob
import json
import os

import pytest

from attila.game import layoutfile
from attila.errors import AttilaError
from attila.profile import ProfileError, load, loads, parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROFILES = sorted(glob.glob(os.path.join(ROOT, "boards", "profiles", "*.json")))
LAYOUTS = sorted(glob.glob(os.path.join(ROOT, "boards", "*.json")))

MINIMAL = {
    "leds": {"pin": 22},
    "sensors": {"kind": "74hc165", "load": 13, "clock": 10, "data": 12},
}


def test_profiles_are_shipped():
    names = {os.path.basename(p) for p in PROFILES}
    for want in ("pico.json", "pico2.json", "esp32.json", "pico-matrix.json",
                 "pico-direct.json", "circuitpython-pico.json"):
        assert want in names


@pytest.mark.parametrize("path", PROFILES, ids=os.path.basename)
def test_shipped_profile_with_every_layout(path):
    p = load(path)
    assert p.name == os.path.basename(path)[:-5]
    assert p.budget_ma <= 500  # USB 2.0
    for lpath in LAYOUTS:
        layout, modules, _ = layoutfile.load(lpath)
        w = p.wiring(layout, modules)
        leds = p.leds(w)
        assert w.led_count == layout.size + p.led_offset
        assert sorted(w.sensor_square) == list(range(layout.size))
        white = bytearray(b"\xff" * 3 * layout.size)
        buf = bytearray(leds.bytes_needed())
        leds.render(white, buf)
        assert leds.current_ma(buf) <= p.budget_ma


def test_pico_reference_fields():
    p = load(os.path.join(ROOT, "boards", "profiles", "pico.json"))
    assert p.port == "micropython"
    assert (p.sensor_kind, p.load, p.clock, p.data, p.spi) == ("74hc165", 13, 10, 12, None)
    assert (p.led_pin, p.led_order, p.led_driver) == (22, "GRB", "neopixel")
    assert p.buttons == (16, 17) and p.buzzer == 18
    assert (p.debounce_ms, p.loop_ms, p.watchdog_ms) == (30, 10, 5000)


def test_defaults():
    p = parse(MINIMAL, "x.json")
    assert (p.led_order, p.brightness, p.budget_ma, p.ma_per_channel, p.idle_ma) == (
        "GRB", 255, 400, 20, 1)
    assert p.buttons == () and p.buzzer is None and p.watchdog_ms == 0
    assert p.active_low is True and p.debounce_ms == 30


def variant(**changes):
    data = json.loads(json.dumps(MINIMAL))
    for dotted, value in changes.items():
        keys = dotted.split("__")
        d = data
        for k in keys[:-1]:
            d = d.setdefault(k, {})
        if value is KeyError:
            del d[keys[-1]]
        else:
            d[keys[-1]] = value
    return data


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"leds": KeyError}, "x.json: needs 'leds'"),
        ({"leds__pin": KeyError}, "x.json: leds: needs 'pin'"),
        ({"leds__pin": True}, "x.json: leds: pin must be a pin number or name"),
        ({"leds__order": "GBRX"}, "x.json: leds: order must be one of"),
        ({"leds__brightness": 300}, "x.json: leds: brightness must be a whole number 0..255"),
        ({"leds__colour": 1}, "x.json: leds: unknown field 'colour'"),
        ({"leds__driver": "rmt"}, "x.json: leds: driver must be one of neopixel, bitstream"),
        ({"leds__local_order": {"2x3": [0, 1, 2, 2, 4, 5]}},
         'x.json: leds: local_order["2x3"]'),
        ({"sensors__kind": "hall"}, "x.json: sensors: kind must be one of gpio, matrix, 74hc165"),
        ({"sensors__load": KeyError}, "x.json: sensors: needs 'load'"),
        ({"sensors__rows": [1]}, "x.json: sensors: unknown field 'rows'"),
        ({"sensors__spi": 9}, "x.json: sensors: spi must be a whole number 0..3"),
        ({"sensors__debounce_ms": -1}, "x.json: sensors: debounce_ms must be"),
        ({"sensors__active_low": "yes"}, "x.json: sensors: active_low must be true or false"),
        ({"buttons": {"undo": 22}}, "x.json: pin 22 is used twice"),
        ({"buttons": {"undo": 14, "reset": 15}}, "x.json: buttons: unknown field 'reset'"),
        ({"port": "arduino"}, "x.json: port must be one of micropython, circuitpython"),
        ({"watchdog_ms": 50}, "x.json: watchdog_ms 50 is too short"),
        ({"speed": 1}, "x.json: unknown field 'speed'"),
    ],
)
def test_errors_name_file_and_field(changes, words):
    with pytest.raises(ProfileError) as e:
        parse(variant(**changes), "x.json")
    assert words in str(e.value), str(e.value)
    assert isinstance(e.value, AttilaError)


def test_gpio_and_matrix_fields():
    p = parse({"leds": {"pin": 22}, "sensors": {"kind": "gpio", "pins": [0, 1, 2]}}, "g")
    assert p.sensor_pins == (0, 1, 2) and p.pull == "up"
    with pytest.raises(ProfileError, match=r"g: sensors: pins\[1\] must be a pin"):
        parse({"leds": {"pin": 22}, "sensors": {"kind": "gpio", "pins": [0, None]}}, "g")
    with pytest.raises(ProfileError, match="g: sensors: needs 'cols'"):
        parse({"leds": {"pin": 22}, "sensors": {"kind": "matrix", "rows": [0]}}, "g")


def test_local_order_that_does_not_fit_the_module():
    layout, modules, _ = layoutfile.load(os.path.join(ROOT, "boards", "4x5.json"))
    p = parse(variant(sensors__local_order={"2x2": [0, 1, 2]}), "x.json")
    with pytest.raises(ProfileError, match=r'x.json: sensors local_order\["2x2"\]'):
        p.wiring(layout, modules)


def test_budget_below_idle():
    layout, modules, _ = layoutfile.load(os.path.join(ROOT, "boards", "4x5.json"))
    p = parse(variant(leds__budget_ma=10), "x.json")
    with pytest.raises(ProfileError, match="x.json: leds: LED budget 10 mA"):
        p.leds(p.wiring(layout, modules))


def test_file_errors(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    with pytest.raises(ProfileError, match="bad.json: not valid JSON"):
        load(str(bad))
    with pytest.raises(ProfileError, match="missing.json: cannot read"):
        load(str(tmp_path / "missing.json"))
    with pytest.raises(ProfileError, match="t: must be an object"):
        loads("[1, 2]", "t")
    # A profile saved in another encoding: one clear error, as for layouts.
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"name": "caf\xe9"}')
    with pytest.raises(ProfileError) as e:
        load(str(latin))
    assert str(e.value) == "%s: not UTF-8 text" % latin
    assert isinstance(e.value, AttilaError)


def test_game_section_sets_the_boards_side_and_strength():
    p = parse(dict(MINIMAL), "x.json")
    assert (p.computer, p.level, p.budget_ms) == (-1, 3, 2000)  # nobody; strong
    p = parse(dict(MINIMAL, game={"computer": "H", "level": "easy", "budget_ms": 900}), "x.json")
    assert (p.computer, p.level, p.budget_ms) == (1, 1, 900)
    with pytest.raises(ProfileError) as e:
        parse(dict(MINIMAL, game={"computer": "Huns"}), "x.json")
    assert str(e.value) == 'x.json: game: computer must be "R", "H" or "none", not \'Huns\''
    with pytest.raises(ProfileError) as e:
        parse(dict(MINIMAL, game={"level": "expert"}), "x.json")
    assert str(e.value) == ("x.json: game: level must be one of beginner, easy, normal, "
                            "strong, not 'expert'")


def test_sensors_must_reach_every_square_of_the_layout():
    # One check for the ports, `attila flash` and the layout switch on a board.
    diy, diy_modules, _ = layoutfile.load(os.path.join(ROOT, "boards", "diy-8x8.json"))
    direct = load(os.path.join(ROOT, "boards", "profiles", "pico-direct.json"))
    with pytest.raises(ProfileError) as e:
        direct.check_sensors(direct.wiring(diy, diy_modules))
    assert str(e.value).endswith("pico-direct.json: sensors.pins lists 20 pins; "
                                 "the layout has 64 squares")
    matrix = load(os.path.join(ROOT, "boards", "profiles", "pico-matrix.json"))
    with pytest.raises(ProfileError) as e:
        matrix.check_sensors(matrix.wiring(diy, diy_modules))
    assert str(e.value).endswith("pico-matrix.json: a 4x5 matrix cannot read 64 squares")
    four, modules, _ = layoutfile.load(os.path.join(ROOT, "boards", "4x5.json"))
    for p in (direct, matrix):
        p.check_sensors(p.wiring(four, modules))  # 20 squares: fine


@pytest.mark.parametrize(
    "port, chip, ms, most",
    [
        ("micropython", "rp2040", 8388, None),
        ("micropython", "rp2040", 8389, 8388),  # rp2's machine.WDT: "timeout exceeds 8388"
        ("micropython", "rp2350", 8389, 8388),  # the same up to MicroPython 1.28
        ("micropython", "esp32", 60000, None),
        ("circuitpython", "rp2040", 8000, None),
        ("circuitpython", "rp2040", 8001, 8000),  # 8.388 s wraps the counter; 9 s is refused
        ("circuitpython", "rp2350", 8500, 8000),
        ("micropython", "other", 60000, None),
    ],
)
def test_watchdog_the_chip_refuses_is_refused_at_load(port, chip, ms, most):
    data = dict(MINIMAL, port=port, chip=chip, watchdog_ms=ms, game={"budget_ms": 100})
    if chip == "esp32":  # MINIMAL's GPIO 10 is one of the ESP32's flash pins
        data["sensors"] = dict(MINIMAL["sensors"], load=25, clock=18, data=19)
    if port == "circuitpython":  # (its chain needs the external pull-up)
        data["sensors"] = dict(data["sensors"], pull=None)
    if most is None:
        assert parse(data, "x.json").watchdog_ms == ms
        return
    with pytest.raises(ProfileError) as e:
        parse(data, "x.json")
    assert str(e.value) == "x.json: watchdog_ms %d is more than %s on the %s accepts (at most %d)" % (
        ms, "CircuitPython" if port == "circuitpython" else "MicroPython", chip, most)


def test_budget_must_leave_the_watchdog_time():
    # A decision that blocks the loop (attila.opponent.planner.choose) for budget_ms
    # must leave the watchdog a second to spare, or every turn of the board
    # resets it.
    p = parse(dict(MINIMAL, watchdog_ms=5000, game={"budget_ms": 4000}), "x.json")
    assert (p.watchdog_ms, p.budget_ms) == (5000, 4000)
    with pytest.raises(ProfileError) as e:
        parse(dict(MINIMAL, watchdog_ms=5000, game={"budget_ms": 4001}), "x.json")
    assert str(e.value) == ("x.json: game: budget_ms 4001 does not fit the 5000 ms watchdog: "
                            "the board may think that long without feeding it (a blocking "
                            "decision); at most 4000")
    with pytest.raises(ProfileError, match="budget_ms 2000 does not fit the 2500 ms watchdog"):
        parse(dict(MINIMAL, watchdog_ms=2500), "x.json")  # the default budget
    assert parse(dict(MINIMAL, game={"budget_ms": 30000}), "x.json").budget_ms == 30000
    with pytest.raises(ProfileError) as e:
        parse(dict(MINIMAL, watchdog_ms=1000, game={"budget_ms": 100}), "x.json")
    assert str(e.value).endswith("a blocking decision); the watchdog needs 1100 ms or more")


def test_chip_field_and_its_default_from_the_board():
    assert parse(MINIMAL, "x.json").chip == "rp2040"
    for board, chip in (("Raspberry Pi Pico 2", "rp2350"), ("Pimoroni Pico Plus 2 (RP2350)",
                        "rp2350"), ("ESP32 DevKitC", "esp32"), ("Raspberry Pi Pico", "rp2040")):
        data = dict(MINIMAL, board=board)
        if chip == "esp32":  # MINIMAL's GPIO 10 is one of the ESP32's flash pins
            data["sensors"] = dict(MINIMAL["sensors"], load=25, clock=18, data=19)
        assert parse(data, "x.json").chip == chip, board
    assert parse(dict(MINIMAL, board="Pico 2", chip="other"), "x.json").chip == "other"
    with pytest.raises(ProfileError) as e:
        parse(dict(MINIMAL, chip="rp2045"), "x.json")
    assert str(e.value) == "x.json: chip must be one of rp2040, rp2350, esp32, other, not 'rp2045'"


@pytest.mark.parametrize("path", PROFILES, ids=os.path.basename)
def test_shipped_profiles_name_their_chip(path):
    with open(path) as f:
        assert json.load(f)["chip"] == load(path).chip


def test_rp2350_refuses_internal_pull_downs():
    # Erratum RP2350-E9: an input with only the internal pull-down can stay high.
    down = {"kind": "gpio", "pins": [0, 1], "active_low": False, "pull": "down"}
    assert parse(dict(MINIMAL, sensors=down), "x.json").pull == "down"  # fine on the RP2040
    with pytest.raises(ProfileError) as e:
        parse(dict(MINIMAL, chip="rp2350", sensors=down), "x.json")
    assert str(e.value) == (
        'x.json: sensors: pull "down": the RP2350\'s internal pull-downs do not hold an input '
        "low (erratum RP2350-E9); wire to GND with pull-ups or add external pull-downs of "
        "8.2 kOhm or less and set pull null")
    default_down = {"kind": "gpio", "pins": [0, 1], "active_low": False}
    with pytest.raises(ProfileError, match='pull "down"'):
        parse(dict(MINIMAL, board="Raspberry Pi Pico 2", sensors=default_down), "x.json")
    external = dict(down, pull=None)
    assert parse(dict(MINIMAL, chip="rp2350", sensors=external), "x.json").pull is None
    with pytest.raises(ProfileError) as e:
        parse(dict(MINIMAL, chip="rp2350", buttons={"undo": 16, "active_low": False}), "x.json")
    assert str(e.value) == (
        "x.json: buttons: active_low false (buttons to 3V3, internal pull-downs): the RP2350's "
        "internal pull-downs do not hold an input low (erratum RP2350-E9); wire to GND with "
        "pull-ups and set active_low true")


def test_pull_must_agree_with_active_low():
    with pytest.raises(ProfileError) as e:
        parse(dict(MINIMAL, sensors={"kind": "gpio", "pins": [0], "pull": "down"}), "x.json")
    assert str(e.value) == ('x.json: sensors: pull "down" with active_low true: an open switch '
                            'would read closed; use "up" or null (external resistors)')


def test_matrix_waits_100_us_after_driving_a_row():
    # 80 kOhm (the RP2040's weakest pull-up) x ~230 pF of column wire: the
    # README's estimate; 10 us was too short for long cables.
    m = parse(dict(MINIMAL, sensors={"kind": "matrix", "rows": [0], "cols": [1]}), "x.json")
    assert m.settle_us == 100
    shipped = load(os.path.join(ROOT, "boards", "profiles", "pico-matrix.json"))
    assert shipped.settle_us == 100


def test_sound_is_off_unless_the_profile_turns_it_on():
    assert parse(dict(MINIMAL, buzzer=18), "x.json").sound == 0
    assert parse(dict(MINIMAL, buzzer=18, sound=True), "x.json").sound == 100
    assert parse(dict(MINIMAL, buzzer=18, sound=30), "x.json").sound == 30
    assert parse(dict(MINIMAL, buzzer=18, sound=False), "x.json").sound == 0
    with pytest.raises(ProfileError) as e:
        parse(dict(MINIMAL, sound=True), "x.json")
    assert str(e.value) == 'x.json: sound needs a buzzer pin ("buzzer": 18)'
    with pytest.raises(ProfileError) as e:
        parse(dict(MINIMAL, buzzer=18, sound=101), "x.json")
    assert str(e.value) == "x.json: sound must be true, false or a volume 0..100, not 101"
    for path in PROFILES:
        assert load(path).sound == 0, path  # off by default in every shipped profile


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"sensors__spi": 1}, "x.json: sensors: spi is for MicroPython: CircuitPython reads "
                              "the 74HC165 chain with keypad.ShiftRegisterKeys"),
        ({"leds__driver": "neopixel"}, "x.json: leds: driver is for MicroPython"),
        ({"sensors": {"kind": "matrix", "rows": [0], "cols": [1], "settle_us": 100}},
         "x.json: sensors: settle_us is for MicroPython: CircuitPython's keypad.KeyMatrix"),
    ],
)
def test_circuitpython_refuses_what_only_micropython_does(changes, words):
    data = variant(**changes)
    data["port"] = "circuitpython"
    with pytest.raises(ProfileError) as e:
        parse(data, "x.json")
    assert str(e.value).startswith(words), str(e.value)
    data["port"] = "micropython"
    parse(data, "x.json")


def test_pio_reads_the_reference_chain_and_is_for_rp2_micropython_only():
    p = load(os.path.join(ROOT, "boards", "profiles", "pico.json"))
    assert (p.pio, p.spi, p.baudrate) == (0, None, 1000000)  # state machine 0, 1 MHz
    assert parse(variant(sensors__pio=7), "x.json").pio == 7
    assert parse(dict(variant(sensors__pio=11), chip="rp2350"), "x.json").pio == 11
    assert parse(variant(sensors__pio=0, sensors__baudrate=2000000), "x.json").pio == 0
    for data, words in [
        (variant(sensors__pio=8), "x.json: sensors: pio must be a whole number 0..7, not 8"),
        (dict(variant(sensors__pio=0), chip="esp32"),
         'x.json: sensors: pio needs an RP2040 or RP2350, not chip \'esp32\'; remove "pio" '
         '(or use "spi")'),
        (dict(variant(sensors__pio=0), port="circuitpython"),
         "x.json: sensors: pio is for MicroPython: CircuitPython reads the 74HC165 chain with "
         'keypad.ShiftRegisterKeys; remove "pio"'),
        (variant(sensors__pio=0, sensors__spi=1),
         "x.json: sensors: spi and pio both given: the chain is read by one of them"),
        (variant(sensors__pio=0, sensors__baudrate=4000000),
         "x.json: sensors: baudrate 4000000 is too fast for the 74HC165 chain read by PIO: "
         "at most 2000000 (QH is valid 205 ns after CLK rises)"),
    ]:
        with pytest.raises(ProfileError) as e:
            parse(data, "x.json")
        assert str(e.value) == words


@pytest.mark.parametrize("chip, board, changes, words", [
    ("rp2040", "", {"leds__pin": 30}, "leds: pin 30: the RP2040 has GPIO 0..29"),
    ("rp2350", "", {"leds__pin": 48}, "leds: pin 48: the RP2350 has GPIO 0..47"),
    ("rp2350", "Raspberry Pi Pico 2", {"buzzer": 30},
     "buzzer: pin 30: the Raspberry Pi Pico 2 has GPIO 0..29"),
    ("rp2040", "Raspberry Pi Pico W", {"sensors__data": 24},
     "sensors: pin 24 is not on the Raspberry Pi Pico W's header (GP23, GP24, GP25 and GP29 "
     "run its wireless chip)"),
    ("rp2040", "Raspberry Pi Pico W", {"buttons": {"undo": 23}}, "buttons: pin 23 is not on"),
    ("rp2040", "Raspberry Pi Pico W", {"leds__pin": 25}, "leds: pin 25 is not on"),
    ("rp2040", "Raspberry Pi Pico W", {"buzzer": 29}, "buzzer: pin 29 is not on"),
    ("rp2040", "Raspberry Pi Pico", {"leds__pin": 29},
     "leds: pin 29 is not on the Raspberry Pi Pico's header (GP23, GP24, GP25 and GP29 sense "
     "and steer its power and light its LED)"),
    ("rp2040", "Raspberry Pi Pico", {"leds__pin": "GP25", "port": "circuitpython"},
     "leds: pin 'GP25' is not on"),
    ("esp32", "ESP32 DevKitC", {"sensors__clock": 6},
     "sensors: pin 6: GPIO 6..11 of the ESP32 are wired to its flash memory"),
    ("esp32", "ESP32 DevKitC", {"sensors__data": 11}, "sensors: pin 11: GPIO 6..11"),
    ("esp32", "ESP32 DevKitC", {"leds__pin": 34},
     "leds: pin 34: GPIO 34..39 of the ESP32 are inputs only, and this pin drives"),
    ("esp32", "ESP32 DevKitC", {"sensors__load": 39}, "sensors: pin 39: GPIO 34..39"),
    ("esp32", "ESP32 DevKitC", {"buzzer": 36}, "buzzer: pin 36: GPIO 34..39 of the ESP32 are inputs"),
    ("esp32", "ESP32 DevKitC", {"sensors__data": 35},
     "sensors: pin 35: GPIO 34..39 of the ESP32 have no internal pull-up or pull-down (add "
     "an external resistor and set pull null, or use another pin)"),
    ("esp32", "ESP32 DevKitC", {"buttons": {"undo": 34}}, "buttons: pin 34: GPIO 34..39"),
    ("esp32", "ESP32 DevKitC", {"leds__pin": 20}, "leds: pin 20: the ESP32 DevKitC has GPIO 0..39 "
     "but no 20, 24 or 28..31"),
    ("esp32", "ESP32 DevKitC", {"leds__pin": 40}, "leds: pin 40: the ESP32 DevKitC has GPIO 0..39"),
])
def test_pins_the_chip_or_its_board_cannot_give_are_refused(chip, board, changes, words):
    """A profile is read on the computer (attila flash) as on the board: a pin the chip
    lacks, or its board keeps (Pico W: the wireless chip; ESP32: the flash, the input-only
    pins), is refused there, not at boot."""
    data = variant(**changes)
    data.update(chip=chip, board=board)
    if chip == "esp32":  # the ESP32 profile's pins where the case changes none
        esp = {"load": 25, "clock": 18, "data": 19}
        data["sensors"].update((k, v) for k, v in esp.items() if "sensors__" + k not in changes)
        if "leds__pin" not in changes:
            data["leds"]["pin"] = 27
    with pytest.raises(ProfileError) as e:
        parse(data, "x.json")
    assert str(e.value).startswith("x.json: " + words), str(e.value)


def test_pins_the_chip_gives_pass_and_a_data_pin_with_no_pull_may_be_input_only():
    esp = {"kind": "74hc165", "load": 25, "clock": 18, "data": 35, "pull": None}
    p = parse(dict(MINIMAL, chip="esp32", leds={"pin": 27}, sensors=esp), "x.json")
    assert p.data == 35 and p.pull is None
    # The Pico's GP0..GP22 and GP26..GP28, the RP2350B's GPIO 47, "other" unchecked.
    assert parse(dict(MINIMAL, board="Raspberry Pi Pico W", leds={"pin": 28}), "x.json")
    assert parse(dict(MINIMAL, chip="rp2350", leds={"pin": 47}), "x.json").led_pin == 47
    assert parse(dict(MINIMAL, chip="other", leds={"pin": 99}), "x.json").led_pin == 99


def test_the_chains_data_pin_is_pulled_the_way_an_empty_square_reads():
    """QH floats when the chain's cable is unplugged or loose: pulled, it reads
    every square empty instead of phantom pieces (active low: up)."""
    assert parse(MINIMAL, "x.json").pull == "up"
    low = dict(MINIMAL, sensors=dict(MINIMAL["sensors"], active_low=False))
    assert parse(low, "x.json").pull == "down"
    none = dict(MINIMAL, sensors=dict(MINIMAL["sensors"], pull=None))
    assert parse(none, "x.json").pull is None
    with pytest.raises(ProfileError) as e:
        parse(dict(MINIMAL, sensors=dict(MINIMAL["sensors"], pull="down")), "x.json")
    assert str(e.value) == ('x.json: sensors: pull "down" with active_low true: a chain with '
                            'its cable unplugged would read closed; use "up" or null '
                            '(external resistors)')


def test_circuitpython_needs_the_chains_external_pull_up():
    """keypad.ShiftRegisterKeys leaves the data pin floating (PULL_NONE): a
    CircuitPython profile asking for an internal pull there, by default or in
    so many words, is refused; pull null (a resistor on the board) is taken."""
    cp = load(os.path.join(ROOT, "boards", "profiles", "circuitpython-pico.json"))
    assert cp.pull is None and cp.data == "GP12"
    data = dict(MINIMAL, port="circuitpython")
    for pull, words in ((None, '(default "up")'), ("up", '"up"')):
        sensors = dict(MINIMAL["sensors"], pull=pull) if pull else MINIMAL["sensors"]
        with pytest.raises(ProfileError) as e:
            parse(dict(data, sensors=sensors), "x.json")
        assert str(e.value) == (
            "x.json: sensors: pull %s: CircuitPython's keypad.ShiftRegisterKeys cannot pull "
            "the data pin 12 (it leaves it floating: phantom pieces with the cable out); wire "
            'a 10 kOhm pull-up from it to 3V3 and set "pull": null' % words)
    low = dict(MINIMAL["sensors"], active_low=False, pull="down")
    with pytest.raises(ProfileError, match='pull "down": .* pull-down from it to GND'):
        parse(dict(data, sensors=low), "x.json")
    assert parse(dict(data, sensors=dict(MINIMAL["sensors"], pull=None)), "x.json").pull is None
    # The other kinds keep their pulls: keypad.Keys and KeyMatrix set them.
    gpio = {"kind": "gpio", "pins": [0, 1], "pull": "up"}
    assert parse(dict(data, sensors=gpio), "x.json").pull == "up"


SD = {"spi": 0, "sck": 2, "mosi": 3, "miso": 4, "cs": 5}


def test_an_sdcard_is_optional_and_checked():
    p = parse(dict(MINIMAL), "x.json")
    assert p.sdcard is False and p.sd_pins == () and p.coach is False
    p = parse(dict(MINIMAL, sdcard=SD), "x.json")
    assert p.sdcard is True and p.sd_spi == 0 and p.sd_pins == (2, 3, 4, 5)
    assert p.sd_baudrate == 10000000
    p = parse(dict(MINIMAL, sdcard=dict(SD, baudrate=20000000)), "x.json")
    assert p.sd_baudrate == 20000000
    for changes, words in (
        ({"sdcard": dict(SD, cs=22)}, "x.json: pin 22 is used twice"),
        ({"sdcard": {"spi": 0, "sck": 2, "mosi": 3, "miso": 4}}, "x.json: sdcard: needs 'cs'"),
        ({"sdcard": dict(SD, spi=7)}, "x.json: sdcard: spi must be a whole number 0..3, not 7"),
        ({"sdcard": dict(SD, speed=1)},
         "x.json: sdcard: unknown field 'speed' (known: spi, sck, mosi, miso, cs, baudrate)"),
        ({"sdcard": {"sck": 2, "mosi": 3, "miso": 4, "cs": 5}}, "x.json: sdcard: needs 'spi'"),
        ({"game": {"coach": 1}}, "x.json: game: coach must be true or false, not 1"),
        ({"sdcard": dict(SD, cs=30)}, "x.json: sdcard: pin 30: the RP2040 has GPIO 0..29"),
    ):
        with pytest.raises(ProfileError) as e:
            parse(dict(MINIMAL, **changes), "x.json")
        assert str(e.value) == words
    cp = dict(MINIMAL, port="circuitpython", leds={"pin": "GP22"},
              sensors=dict(MINIMAL["sensors"], pull=None))
    assert parse(dict(cp, sdcard={"sck": "GP2", "mosi": "GP3", "miso": "GP4", "cs": "GP5"}),
                 "x.json").sd_spi is None
    with pytest.raises(ProfileError, match="spi is for MicroPython"):
        parse(dict(cp, sdcard=dict(SD)), "x.json")
    assert parse(dict(MINIMAL, game={"coach": True}), "x.json").coach is True


@pytest.mark.parametrize("port, chip, changes, words", [
    ("micropython", "rp2040", {"leds__pin": "banana"}, "leds: pin: MicroPython names a pin by "
     "its GPIO number (like 22), not 'banana'"),
    ("micropython", "rp2040", {"buttons": {"undo": "GP16"}}, "buttons: undo: MicroPython names "
     "a pin by its GPIO number (like 22), not 'GP16'"),
    ("circuitpython", "rp2040", {"leds__pin": "banana"}, "leds: pin: CircuitPython on the "
     "RP2040 names a pin \"GP<n>\" (like \"GP22\"), not 'banana'"),
    ("circuitpython", "rp2350", {"sensors__data": "GPIO12"}, "sensors: data: CircuitPython on "
     "the RP2350 names a pin \"GP<n>\" (like \"GP22\"), not 'GPIO12'"),
    ("circuitpython", "esp32", {"leds__pin": 5}, "leds: pin: CircuitPython names a pin as its "
     "board module does (like \"D5\"), not 5"),
    ("circuitpython", "other", {"leds__pin": "D 5"}, "leds: pin: CircuitPython names a pin as "
     "its board module does (like \"D5\"), not 'D 5'"),
    ("circuitpython", "rp2040", {"leds__pin": "GP12"}, "pin 'GP12' is used twice (as 12 too: "
     "the same GPIO)"),
    ("circuitpython", "rp2040", {"buzzer": "GP22"}, "pin 22 is used twice (as 'GP22' too: "
     "the same GPIO)"),
])
def test_pins_are_written_as_the_port_names_them_and_one_gpio_once(port, chip, changes, words):
    # Issue 33 item 9: "banana" was a pin; 22 and "GP22" were two.
    data = dict(variant(**changes), port=port, chip=chip)
    if chip == "esp32":
        data["sensors"] = {"kind": "74hc165", "load": "D13", "clock": "D14", "data": "D15"}
    if port == "circuitpython":  # (its chain needs the external pull-up)
        data["sensors"] = dict(data["sensors"], pull=None)
    with pytest.raises(ProfileError) as e:
        parse(data, "x.json")
    assert str(e.value) == "x.json: " + words


def test_a_microsd_card_takes_its_current_off_the_leds_budget():
    sd = {"spi": 0, "sck": 2, "mosi": 3, "miso": 4, "cs": 5}
    assert parse(variant(sdcard=sd), "x.json").budget_ma == 300
    assert parse(variant(sdcard=sd, leds__budget_ma=1500), "x.json").budget_ma == 1400
    with pytest.raises(ProfileError, match=r"^x.json: leds: budget_ma 150 leaves the LEDs 50 mA "
                       r"beside the microSD card's 100 mA: give at least 200$"):
        parse(variant(sdcard=sd, leds__budget_ma=150), "x.json")
