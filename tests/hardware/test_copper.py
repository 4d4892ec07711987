"""The boards' copper against the firmware's wiring, followed through the
copper itself, with the parts' pinouts from KiCad's own symbol libraries; and
boards made wrong on purpose that must fail (no KiCad program needed, only
its symbol libraries)."""

import inspect
import os
import re

import pytest
from hardware_kicad import need

from attila_tools.hardware import (catalogue, circuit, connectivity, copper, copper_ctl, current,
                                   geometry, kicadlib, pcbfile, pinout)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KINDS = ("2x2", "2x3")


def path(kind):
    return os.path.join(ROOT, "boards", "pcb", "module-" + kind, "module-%s.kicad_pcb" % kind)


def controller_path():
    return os.path.join(ROOT, "boards", "pcb", "controller", "controller.kicad_pcb")


def text(kind):
    with open(path(kind) if kind != "controller" else controller_path(), encoding="utf-8") as f:
        return f.read()


def footprint_span(src, ref):
    for a, b in pcbfile.blocks(src):
        if src.startswith("(footprint", a) and '(property "Reference" "%s"' % ref in src[a:b]:
            return a, b
    raise AssertionError("no footprint " + ref)


def net_number(src, name):
    return re.search(r'\(net (\d+) "%s"\)' % re.escape(name), src).group(1)


def segments(src, net):
    n = net_number(src, net)
    return [(a, b) for a, b in pcbfile.blocks(src)
            if src.startswith("(segment", a) and "(net %s)" % n in src[a:b]]


@pytest.mark.parametrize("kind", KINDS)
def test_copper_agrees_with_firmware(kind):
    need(kicadlib.missing())
    board = pcbfile.load(path(kind))
    assert copper.problems(board, kind) == []
    # what the check rests on, seen directly
    leds = [f for f in board.footprints.values() if f.value == "WS2812B"]
    assert len(leds) == geometry.squares(kind)
    assert board.footprints["J1"].side == "bottom" and board.footprints["J2"].side == "bottom"


def test_reader_gives_parts_pads_and_outline():
    board = pcbfile.load(path("2x3"))
    d1 = board.footprints["D1"]
    assert d1.name == "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm"
    # the nets as the schematic names them: the chain's link from square 0's
    # sheet to square 1's takes its name from the sheet's DOUT
    assert d1.nets() == {"1": "+5V", "2": "/square 0/DOUT", "3": "GND", "4": "LED_IN"}
    assert d1.at == (120.0, 200.0)  # square 0's centre: (20, 20) in the module's frame
    assert board.outline() == (101.5, 101.5, 178.5, 218.5)  # 80 x 120 less 1.5 all round
    assert board.tracks and board.vias and board.zones == [("GND", "B.Cu"), ("GND", "F.Cu")]
    assert board.fills and {layer for _net, layer, _pts in board.fills} == {"B.Cu", "F.Cu"}


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


def cut_at(ref, pin):
    """The tracks that end on a pad deleted."""
    def edit(src):
        x, y = pcbfile.loads(src, "board").footprints[ref].pads[pin].at
        end = re.compile(r"\((?:start|end) %s %s\)" % (_n(x), _n(y)))
        out, last = [], 0
        for a, b in pcbfile.blocks(src):
            if src.startswith("(segment", a) and end.search(src[a:b]):
                out.append(src[last:a])
                last = b
        assert out, "no track at %s.%s" % (ref, pin)
        return "".join(out) + src[last:]
    return edit


cut_link = cut_at("D2", "4")  # LED 2's data input cut off the chain


def _n(v):
    return ("%.4f" % v).rstrip("0").rstrip(".")


def cut_clock(src):
    """One CLOCK track deleted (the pads keep their CLOCK labels)."""
    a, b = segments(src, "CLOCK")[0]
    return src[:a] + src[b:]


def renumber(ref, one, other):
    """A part whose pads `one` and `other` trade numbers: what a wrong pinout
    table in the generator would have made."""
    def edit(src):
        a, b = footprint_span(src, ref)
        fp = src[a:b].replace('(pad "%s"' % one, "(pad @").replace(
            '(pad "%s"' % other, '(pad "%s"' % one).replace("(pad @", '(pad "%s"' % other)
        return src[:a] + fp + src[b:]
    return edit


def move_pin(src):
    """IN's LOAD and CLOCK pins swapped (the connector's pins 5 and 6 trade numbers)."""
    return renumber("J1", "5", "6")(src)


