"""make hardware: the BOM's quantities and its error without KiCad (no KiCad needed)."""

import os

from attila_tools.hardware import generate, outputs


def test_bom_counts_the_4x5_boards_parts():
    total = outputs.totals()
    qty = {mpn: t[2] for (maker, mpn), t in total.items()}
    assert qty["WS2812B-B/W"] == 20 and qty["CT10-1530-G1"] == 20  # one of each per square
    assert qty["74HC165D,653"] == 4  # one register per module
    assert qty["61200821621"] == 9  # IN and OUT on four modules, one at the controller
    # pull-ups, SER pull-downs, SD pull-ups, the chain's data pull-up
    assert qty["RC0603FR-0710KL"] == 20 + 4 + 4 + 1
    assert qty["RC0603FR-0733RL"] == 2  # LOAD and CLOCK at the controller
    rows = outputs.bom_rows("module-2x3")
    assert ("D1 D2 D3 D4 D5 D6", "WS2812B") == rows[[r[1] for r in rows].index("WS2812B")][:2]


def test_without_kicad_make_hardware_says_why(monkeypatch, capsys):
    monkeypatch.setattr(generate, "kicad_missing", lambda: "kicad-cli is not installed (KiCad 9)")
    assert outputs.main([]) == 2
    assert capsys.readouterr().err == "make hardware: kicad-cli is not installed (KiCad 9)\n"


def test_the_longest_cable_span_comes_from_the_layouts_and_the_order_page_says_it():
    span, where = outputs.cable_span()
    # The layout named has two modules that far apart, OUT to the next one's IN.
    from attila.game import layoutfile
    from attila_tools.hardware import geometry

    _layout, modules, _ = layoutfile.load(os.path.join(generate.ROOT, "boards", where))
    chain = sorted(modules, key=lambda m: m.number)
    apart = []
    for m, n in zip(chain, chain[1:]):
        a = outputs._on_board(m, geometry.connectors(m.kind)["OUT"])
        b = outputs._on_board(n, geometry.connectors(n.kind)["IN"])
        apart.append(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)
    assert max(apart) == span
    with open(os.path.join(generate.ROOT, "boards", "pcb", "bom-4x5.md")) as f:
        assert "over the shipped layouts: %.0f mm (%s)." % (span, where) in f.read()
