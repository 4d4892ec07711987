"""The layout pictures (attila_tools.draw.picture; `attila layout FILE --svg/--png OUT`)."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from attila.game import layoutfile
from attila.game.modules import chain
from attila.profile import load as load_profile
from attila_tools.board import build
from attila_tools.draw import picture

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
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
    # The PNG is drawn PNG_SCALE times the SVG's size (it used to be 1x: small).
    root = ET.parse(str(svg)).getroot()
    assert int(root.get("width")) == 2 * picture.MARGIN + layout.width * picture.CELL
    assert picture.PNG_SCALE >= 3
    assert width == picture.PNG_SCALE * int(root.get("width"))
    assert height == picture.PNG_SCALE * int(root.get("height"))


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


def _serpentine_wiring(tmp_path, layout, modules):
    import json

    with open(os.path.join(ROOT, "boards", "profiles", "pico.json")) as f:
        data = json.load(f)
    data["leds"]["local_order"] = {"2x3": [0, 1, 3, 2, 4, 5], "2x2": [0, 1, 3, 2]}
    prof = tmp_path / "serpentine.json"
    prof.write_text(json.dumps(data))
    return load_profile(str(prof)).wiring(layout, modules)


def _near(seg, centre, r):
    """True when the segment comes closer than r to the centre."""
    (x1, y1, x2, y2), (cx, cy) = seg, centre
    dx, dy = x2 - x1, y2 - y1
    t = max(0.0, min(1.0, ((cx - x1) * dx + (cy - y1) * dy) / float(dx * dx + dy * dy)))
    return (x1 + t * dx - cx) ** 2 + (y1 + t * dy - cy) ** 2 < r * r


@pytest.mark.parametrize("path", BOARDS + ["serpentine"], ids=os.path.basename)
def test_no_arrow_runs_through_a_number_or_a_name(tmp_path, path):
    # No arrow runs through a chain number or a square name, and "M1 custom"
    # keeps clear of the first number on the 8x8 DIY picture.
    wiring = None
    if path == "serpentine":
        layout, modules, _ = layoutfile.load(os.path.join(ROOT, "boards", "4x5.json"))
        wiring = _serpentine_wiring(tmp_path, layout, modules)
    else:
        layout, modules, _ = layoutfile.load(path)
    _w, _h, items, points, _name = picture.shapes(layout, modules, wiring)
    links = [i[2:6] for i in items if i[0] == "line" and i[1] == "link"]
    jumps = [i[2] for i in items if i[0] == "curve"]
    assert len(links) + len(jumps) == layout.size - 1
    lines = links + [p + q for pts in jumps for p, q in zip(pts, pts[1:])]
    labels = [(i[8], picture.text_box(i[2], i[3], i[4], i[6], i[8])) for i in items
              if i[0] == "text" and i[1] in ("name", "module", "in")]
    assert len(labels) == 2 * layout.size - layout.size + len(modules) + 1
    badges = [(i[2], i[3]) for i in items if i[0] == "circle"]
    assert sorted(badges) == sorted(points)
    for seg in lines:  # every line stops at the badges, and passes no other
        for centre in badges:
            assert not _near(seg, centre, picture.BADGE), (seg, centre)
    for text, box in labels:
        for seg in links:
            assert not picture._crosses(seg, box), (text, seg)
        for cx, cy in badges:
            r = picture.BADGE
            assert not picture._overlap(box, (cx - r, cy - r, cx + r, cy + r)), (text, cx, cy)
    for k, (text, box) in enumerate(labels):
        for other, box2 in labels[:k]:
            assert not picture._overlap(box, box2), (text, other)
    # Labels a dashed jump passes under sit on their square's tint (the halo).
    halos = [i for i in items if i[0] == "text" and i[1] in ("name", "module", "in")]
    assert all(i[9] for i in halos)