def without(ref):
    def edit(src):
        a, b = footprint_span(src, ref)
        return src[:a] + src[b:]
    return edit


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("edit, says", [
    (swap_switches, "nets D0 and D1 are shorted: R1.1, SW2.2, U1.11"),  # each on the other's copper
    (cut_link, "the LED chain from IN reaches 1 of"),
    (move_pin, "cable pin 5: IN has CLOCK, OUT has LOAD"),
    (cut_clock, "net CLOCK is open: its pads fall into 2 pieces"),
    # the 74HC165's D0 and D1 as a wrong table would wire them: KiCad's symbol says 11 and 12
    (renumber("U1", "11", "12"), "square 0's switch ['SW1'] is on ['D0']; the firmware reads it "
                                 "as bit 0, register input D0 (pin 11, net D1)"),
])
def test_a_mutated_board_fails(kind, edit, says):
    need(kicadlib.missing())
    found = copper.problems(mutated(kind, edit), kind)
    assert any(p.startswith(says) for p in found), found


@pytest.mark.parametrize("kind", KINDS)
def test_a_module_without_its_data_out_resistor_fails(kind):
    need(kicadlib.missing())
    n = geometry.squares(kind)
    found = copper.problems(mutated(kind, without("R%d" % (n + 2))), kind)
    assert ("the LED chain from IN reaches %d of %d LEDs but does not end on OUT's data pin "
            "through a series resistor" % (n, n)) in found, found


def test_the_copper_not_the_labels_makes_a_net():
    # a pad that lost its label but not its copper stays on its net; a track
    # that lost its copper splits the net although every pad keeps its label
    src = text("2x3")
    a, b = footprint_span(src, "C1")
    fp = re.sub(r'(\(pad "1".*?)\(net \d+ "GND"\)', r"\1", src[a:b], count=1, flags=re.S)
    board = pcbfile.loads(src[:a] + fp + src[b:], "unlabelled")
    assert board.footprints["C1"].pads["1"].net == ""
    assert connectivity.Copper(board).net("C1", "1") == "GND"
    cut = connectivity.Copper(pcbfile.loads(cut_clock(src), "cut"))
    assert {cut.net("J1", 6), cut.net("U1", 2)} == {"CLOCK", "CLOCK (piece 2)"}


def test_the_checks_read_the_pinouts_from_kicads_symbols():
    need(kicadlib.missing())
    # not from the generator's own tables: a wrong table there fails here
    for module in (copper, copper_ctl):
        src = inspect.getsource(module)
        assert "REGISTER_INPUT_PIN" not in src and "PICO_PIN" not in src
    reg = copper.register_pins()
    assert reg["inputs"] == ["11", "12", "13", "14", "3", "4", "5", "6"]
    assert (reg["QH"], reg["SER"], reg["LOAD"], reg["CLOCK"]) == ("9", "10", "1", "2")
    # and the generator's tables agree with KiCad's (what built the boards)
    pins = catalogue.REGISTER.pins
    assert [pins["D%d" % k] for k in range(8)] == reg["inputs"]
    assert (pins["QH"], pins["SER"], pins["LOAD"], pins["CLOCK"]) == ("9", "10", "1", "2")
    assert {str(p): g for g, p in pinout.PICO_PIN.items()} == copper_ctl.pico_gpios()


def test_every_led_has_its_capacitor_on_its_own_pads():
    need(kicadlib.missing())
    # the 100 nF's +5 V pad to the LED's VDD, its ground pad to VSS: top copper
    # alone, no via, no pour between (measured centre to centre along the track)
    for kind in KINDS:
        found = copper.decoupling(pcbfile.load(path(kind)))
        assert len(found) == geometry.squares(kind)
        for led, cap, to_vdd, to_vss in found:
            assert cap is not None and to_vdd is not None and to_vss is not None, led
            assert to_vdd <= 2.0 and to_vss <= 6.5, (led, cap, to_vdd, to_vss)


def test_a_capacitor_wired_through_the_pour_fails_the_decoupling_check():
    need(kicadlib.missing())
    board = pcbfile.loads(cut_at("C1", "1")(text("2x3")), "mutated")
    assert copper.decoupling(board)[0] == ("D1", "C1", 1.85, None)


@pytest.mark.parametrize("name", ["module-2x2", "module-2x3", "controller"])
def test_the_supplys_tracks_carry_their_current(name):
    need(kicadlib.missing())
    board = pcbfile.load(os.path.join(ROOT, "boards", "pcb", name, name + ".kicad_pcb"))
    assert current.problems(board) == []
    carried = dict((round(2 * it.geo[3], 2), ma) for it, ma in current.currents(board)
                   if it.net == "+5V" and ma == catalogue.FUSE.facts["trip_ma"])
    assert carried, "no 5 V track carries the chain's current"
    assert current.width_for(1.5) == pytest.approx(0.525, abs=0.001)


