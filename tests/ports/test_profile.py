"""Hardware profiles: the shipped ones work with every layout; bad ones say where.

What the chip, its board and the port accept is test_profile_chips.py; the
pulls on the inputs, test_profile_pulls.py.
"""

import os

import pytest
from profile_variants import LAYOUTS, MINIMAL, PROFILES, ROOT, variant

from attila.game import layoutfile
from attila.errors import AttilaError
from attila.profile import ProfileError, load, loads, parse


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


def test_a_microsd_card_takes_its_current_off_the_leds_budget():
    sd = {"spi": 0, "sck": 2, "mosi": 3, "miso": 4, "cs": 5}
    assert parse(variant(sdcard=sd), "x.json").budget_ma == 300
    assert parse(variant(sdcard=sd, leds__budget_ma=1500), "x.json").budget_ma == 1400
    with pytest.raises(ProfileError, match=r"^x.json: leds: budget_ma 150 leaves the LEDs 50 mA "
                       r"beside the microSD card's 100 mA: give at least 200$"):
        parse(variant(sdcard=sd, leds__budget_ma=150), "x.json")
