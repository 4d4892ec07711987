"""The printable parts: closed solids, the baffle over the board's LEDs and
clear of its parts, the board in its tray at the stated fit, trays joined
side by side at the pitch with their magnets north to south, the
controller's case open where its connectors are; and parts made wrong on
purpose fail the same checks.

The boards' parts come from their .kicad_pcb (the KiCad branch); where a
board file is not there yet those tests skip and say so, and the same
checks run against the parts geometry.py places.
"""

import os

import pytest

pytest.importorskip("build123d", reason="build123d is not installed (make install)")

from build123d import Box, Pos  # noqa: E402

from attila.game.layoutfile import load  # noqa: E402
from attila_tools.hardware import geometry  # noqa: E402
from attila_tools.hardware.parts import baffle, board, case, checks, controller  # noqa: E402
from attila_tools.hardware.parts import dims, export, field, layout, mesh, tray  # noqa: E402

KINDS = ("2x2", "2x3")


@pytest.fixture(scope="module")
def trays():
    return {kind: tray.tray(kind) for kind in KINDS}


@pytest.fixture(scope="module")
def baffles():
    return {kind: baffle.baffle(kind) for kind in KINDS}


def pcb_board(kind):
    found = board.module_parts(kind)
    if found is None:
        pytest.skip(board.missing("module-" + kind))
    return found


@pytest.fixture(scope="module")
def stls(tmp_path_factory):
    """What `make hardware-parts` writes (without the pictures)."""
    out = tmp_path_factory.mktemp("hardware")
    assert export.main(["--out", str(out), "--no-pictures"]) == 0
    return {f[:-4]: str(out / f) for f in sorted(os.listdir(out)) if f.endswith(".stl")}


def test_every_part_is_written_as_stl_and_step_named_by_kind(stls):
    assert sorted(stls) == ["controller-case", "controller-case-key", "controller-case-lid",
                            "module-2x2-baffle", "module-2x2-tray", "module-2x3-baffle",
                            "module-2x3-tray"]
    for path in stls.values():
        with open(path[:-4] + ".step") as f:
            assert f.readline().startswith("ISO-10303-21")


def test_every_stl_is_a_closed_solid(stls):
    for name, path in stls.items():
        tris = mesh.read_stl(path)
        assert mesh.problems(tris) == [], name
        assert mesh.volume(tris) > 100, name


def test_an_stl_with_a_hole_or_a_doubled_face_is_not_closed(stls):
    tris = mesh.read_stl(stls["module-2x2-baffle"])
    assert mesh.problems(tris[1:]) == ["3 open edges (no triangle on the other side)"]
    assert mesh.problems(tris + tris[:1]) == [
        "3 edges run the same way by more than one triangle"]
    flipped = [(a, c, b) for a, b, c in tris]
    assert mesh.problems(flipped)[-1].startswith("volume -")


@pytest.mark.parametrize("kind", KINDS)
def test_the_baffle_sits_over_the_leds_placed_by_geometry(baffles, trays, kind):
    assert checks.baffle_problems(baffles[kind], trays[kind], kind,
                                  board.from_geometry(kind)) == []


@pytest.mark.parametrize("kind", KINDS)
def test_the_baffle_sits_over_the_boards_leds_and_clears_its_parts(baffles, trays, kind):
    real = pcb_board(kind)
    assert checks.baffle_problems(baffles[kind], trays[kind], kind, real) == []


def test_a_baffle_with_a_cell_2_mm_or_0_8_mm_off_fails(trays):
    geo = board.from_geometry("2x2")
    bad = baffle.baffle("2x2", shift={3: (0.0, -2.0)})
    # its wall to square 1 (1.6 mm) is cut through: LED 4 and LED 2 share a cell
    assert checks.baffle_problems(bad, trays["2x2"], "2x2", geo) == [
        "2x2 LED2 at (60.00, 20.00): no cell around it",
        "2x2 LED4 at (60.00, 60.00): no cell around it"]
    bad = baffle.baffle("2x2", shift={0: (0.8, 0.0)})
    assert checks.baffle_problems(bad, trays["2x2"], "2x2", geo) == [
        "2x2 LED1 at (20.00, 20.00): its cell's centre is 0.60 mm off (at most 0.5)"]
    real = board.module_parts("2x2")
    if real is not None:  # and against the board itself
        found = checks.baffle_problems(bad, trays["2x2"], "2x2", real)
        assert found and found[0].endswith("its cell's centre is 0.60 mm off (at most 0.5)")


