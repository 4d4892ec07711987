"""The schematics in the docs are what the hardware profiles give (tools/docs/schematics.py)."""

import json
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

schemdraw = pytest.importorskip("schemdraw", reason="schemdraw not installed (make install)")
from tools.docs import schematics  # noqa: E402


def test_committed_drawings_are_the_profiles():
    stale = []
    for name, text in schematics.drawings().items():
        path = os.path.join(schematics.OUT, name)
        with open(path) as f:
            if f.read() != text:
                stale.append(name)
    assert stale == [], "drawings that differ from their profile (run `make docs`): %s" % stale


def test_check_names_a_stale_drawing(tmp_path, capsys):
    for name, text in schematics.drawings().items():
        (tmp_path / name).write_text(text)
    (tmp_path / "cable.svg").write_text("<svg/>")
    assert schematics.main(["--check", "--out", str(tmp_path)]) == 1
    assert "cable.svg: differs from its profile" in capsys.readouterr().out
    assert (tmp_path / "cable.svg").read_text() == "<svg/>"  # --check writes nothing


def test_a_changed_pin_is_redrawn(monkeypatch):
    with open(os.path.join(schematics.PROFILES, "pico.json")) as f:
        ref = json.load(f)
    assert "GP22 (pin 29)" in schematics.level_shifter(ref)
    ref["leds"]["pin"] = 5
    drawn = schematics.level_shifter(ref)
    assert "GP5 (pin 7)" in drawn and "GP22" not in drawn
    ref["sensors"]["load"] = 14
    assert "5 GP14 (pin 19)" in schematics.cable(ref)
