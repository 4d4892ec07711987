"""make hardware: the BOM's quantities and its error without KiCad (no KiCad needed)."""

from attila_tools.hardware import generate, outputs


def test_bom_counts_the_4x5_boards_parts():
    total = outputs.totals()
    qty = {mpn: t[2] for (maker, mpn), t in total.items()}
    assert qty["WS2812B-B/W"] == 20 and qty["CT10-1530-G1"] == 20  # one of each per square
    assert qty["74HC165D,653"] == 4  # one register per module
    assert qty["61200821621"] == 9  # IN and OUT on four modules, one at the controller
    # pull-ups, SER pull-downs, SD pull-ups, the chain's data pull-up, the input FET's gate
    assert qty["RC0603FR-0710KL"] == 20 + 4 + 4 + 1 + 1
    # LOAD and CLOCK at the controller, each module's LED data-out
    assert qty["RC0603FR-0733RL"] == 2 + 4
    rows = outputs.bom_rows("module-2x3")
    assert ("D1 D2 D3 D4 D5 D6", "WS2812B") == rows[[r[1] for r in rows].index("WS2812B")][:2]


def test_without_kicad_make_hardware_says_why(monkeypatch, capsys):
    monkeypatch.setattr(generate, "kicad_missing", lambda: "kicad-cli is not installed (KiCad 9)")
    assert outputs.main([]) == 2
    assert capsys.readouterr().err == "make hardware: kicad-cli is not installed (KiCad 9)\n"


def test_the_longest_cable_span_comes_from_the_layouts():
    span, where = outputs.cable_span()
    assert 150 < span < 300 and where.endswith(".json")