@pytest.mark.parametrize("name", ["module-2x3", "controller"])
def test_power_tracks_of_0_15_mm_fail(name):
    need(kicadlib.missing())
    # what the router would lay with its 5 V and ground widths set to 0.15 mm
    src = text(name[len("module-"):] if name.startswith("module") else name)
    nums = {net_number(src, n) for n in ("+5V", "GND")}
    out, last = [], 0
    for a, b in pcbfile.blocks(src):
        chunk = src[a:b]
        if chunk.startswith("(segment") and re.search(r"\(net (\d+)\)", chunk).group(1) in nums:
            out += [src[last:a], re.sub(r"\(width [\d.]+\)", "(width 0.15)", chunk)]
            last = b
    found = current.problems(pcbfile.loads("".join(out) + src[last:], "thin"))
    assert any(p.startswith("+5V track") and "0.15 mm wide and carries up to 1.50 A" in p
               for p in found), found


def test_bad_file_names_place():
    with pytest.raises(pcbfile.PcbError, match="x.kicad_pcb: unbalanced"):
        pcbfile.loads("(kicad_pcb (version 1)", "x.kicad_pcb")


def test_controller_copper_has_the_profiles_pins():
    need(kicadlib.missing())
    assert copper_ctl.controller_problems(pcbfile.load(controller_path())) == []


def test_a_controller_with_load_and_clock_crossed_fails():
    need(kicadlib.missing())
    board = pcbfile.loads(move_pin(text("controller")), "mutated")
    found = copper_ctl.controller_problems(board)
    assert "cable pin 5 (LOAD) reaches GPIO 10, the profile says 13" in found, found
    other = dict(copper_ctl.profile_pins(), UNDO=15)  # a profile that moved UNDO
    assert copper_ctl.controller_problems(pcbfile.load(controller_path()), other) == [
        "SW1 (UNDO) is on GPIO 16, the profile says 15"]


@pytest.mark.parametrize("edit, says", [
    # CircuitPython leaves the data pin unpulled: without R8 a cable-less chain floats
    (without("R8"), "cable pin 7 (SHIFT) has no pull-up to 3.3 V"),
    # the Pico's GP13 and GP10 as a wrong table would number them
    (renumber("U1", "17", "14"), "cable pin 5 (LOAD) reaches GPIO 10, the profile says 13"),
    (cut_clock, "net CLOCK is open: its pads fall into 2 pieces"),
    # the card's clock and command crossed; a data line's pull-up gone
    (renumber("J3", "5", "3"), "microSD CLK (pad 5) reaches GPIO 3, the card's pins say 2"),
    (without("R5"), "microSD DAT1 (pad 8) has no pull-up to 3.3 V"),
    # the power input: a CC pull-down, the clamp, the FET left out
    (without("R10"), "USB-C CC1 has no 5.1 kOhm to ground"),
    (without("D2"), "no clamp (TVS) from the fused input VIN_FUSED to ground"),
    (without("Q1"), "the fused input does not reach the cable's 5 V through one P-MOSFET"),
])
def test_a_mutated_controller_fails(edit, says):
    need(kicadlib.missing())
    found = copper_ctl.controller_problems(pcbfile.loads(edit(text("controller")), "mutated"))
    assert any(p.startswith(says) for p in found), found


def test_the_card_pages_profile_section_is_the_boards():
    with open(os.path.join(ROOT, "docs", "pages", "build", "card.md"), encoding="utf-8") as f:
        page = re.sub(r"\s+", " ", f.read())
    m = re.search(r'"sdcard": (\{[^}]*\})', page)
    shown = eval(m.group(1))  # noqa: S307 (a literal from our page)
    prof = pinout.load()  # the ordered controller's, as the firmware reads it
    assert (shown["spi"], shown["sck"], shown["mosi"], shown["miso"], shown["cs"]) == \
        (prof.sd_spi,) + prof.sd_pins


def board_texts(name):
    """{(layer, words)} of a board's own silkscreen texts."""
    board = pcbfile.load(os.path.join(ROOT, "boards", "pcb", name, name + ".kicad_pcb"))
    return {(pcbfile.find(t, "layer")[1], t[1]) for t in pcbfile.find_all(board.tree, "gr_text")}


@pytest.mark.parametrize("name", ["module-2x2", "module-2x3", "controller"])
def test_each_board_says_what_it_is_and_where_its_chain_and_power_go(name):
    texts = board_texts(name)
    title = "ATTILA %s  rev %s  %s" % (name.replace("-", " "), circuit.REVISION, circuit.DATE)
    assert ("F.SilkS", title) in texts
    if name == "controller":
        assert {("F.SilkS", "5V IN  USB-C"), ("F.SilkS", "5 V ONLY, 1 A MIN"),
                ("F.SilkS", "OUT  to module 1"), ("F.SilkS", "1 +5V"), ("F.SilkS", "1")} <= texts
    else:  # the connectors' side
        assert {("B.SilkS", title), ("B.SilkS", "IN  from the controller or the module before"),
                ("B.SilkS", "OUT  to the next module"), ("B.SilkS", "1 +5V"),
                ("B.SilkS", "5V IN on pin 1, GND on pins 2 and 8")} <= texts
