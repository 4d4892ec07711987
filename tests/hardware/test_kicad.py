"""KiCad's own checks on every board, and the committed files current (needs KiCad 9)."""

import json
import os
import subprocess

import pytest

from attila_tools.hardware import circuit, generate

WHY = generate.kicad_missing()
pytestmark = pytest.mark.skipif(bool(WHY), reason=WHY or "KiCad 9 present")
BOARDS = sorted(circuit.BOARDS)


def folder(name):
    return os.path.join(generate.PCB_DIR, name)


def cli(*args):
    r = subprocess.run(["kicad-cli"] + list(args), capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("name", BOARDS)
def test_drc_with_schematic_parity_is_clean(name, tmp_path):
    out = tmp_path / "drc.json"
    cli("pcb", "drc", "--schematic-parity", "--severity-all", "--format", "json",
        "-o", str(out), os.path.join(folder(name), name + ".kicad_pcb"))
    report = json.loads(out.read_text())
    found = [(v["type"], v["description"]) for v in report["violations"]]
    assert found == []
    assert report["unconnected_items"] == []
    assert report["schematic_parity"] == []


@pytest.mark.parametrize("name", BOARDS)
def test_erc_is_clean(name, tmp_path):
    out = tmp_path / "erc.json"
    cli("sch", "erc", "--severity-all", "--format", "json", "-o", str(out),
        os.path.join(folder(name), name + ".kicad_sch"))
    report = json.loads(out.read_text())
    found = [(v["type"], v["description"]) for s in report["sheets"] for v in s["violations"]]
    assert found == []


def test_committed_boards_are_what_the_generator_writes(capsys):
    # Regenerating from circuit.py and geometry.py gives the same bytes (also
    # what makes the generator's output deterministic).
    assert generate.main(["--check"]) == 0, capsys.readouterr().out
