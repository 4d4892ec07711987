"""The assembler's files (JLCPCB BOM and placement) and the sourcing table behind them
(no KiCad needed: read from the committed boards and circuit.py)."""

import csv

import pytest

from attila_tools import cli
from attila_tools.hardware import assembly, boards, generate, sourcing


def rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def test_jlc_bom_is_one_row_per_value_and_footprint_with_comma_separated_designators(tmp_path):
    out = rows(assembly.jlc_bom("module-2x3", str(tmp_path / "bom.csv")) and tmp_path / "bom.csv")
    assert out[0] == ["Comment", "Designator", "Footprint", "LCSC Part #"]
    by_value = {r[0]: r for r in out[1:]}
    assert by_value["WS2812B"][1] == "D1,D2,D3,D4,D5,D6"
    assert by_value["WS2812B"][2] == "LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm"
    assert by_value["74HC165"][3] == "C5613"
    keys = [(r[0], r[2]) for r in out[1:]]
    assert len(keys) == len(set(keys))
    # the assembler places SMD parts only: no box headers, no mounting holes
    placed = {d for r in out[1:] for d in r[1].split(",")}
    assert not any(d.startswith(("J", "H")) for d in placed)


def test_every_smd_part_carries_an_lcsc_number_or_is_marked_unverified():
    for name in boards.BOARDS:
        for g in assembly.bom_rows(name):
            row = sourcing.lookup(g["mpn"])
            assert row["price"] in sourcing.SOURCES, g["mpn"]
            if g["smd"]:
                assert row["source"] in sourcing.SOURCES, g["mpn"]
                if not g["lcsc"] or row["source"] == "boms":
                    assert "unverified" in sourcing.SOURCES[row["source"]], g["mpn"]


def test_cpl_lists_smd_parts_at_kicads_place_with_jlcs_rotation(tmp_path):
    board = assembly.load_board("controller")
    out = rows(assembly.jlc_cpl("controller", str(tmp_path / "cpl.csv"), board) and tmp_path / "cpl.csv")
    assert out[0] == ["Designator", "Mid X", "Mid Y", "Layer", "Rotation"]
    cpl = {r[0]: r for r in out[1:]}
    assert "U1" not in cpl and "J1" not in cpl  # the Pico and the box header: through-hole
    u2 = board.footprints["U2"]  # SOT-23-5: KiBot's table turns it 180 degrees
    assert cpl["U2"][1:] == ["%.4f" % u2.at[0], "%.4f" % -u2.at[1], "Top",
                             "%g" % ((u2.rot + 180) % 360)]
    j3 = board.footprints["J3"]  # the microSD socket: its LCSC part's own rotation
    assert float(cpl["J3"][4]) == (j3.rot + 180) % 360


def test_rotation_table_matches_by_footprint_name_and_lcsc_part_first():
    assert sourcing.jlc_rotation("Package_SO:SOIC-16_3.9x9.9mm_P1.27mm") == (270.0, "kibot")
    assert sourcing.jlc_rotation("LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm")[0] == 180.0
    assert sourcing.jlc_rotation("Resistor_SMD:R_0603_1608Metric") == (0.0, "")
    assert sourcing.jlc_rotation("Connector_Card:microSD_HC_Molex_104031-0811", "C585350") == (180.0, "edg")


def test_a_part_without_a_sourcing_row_stops_make_hardware_naming_its_mpn(monkeypatch, capsys):
    monkeypatch.setattr(generate, "kicad_missing", lambda: "")
    monkeypatch.delitem(sourcing.PARTS, "74HC165D,653")
    with pytest.raises(sourcing.SourcingError, match=r"no sourcing row for MPN '74HC165D,653'"):
        assembly.bom_rows("module-2x2")
    assert cli.main(["hardware", "--committed"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("make hardware: no sourcing row for MPN '74HC165D,653' (module-2x2 U1)")


def test_the_parts_list_counts_one_board(tmp_path):
    assembly.parts_list("module-2x3", str(tmp_path / "parts.csv"))
    qty, mount = {}, {}
    for r in rows(tmp_path / "parts.csv")[1:]:
        qty[r[4]] = qty.get(r[4], 0) + int(r[7])
        mount[r[4]] = r[6]
    assert qty["WS2812B-B/W"] == 6 and qty["61200821621"] == 2  # IN and OUT
    assert mount["61200821621"] == "through-hole (by hand)"
