"""Hardware profiles against what the chip, its board and the port accept.

The watchdog each chip and port takes, the pins a chip has and its board
leaves free, how each port names a pin, and the fields only one port
reads: all refused when the profile is read (on the computer by `attila
flash`, as on the board), not at boot.
"""

import json
import os

import pytest
from profile_variants import MINIMAL, PROFILES, ROOT, variant

from attila.profile import ProfileError, load, parse


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
    # "banana" is no pin; 22 and "GP22" are one.
    data = dict(variant(**changes), port=port, chip=chip)
    if chip == "esp32":
        data["sensors"] = {"kind": "74hc165", "load": "D13", "clock": "D14", "data": "D15"}
    if port == "circuitpython":  # (its chain needs the external pull-up)
        data["sensors"] = dict(data["sensors"], pull=None)
    with pytest.raises(ProfileError) as e:
        parse(data, "x.json")
    assert str(e.value) == "x.json: " + words