@pytest.mark.parametrize("kind", KINDS)
def test_the_board_fits_its_tray_at_the_stated_fit(trays, kind):
    b = board.from_geometry(kind)
    fit = checks.measured_fit(trays[kind], b)
    assert {side: round(gap, 2) for side, gap in fit.items()} == {
        "left": dims.FIT, "right": dims.FIT, "bottom": dims.FIT, "top": dims.FIT}
    assert checks.tray_problems(trays[kind], kind, b) == []


@pytest.mark.parametrize("kind", KINDS)
def test_the_real_board_fits_its_tray_and_its_connectors_clear_it(trays, kind):
    real = pcb_board(kind)
    assert checks.tray_problems(trays[kind], kind, real) == []


def test_a_tray_1_mm_short_fails(trays):
    bad = tray.shortened(trays["2x2"], "2x2", 1.0)
    found = checks.tray_problems(bad, "2x2", board.from_geometry("2x2"))
    assert "2x2 tray: the board's right edge is -0.70 mm from the wall (0.3 +- 0.1)" in found
    joined = checks.join_problems(bad, "2x2", trays["2x3"], "2x3", 0)
    assert "2x3 beside 2x2 turned 0: its first column at x = 99.00, not 100.00" in joined
    real = board.module_parts("2x2")
    if real is not None:  # and against the board itself
        assert "2x2 tray: the board does not fit (it meets the tray)" in checks.tray_problems(
            bad, "2x2", real)


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_trays_joined_side_by_side_keep_the_pitch_and_their_magnets_meet(trays, turn):
    assert checks.join_problems(trays["2x2"], "2x2", trays["2x3"], "2x3", turn) == []


def test_every_outline_square_edge_keeps_a_magnet_and_each_has_its_pocket(trays):
    p = geometry.PITCH
    for kind in KINDS:
        found = tray.magnets(kind)
        for (x, y), (dx, dy), n in tray.outline_edges(kind):
            on = [m for m in found if m[2] == n and 0 < (m[0] - x) * dx + (m[1] - y) * dy < p]
            assert on, (kind, x, y)
        # two a square edge, less at most two by each connector (its plug would meet them)
        w, h = geometry.size(kind)
        assert 2 * 2 * (w + h) - 4 <= len(found) < 2 * 2 * (w + h)
        assert checks.magnet_pockets(trays[kind], kind) == []


def test_the_magnets_meet_north_to_south_at_every_turn_and_offset():
    """Data only, every pair of sides: tray b turned so its side faces a's
    right side, slid along by whole squares."""
    p = geometry.PITCH
    for ka in KINDS:
        wa, ha = geometry.squares_outline(ka)
        right = {round(y, 3): pole for x, y, n, pole in tray.magnets(ka) if n == (1, 0)}
        for kb in KINDS:
            for turn in (0, 90, 180, 270):
                wb, hb = geometry.squares_outline(kb)
                span = hb if turn in (0, 180) else wb
                for shift in range(-int(span / p) + 1, int(ha / p)):
                    loc = Pos(wa, shift * p, 0) * layout.module_location(kb, 0, 0, turn)
                    left = {}
                    for x, y, _n, pole in tray.magnets(kb):
                        bx, by = layout.to_layout(loc, (x, y))
                        if abs(bx - wa) < 1e-6 and -1e-6 < by < ha + 1e-6:
                            left[round(by, 3)] = pole
                    lo, hi = max(0.0, shift * p), min(ha, shift * p + span)
                    assert checks.magnets_meet("", right, left, lo, hi) == [], (
                        ka, kb, turn, shift)


