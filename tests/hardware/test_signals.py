"""The chain's signals simulated with ngspice (make hardware-sim), and the 5 V left along it.

The simulation needs ngspice (Debian's package; .ci/run installs it): where it
is missing these tests skip with the reason, except under CI=true, where they fail.
"""

import os
import re

import pytest

from attila_tools.hardware import pcbfile, signalpage, signals, spice, supply, traces
from attila_tools.hardware.receivers import RECEIVERS

WHY = spice.ngspice_missing()


@pytest.fixture
def ngspice():
    if WHY:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true and " + WHY)
        pytest.skip(WHY)


def recommended():
    """{signal: ohms} as docs/figures/signals.md gives them."""
    with open(signals.FIGURES, encoding="utf-8") as f:
        text = f.read()
    clock = re.search(r"CLOCK and LOAD, at the controller: \*\*(\d+) Ohm\*\*", text).group(1)
    led = re.search(r"LED data, where .*: \*\*(\d+) Ohm\*\*", text).group(1)
    return {"CLOCK": float(clock), "LOAD": float(clock), "LED": float(led)}


def test_the_recommended_resistors_give_clean_edges_and_the_next_smaller_does_not(ngspice):
    for kind, ohms in recommended().items():
        for corner in signals.CORNERS:
            assert signals.faults(kind, signals.case(kind, ohms, corner)) == [], (kind, ohms, corner)
        smaller = signals.E12[signals.E12.index(ohms) - 1]
        assert signals.faults(kind, signals.case(kind, smaller, "fast")), (kind, smaller)


def test_at_the_recommended_values_no_receiver_sees_a_false_edge_or_leaves_its_ratings(ngspice):
    res = signals.case("CLOCK", recommended()["CLOCK"], "fast")
    assert sorted(res) == ["module 1", "module 2", "module 3", "module 4"]
    for r in res.values():
        for e in (r["rise"], r["fall"]):
            assert not e["false_edge"] and e["margin"] >= 0
        assert r["clamp_ma"] <= 1.0
    led = signals.case("LED", recommended()["LED"], "fast")["module 4"]
    rx = RECEIVERS["WS2812B"]
    assert rx["vmin"] <= led["vmin"] and led["vmax"] <= rx["vmax"]


def test_without_a_series_resistor_the_led_data_overshoots_the_next_leds_absolute_maximum(ngspice):
    res = signals.case("LED", 0.0, "fast")
    bad = signals.verdicts("LED", res)
    assert any("absolute maximum" in what for _, what in bad)
    assert res["module 4"]["vmax"] > RECEIVERS["WS2812B"]["vmax"]


def test_the_ribbon_is_a_line_of_about_100_ohms():
    for wire in (3, 4, 5, 6):  # LED, LOAD, CLOCK, SHIFT
        z0, delay = spice.line_z0(spice.ribbon_line(wire))
        assert 80 < z0 < 120 and 4e-9 < delay < 6e-9


BOARD = """(kicad_pcb (version 20241229) (generator "test")
  (net 0 "") (net 1 "+5V")
  (footprint "x:a" (layer "F.Cu") (at 100 100) (property "Reference" "J1")
    (pad "1" smd rect (at 0 0) (size 1 1) (layers "F.Cu") (net 1 "+5V")))
  (footprint "x:b" (layer "F.Cu") (at 120 100) (property "Reference" "D1")
    (pad "1" smd rect (at 0 0) (size 1 1) (layers "F.Cu") (net 1 "+5V")))
  (footprint "x:c" (layer "F.Cu") (at 110 110) (property "Reference" "D2")
    (pad "1" smd rect (at 0 0) (size 1 1) (layers "F.Cu") (net 1 "+5V")))
  (segment (start 100 100) (end 120 100) (width 0.5) (layer "B.Cu") (net 1))
  (via (at 100 100) (size 0.6) (drill 0.3) (net 1))
  (via (at 120 100) (size 0.6) (drill 0.3) (net 1))
  (via (at 110 100) (size 0.6) (drill 0.3) (net 1))
  (segment (start 110 100) (end 110 110) (width 0.25) (layer "F.Cu") (net 1))
)"""


def test_track_lengths_and_drops_follow_the_copper_through_vias_and_tees():
    copper = traces.Copper(pcbfile.loads(BOARD), "+5V")
    assert copper.length(("J1", "1"), ("D1", "1")) == pytest.approx(20.0)
    assert copper.length(("J1", "1"), ("D2", "1")) == pytest.approx(20.0)  # tee at the via
    per_mm = traces.RHO_CU * 1e-3 / (0.5e-3 * traces.COPPER_M)
    drops = copper.drops([("J1", "1")], {("D1", "1"): 1.0, ("D2", "1"): 0.0})
    assert drops[("D1", "1")] == pytest.approx(20 * per_mm, rel=1e-6)
    assert drops[("D2", "1")] == pytest.approx(10 * per_mm, rel=1e-6)  # no current in its branch


def test_the_leds_get_their_5_v_within_their_datasheets_range_at_the_firmwares_budget():
    budget, white = supply.volts("budget"), supply.volts("white")
    lows = [row[3] for row in budget]
    assert lows == sorted(lows, reverse=True)  # lower and lower along the chain
    assert lows[-1] >= 4.5  # the WS2812B's electrical characteristics: VDD 4.5-5.5 V
    assert white[-1][3] < budget[-1][3]


def test_the_supply_figures_on_the_docs_are_what_the_copper_gives(tmp_path):
    signalpage.supply_figures(str(tmp_path / "supply.md"))
    with open(signalpage.SUPPLY_FIGURES, encoding="utf-8") as f:
        assert f.read() == (tmp_path / "supply.md").read_text(), "run make hardware-sim"
