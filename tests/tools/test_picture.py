"""The layout pictures (attila_tools.picture; `attila layout FILE --svg/--png OUT`)."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from attila import layoutfile
from attila.modules import chain
from attila.profile import load as load_profile
from attila_tools import build, picture

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOARDS = sorted(
    os.path.join(ROOT, "boards", n) for n in os.listdir(os.path.join(ROOT, "boards"))
    if n.endswith(".json")
)
SVG = "{http://www.w3.org/2000/svg}"


def _points(root):
    line = [e for e in root.iter(SVG + "polyline") if e.get("class") == "chain"][0]
    return [tuple(int(v) for v in p.split(",")) for p in line.get("points").split()]


@pytest.mark.parametrize("path", BOARDS, ids=os.path.basename)
def test_every_layout_draws_its_squares_and_chain(path):
    layout, modules, _tiles = layoutfile.load(path)
    root = ET.fromstring(picture.svg(layout, modules).encode())  # well-formed XML
    squares = [e for e in root.iter(SVG + "rect") if e.get("class") == "square"]
    assert sorted(e.get("data-square") for e in squares) == sorted(layout.names)
    for e in squares:  # each square tinted by its module
        sq = layout.index(e.get("data-square"))
        owner = [m.number for m in modules if (layout.files[sq], layout.ranks[sq]) in m.places]
        assert [int(e.get("data-module"))] == owner
    # the chain runs through every square once, in the order to wire
    points = _points(root)
    assert len(points) == layout.size
    order = chain(layout, modules)
    cell = {(int(e.get("x")), int(e.get("y"))): e.get("data-square") for e in squares}
    size = picture.CELL
    visited = [cell[(x - size // 2, y - size // 2)] for x, y in points]
    assert visited == [layout.names[sq] for sq in order]
    numbers = {e.text for e in root.iter(SVG + "text") if e.get("class") == "chain"}
    assert numbers == {str(k) for k in range(layout.size)}
    labels = {e.text for e in root.iter(SVG + "text") if e.get("class") == "module"}
    assert labels == {"M%d %s" % (m.number, m.kind) for m in modules}


def test_rank_one_is_at_the_bottom():
    layout, modules, _ = layoutfile.load(os.path.join(ROOT, "boards", "4x5.json"))
    root = ET.fromstring(picture.svg(layout, modules).encode())
    y = {e.get("data-square"): int(e.get("y")) for e in root.iter(SVG + "rect")
         if e.get("class") == "square"}
    assert y["a1"] > y["a2"] > y["a4"] and y["a1"] == y["e1"]


def test_profile_local_order_changes_the_chain(tmp_path):
    layout, modules, _ = layoutfile.load(os.path.join(ROOT, "boards", "4x5.json"))
    prof = tmp_path / "serpentine.json"
    with open(os.path.join(ROOT, "boards", "profiles", "pico.json")) as f:
        import json

        data = json.load(f)
    data["leds"]["local_order"] = {"2x3": [0, 1, 3, 2, 4, 5], "2x2": [0, 1, 3, 2]}
    prof.write_text(json.dumps(data))
    wiring = load_profile(str(prof)).wiring(layout, modules)
    plain = _points(ET.fromstring(picture.svg(layout, modules).encode()))
    snake = _points(ET.fromstring(picture.svg(layout, modules, wiring).encode()))
    assert sorted(plain) == sorted(snake) and plain != snake


def test_layout_command_writes_svg_and_png(tmp_path):
    svg = tmp_path / "board.svg"
    png = tmp_path / "board.png"
    exe = os.path.join(os.path.dirname(sys.executable), "attila")
    cmd = [exe] if os.path.exists(exe) else [sys.executable, "-m", "attila_tools.cli"]
    proc = subprocess.run(cmd + ["layout", "boards/l-shape.json", "--svg", str(svg),
                                 "--png", str(png), "--colour", "never"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "picture: %s" % svg in proc.stdout
    ET.parse(str(svg))
    with open(png, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    import struct

    width, height = struct.unpack(">II", head[16:24])
    layout, _m, _t = layoutfile.load(os.path.join(ROOT, "boards", "l-shape.json"))
    assert width == 2 * picture.MARGIN + layout.width * picture.CELL
    assert height == 2 * picture.MARGIN + layout.height * picture.CELL + picture.TITLE


def test_layout_list_names_every_board():
    exe = os.path.join(os.path.dirname(sys.executable), "attila")
    cmd = [exe] if os.path.exists(exe) else [sys.executable, "-m", "attila_tools.cli"]
    proc = subprocess.run(cmd + ["layout", "--list"], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    for path, layout, modules, _d in build.layouts():
        assert os.path.relpath(path, ROOT) in proc.stdout


@pytest.mark.parametrize("flag, name, ext", [("--svg", "board.png", "svg"),
                                              ("--png", "board.svg", "png"),
                                              ("--png", "board", "png"),
                                              ("--svg", "board.svg.txt", "svg")])
def test_the_format_is_the_flags_and_a_name_that_says_otherwise_is_refused(
        tmp_path, capsys, flag, name, ext):
    from attila_tools import cli

    out = tmp_path / name
    code = cli.main(["layout", "boards/4x5.json", flag, str(out)])
    captured = capsys.readouterr()
    assert (code, captured.out) == (2, "")
    assert captured.err == "attila: %s: %s draws an %s picture: give a name ending in .%s\n" % (
        out, flag, ext.upper(), ext)
    assert not out.exists()