@pytest.mark.parametrize("kind", KINDS)
def test_the_trays_magnets_pull_on_the_switches_far_less_than_a_piece(kind):
    real = pcb_board(kind)
    assert len(real["reeds"]) == geometry.squares(kind)
    tray_mt, piece_mt = field.reed_fields(kind, real["reeds"])
    assert tray_mt < 0.25 * piece_mt


def test_the_docs_list_what_the_4x5_board_needs():
    with open(export.BUY_FIGURES, encoding="utf-8") as f:
        assert f.read() == export.buy_figures(), "run make hardware-parts"


def shipped_layouts():
    folder = os.path.join(export.ROOT, "boards")
    out = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name)) as f:
                if '"modules"' in f.read():
                    out.append(os.path.join(folder, name))
    return out


@pytest.mark.parametrize("path", shipped_layouts(), ids=os.path.basename)
def test_in_every_shipped_layout_the_touching_trays_magnets_meet_north_to_south(path):
    _layout, modules, _tiles = load(path)
    owner = {place: i for i, m in enumerate(modules) for place in m.places}
    shared = {}  # (module, module): squares side by side
    for (f, r), i in owner.items():
        for j in (owner.get((f + 1, r)), owner.get((f, r + 1))):
            if j is not None and j != i:
                shared[tuple(sorted((i, j)))] = shared.get(tuple(sorted((i, j))), 0) + 1
    seen = {}
    for i, (kind, loc) in enumerate(layout.placements(path)):
        for x, y, _n, pole in tray.magnets(kind):
            px, py = layout.to_layout(loc, (x, y))
            seen.setdefault((round(px, 2), round(py, 2)), []).append((i, pole))
    pairs = {}
    for place, found in seen.items():
        assert len(found) <= 2, place
        if len(found) == 2:
            (a, pa), (b, pb) = found
            assert pa == -pb, "like poles meet at %s" % (place,)
            pairs[tuple(sorted((a, b)))] = pairs.get(tuple(sorted((a, b))), 0) + 1
    assert set(pairs) <= set(shared)
    for touching, squares in shared.items():
        if squares >= 2:
            assert pairs.get(touching, 0) >= 1, touching
    held = {i for touching in pairs for i in touching}
    assert held == set(range(len(modules)))


def test_the_trays_lie_where_the_firmware_puts_the_modules():
    path = os.path.join(export.ROOT, "boards", "4x5.json")
    _layout, modules, _tiles = load(path)
    for m, (kind, loc) in zip(modules, layout.placements(path)):
        for k, (f, r) in enumerate(m.places):
            x, y = layout.to_layout(loc, geometry.square_centre(kind, k))
            assert (round(x, 6), round(y, 6)) == ((f + 0.5) * geometry.PITCH,
                                                  (r + 0.5) * geometry.PITCH)


def controller_layout_or_skip():
    if board.missing("controller"):
        pytest.skip(board.missing("controller"))
    return controller.layout()[0]


def test_the_case_opens_over_the_usb_the_card_the_cable_the_buttons_and_the_piezo():
    lay = controller_layout_or_skip()
    base, lid = case.box(lay), case.lid(lay)
    bx, by, bw, bd, t = lay["board"]
    assert checks.overlap(base, checks.box(bx, by, case.board_z(), bx + bw, by + bd,
                                           case.board_z() + t)) < checks.EPS
    x0, y0, w, d = case.outline(lay)
    assert {"usb", "sd", "chain"} <= set(lay["ports"])
    for name, side, _centre, _width, z0, z1 in case.ports(lay):
        x, y, iw, idp, _ih = lay[name]
        z0, z1 = z0 + 0.3, min(z1, case.height(lay)) - 0.3
        # the connector's mouth, drawn out through the wall
        if side == "left":
            path = checks.box(x0 - 1, y + 0.5, z0, x + 1, y + idp - 0.5, z1)
        elif side == "right":
            path = checks.box(x + iw - 1, y + 0.5, z0, x0 + w + 1, y + idp - 0.5, z1)
        elif side == "bottom":
            path = checks.box(x + 0.5, y0 - 1, z0, x + iw - 0.5, y + 1, z1)
        else:
            path = checks.box(x + 0.5, y + idp - 1, z0, x + iw - 0.5, y0 + d + 1, z1)
        assert checks.overlap(base, path) < checks.EPS, name
    h = case.height(lay)
    for i, (x, y, bw, bd, bh) in enumerate(lay["buttons"]):
        k = case.key(lay, i)
        assert checks.overlap(lid, k) < checks.EPS
        assert checks.overlap(base, k) < checks.EPS
        assert k.bounding_box().min.Z > case.board_z() + t + bh  # above its switch
        assert k.bounding_box().max.Z > h + case.LID  # a finger reaches it
    px, py, pw, pd, _h = lay["piezo"]
    cx, cy = px + pw / 2, py + pd / 2
    assert checks.overlap(lid, checks.box(cx - 0.5, cy - 0.5, h - 1, cx + 0.5, cy + 0.5,
                                          h + case.LID + 1)) < checks.EPS


