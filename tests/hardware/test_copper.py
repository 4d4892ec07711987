"""The module boards' copper against the firmware's wiring (no KiCad needed)."""

import os
import re

import pytest

from attila_tools.hardware import copper, geometry, pcbfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KINDS = ("2x2", "2x3")


def path(kind):
    return os.path.join(ROOT, "boards", "pcb", "module-" + kind, "module-%s.kicad_pcb" % kind)


def text(kind):
    with open(path(kind), encoding="utf-8") as f:
        return f.read()


def footprint_span(src, ref):
    for a, b in pcbfile.blocks(src):
        if src.startswith("(footprint", a) and '(property "Reference" "%s"' % ref in src[a:b]:
            return a, b
    raise AssertionError("no footprint " + ref)


@pytest.mark.parametrize("kind", KINDS)
def test_copper_agrees_with_firmware(kind):
    board = pcbfile.load(path(kind))
    assert copper.problems(board, kind) == []
    # what the check rests on, seen directly
    assert len([f for f in board.footprints.values() if f.value == "WS2812B"]) == geometry.squares(kind)
    assert board.footprints["J1"].side == "bottom" and board.footprints["J2"].side == "bottom"


def test_reader_gives_parts_pads_and_outline():
    board = pcbfile.load(path("2x3"))
    d1 = board.footprints["D1"]
    assert d1.name == "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm"
    assert d1.nets() == {"1": "+5V", "2": "LED0_1", "3": "GND", "4": "LED_IN"}
    assert d1.at == (120.0, 200.0)  # square 0's centre: (20, 20) in the module's frame
    assert board.outline() == (101.5, 101.5, 178.5, 218.5)  # 80 x 120 less 1.5 all round
    assert board.tracks and board.vias and board.zones == [("GND", "B.Cu")]


def mutated(kind, edit):
    return pcbfile.loads(edit(text(kind)), "mutated")


def swap_switches(src):
    """Two reed switches change places (SW1 under square 0, SW2 under square 1)."""
    a1, b1 = footprint_span(src, "SW1")
    a2, b2 = footprint_span(src, "SW2")
    at = re.compile(r"\(at [-\d.]+ [-\d.]+(?: [-\d.]+)?\)")
    s1, s2 = src[a1:b1], src[a2:b2]
    p1, p2 = at.search(s1).group(0), at.search(s2).group(0)
    s1, s2 = s1.replace(p1, p2, 1), s2.replace(p2, p1, 1)
    return src[:a1] + s1 + src[b1:a2] + s2 + src[b2:]


def cut_link(src):
    """LED 2's data input taken off the chain (its DIN pad on a net of its own)."""
    a, b = footprint_span(src, "D2")
    fp = src[a:b]
    i = fp.index('(pad "4"')
    j = fp.index('(net ', i)
    k = fp.index(")", j)
    fp = fp[:j] + '(net 99 "CUT")' + fp[k + 1:]
    return src[:a] + fp + src[b:]


def move_pin(src):
    """IN's LOAD and CLOCK pins swapped."""
    a, b = footprint_span(src, "J1")
    fp = src[a:b].replace('"LOAD"', '"@"').replace('"CLOCK"', '"LOAD"').replace('"@"', '"CLOCK"')
    return src[:a] + fp + src[b:]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("edit, says", [
    (swap_switches, "square 0's switch ['SW2'] is on ['D1']"),
    (cut_link, "the LED chain from IN reaches 1 of"),
    (move_pin, "cable pin 5: IN has CLOCK, OUT has LOAD"),
])
def test_a_mutated_board_fails(kind, edit, says):
    found = copper.problems(mutated(kind, edit), kind)
    assert any(p.startswith(says) for p in found), found


def test_bad_file_names_place():
    with pytest.raises(pcbfile.PcbError, match="x.kicad_pcb: unbalanced"):
        pcbfile.loads("(kicad_pcb (version 1)", "x.kicad_pcb")


def controller_path():
    return os.path.join(ROOT, "boards", "pcb", "controller", "controller.kicad_pcb")


def test_controller_copper_has_the_profiles_pins():
    assert copper.controller_problems(pcbfile.load(controller_path())) == []


def test_a_controller_with_load_and_clock_crossed_fails():
    with open(controller_path(), encoding="utf-8") as f:
        src = f.read()
    board = pcbfile.loads(move_pin(src), "mutated")
    found = copper.controller_problems(board)
    assert "cable pin 5 (LOAD) reaches GPIO 10, the profile says 13" in found, found
    other = dict(copper.profile_pins(), UNDO=15)  # a profile that moved UNDO
    assert copper.controller_problems(pcbfile.load(controller_path()), other) == [
        "SW1 (UNDO) is on GPIO 16, the profile says 15"]


def test_a_controller_without_the_data_pull_up_fails():
    # CircuitPython leaves the data pin unpulled: without R8 a cable-less chain floats
    with open(controller_path(), encoding="utf-8") as f:
        src = f.read()
    assert pcbfile.load(controller_path()).footprints["R8"].nets() == {"1": "SHIFT", "2": "+3V3"}
    a, b = footprint_span(src, "R8")
    found = copper.controller_problems(pcbfile.loads(src[:a] + src[b:], "mutated"))
    assert found == ["cable pin 7 (SHIFT) has no pull-up to 3.3 V"], found
