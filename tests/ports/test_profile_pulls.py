"""Hardware profiles: the pulls on the inputs agree with how the switches are wired.

An open switch must read open, a chain with its cable out must read empty
squares, and no input may hang on a pull the chip cannot hold (RP2350-E9)
or the port cannot set (CircuitPython's keypad.ShiftRegisterKeys).
"""

import os

import pytest
from profile_variants import MINIMAL, ROOT

from attila.profile import ProfileError, load, parse


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