def test_each_plug_enters_where_the_case_opens():
    lay = controller_layout_or_skip()
    # the USB-C 5 V input faces out of the board's bottom edge, its plug from below
    assert lay["entry"]["power"] == "bottom" and lay["power"][1] <= 0.0
    assert case.entry_problems(lay, case.box(lay)) == []
    assert ("power", "bottom") in [(p[0], p[1]) for p in case.ports(lay)]


def test_the_old_barrel_jack_fails_the_plugs_direction_check():
    # the controller as it was: a PJ-063AH jack 12 mm inside the right edge,
    # its plug from the right, the case cut in the bottom wall nearest to it
    from attila_tools.hardware import pcbfile

    lay = controller_layout_or_skip()
    src_path = os.path.join(export.ROOT, "boards", "pcb", "controller", "controller.kicad_pcb")
    with open(src_path, encoding="utf-8") as f:
        src = f.read()
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "fixtures", "barrel-jack-J2.kicad_fp"), encoding="utf-8") as f:
        jack = f.read().strip()
    a, b = [(a, b) for a, b in pcbfile.blocks(src) if src.startswith("(footprint", a)
            and '(property "Reference" "J2"' in src[a:b]][0]
    lay, _source = controller.from_board(pcbfile.loads(src[:a] + jack + src[b:], "old jack"))
    assert lay["entry"]["power"] == "right"
    assert case.entry_problems(lay, case.box(lay)) == [
        "power: the plug enters from the right, 11.5 mm inside the board's edge"]
    nearest = dict(lay, entry={k: v for k, v in lay["entry"].items() if k != "power"})
    assert case.entry_problems(lay, case.box(nearest)) == [
        "power: the plug enters from the right, 11.5 mm inside the board's edge",
        "power: the plug enters from the right, the case's right wall is closed in front of it"]


@pytest.mark.parametrize("kind", KINDS)
def test_every_hole_has_its_post_and_is_clear_of_every_courtyard(kind):
    from attila_tools.hardware import pcbfile

    real = pcb_board(kind)
    assert sorted(tray.posts(kind)) == sorted(geometry.mounting_holes(kind))
    assert dims.POST_D / 2 + dims.CLEARANCE <= geometry.MOUNT_CLEAR
    pcb = pcbfile.load(board.pcb_path("module-" + kind))
    nodes = {}
    for node in pcbfile.find_all(pcb.tree, "footprint"):
        nodes[{q[1]: q[2] for q in pcbfile.find_all(node, "property")}["Reference"]] = node
    yards = {ref: board.courtyard(nodes[ref], fp) for ref, fp in pcb.footprints.items()}
    holes = [ref for ref in yards if ref.startswith("H")]
    assert len(holes) == len(real["holes"]) == len(geometry.mounting_holes(kind))
    for ref, (x0, y0, x1, y1) in yards.items():
        if ref.startswith("H"):
            continue
        for h in holes:
            hx0, hy0, hx1, hy1 = yards[h]
            assert x1 <= hx0 or hx1 <= x0 or y1 <= hy0 or hy1 <= y0, (ref, h)
        if ref in ("J1", "J2"):  # the keep-out the holes keep clear of covers the header
            kx, ky = geometry.CONNECTOR_KEEPOUT
            assert x1 - x0 <= kx and y1 - y0 <= ky, (ref, x1 - x0, y1 - y0)
