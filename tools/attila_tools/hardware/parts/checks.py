"""Fit checks of the printed parts, measured on the solids themselves.

A board is a dict (see board.py): its outline, mounting holes, LEDs and
parts as boxes, in the module's frame. Each check returns a list of
problems, one line each ([] when the part fits).
"""

from build123d import Align, Box, Location, Pos, Rot

from attila_tools.hardware import geometry
from attila_tools.hardware.parts import dims, tray as traymod

MIN = (Align.MIN, Align.MIN, Align.MIN)
EPS = 1e-3  # mm3: a touch, not an overlap
FIT_TOL = 0.1  # the fit measured on each side, to the stated FIT
PITCH_TOL = 0.05
PLUG = 4.0  # a mated IDC plug below its header


def box(x0, y0, z0, x1, y1, z1):
    return Pos(x0, y0, z0) * Box(x1 - x0, y1 - y0, z1 - z0, align=MIN)


def overlap(solid, box):
    common = solid & box
    return sum(s.volume for s in common.solids()) if common else 0.0


def _extent(solid, box):
    """Bounding box of the solid's material inside box, or None."""
    common = solid & box
    if not common or not common.solids():
        return None
    return common.bounding_box()


def cell_walls(baffle, tray, x, y, reach=geometry.PITCH):
    """(left, bottom, right, top): the walls nearest around (x, y) at half the
    baffle's height: the baffle's, else the tray's (at the module's outline)."""
    z0, z1 = dims.BAFFLE_H / 2 - 0.1, dims.BAFFLE_H / 2 + 0.1
    t = 0.05
    rays = [(x - reach, y - t, x, y + t), (x - t, y - reach, x + t, y),
            (x, y - t, x + reach, y + t), (x - t, y, x + t, y + reach)]
    out = []
    for i, (x0, y0, x1, y1) in enumerate(rays):
        e = _extent(baffle, box(x0, y0, z0, x1, y1, z1))
        if e is None:
            e = _extent(tray, box(x0, y0, dims.BAFFLE_Z + z0, x1, y1, dims.BAFFLE_Z + z1))
        if e is None:
            return None
        out.append((e.max.X, e.max.Y, e.min.X, e.min.Y)[i])
    return tuple(out)


def baffle_problems(baffle, tray, kind, board):
    """The baffle (underside at z = 0, the board's top) against the board's
    top side: a cell centred on every LED (closed by the tray's wall at the
    outline), every part clear of the walls."""
    out = []
    for ref, x, y in board["leds"]:
        walls = cell_walls(baffle, tray, x, y)
        if walls is None:
            out.append("%s %s at (%.2f, %.2f): no cell around it" % (kind, ref, x, y))
            continue
        cx, cy = (walls[0] + walls[2]) / 2, (walls[1] + walls[3]) / 2
        off = max(abs(cx - x), abs(cy - y))
        if off > dims.CENTRE_TOL:
            out.append("%s %s at (%.2f, %.2f): its cell's centre is %.2f mm off (at most %.1f)"
                       % (kind, ref, x, y, off, dims.CENTRE_TOL))
    for ref, side, x0, y0, x1, y1, h in board["parts"]:
        if side != "top" or h <= 0:
            continue
        c = dims.CLEARANCE
        if overlap(baffle, box(x0 - c, y0 - c, -1, x1 + c, y1 + c, h + c)) > EPS:
            out.append("%s %s: within %.1f mm of the baffle" % (kind, ref, c))
    return out


def baffle_clearance(baffle, board):
    """The smallest gap (mm, to 0.05) from a part on the board's top to the baffle."""
    best = None
    for _ref, side, x0, y0, x1, y1, h in board["parts"]:
        if side != "top" or h <= 0:
            continue
        gap = _gap(baffle, lambda c: box(x0 - c, y0 - c, -1, x1 + c, y1 + c, h))
        best = gap if best is None else min(best, gap)
    return best


def _gap(solid, grown):
    """The largest margin (to 0.05 mm) by which grown(margin) stays clear of solid."""
    lo, hi = 0.0, 5.0
    if overlap(solid, grown(0.0)) > EPS:
        return 0.0
    while hi - lo > 0.05:
        c = (lo + hi) / 2
        if overlap(solid, grown(c)) > EPS:
            hi = c
        else:
            lo = c
    return lo


def plug_clearance(tray, board):
    """The smallest gap (mm, to 0.05) from a part under the board (a header
    with its plug) to the tray, or None when there is none."""
    best = None
    for ref, side, x0, y0, x1, y1, depth in board["parts"]:
        if side != "bottom":
            continue
        low = dims.BOARD_Z - depth - (PLUG if ref.startswith("J") else 0)
        gap = _gap(tray, lambda c: box(x0 - c, y0 - c, low, x1 + c, y1 + c, dims.BOARD_Z))
        best = gap if best is None else min(best, gap)
    return best


def measured_fit(tray, board):
    """{side: gap} between the board's outline and the tray's wall, in mm."""
    x0, y0, x1, y1 = board["outline"]
    z0 = dims.BOARD_Z + 0.2
    z1 = dims.BOARD_Z + geometry.THICKNESS - 0.2
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    qx, qy = (x1 - x0) / 4, (y1 - y0) / 4
    far = 10.0
    out = {}
    e = _extent(tray, box(x0 - far, my - qy, z0, mx, my + qy, z1))
    out["left"] = x0 - e.max.X if e else None
    e = _extent(tray, box(mx, my - qy, z0, x1 + far, my + qy, z1))
    out["right"] = e.min.X - x1 if e else None
    e = _extent(tray, box(mx - qx, y0 - far, z0, mx + qx, my, z1))
    out["bottom"] = y0 - e.max.Y if e else None
    e = _extent(tray, box(mx - qx, my, z0, mx + qx, y1 + far, z1))
    out["top"] = e.min.Y - y1 if e else None
    return out


def tray_problems(tray, kind, board):
    """The board in its tray: the stated fit on every side, a post under
    every hole, the parts under the board (and a plug in each header) clear."""
    out = []
    for side, gap in sorted(measured_fit(tray, board).items()):
        if gap is None:
            out.append("%s tray: no wall on the %s" % (kind, side))
        elif abs(gap - dims.FIT) > FIT_TOL:
            out.append("%s tray: the board's %s edge is %.2f mm from the wall (%.1f +- %.1f)"
                       % (kind, side, gap, dims.FIT, FIT_TOL))
    z = dims.BOARD_Z - 0.5
    r = dims.PILOT_D / 2 + 0.6
    held = [h for h in board["holes"] if min(abs(h[0] - x) + abs(h[1] - y)
                                             for x, y in traymod.posts(kind)) < 0.01]
    if len(held) < len(board["holes"]):
        out.append("%s tray: posts under %d of the board's %d holes"
                   % (kind, len(held), len(board["holes"])))
    for x, y in held:
        ring = [(x + r, y, z), (x - r, y, z), (x, y + r, z), (x, y - r, z)]
        if not all(tray.is_inside(p) for p in ring) or tray.is_inside((x, y, z)):
            out.append("%s tray: no post (with its pilot hole) under the hole at (%.1f, %.1f)"
                       % (kind, x, y))
    x0, y0, x1, y1 = board["outline"]
    if overlap(tray, box(x0, y0, dims.BOARD_Z, x1, y1, dims.BOARD_Z + geometry.THICKNESS)) > EPS:
        out.append("%s tray: the board does not fit (it meets the tray)" % kind)
    c = dims.CLEARANCE
    for ref, side, px0, py0, px1, py1, depth in board["parts"]:
        if side != "bottom":
            continue
        low = dims.BOARD_Z - depth - (PLUG if ref.startswith("J") else 0)
        if overlap(tray, box(px0 - c, py0 - c, low, px1 + c, py1 + c, dims.BOARD_Z)) > EPS:
            out.append("%s tray: %s under the board (and its plug) within %.1f mm of the tray"
                       % (kind, ref, c))
    return out


def turned(solid, kind, turn):
    """A tray turned clockwise by `turn` about its own centre, and the turn's
    map of module-frame points."""
    w, h = geometry.squares_outline(kind)
    loc = Pos(w / 2, h / 2, 0) * Rot(0, 0, -turn) * Pos(-w / 2, -h / 2, 0)

    def point(p):
        v = (loc * Location((p[0], p[1], 0))).position
        return (v.X, v.Y)
    return loc * solid, point


def join_problems(tray_a, kind_a, tray_b, kind_b, turn_b):
    """Tray b, turned, pushed against tray a's right side (bottoms level):
    its squares must fall on a's grid at the pitch, the two must not overlap,
    and the magnets on the shared edge must meet north to south."""
    out = []
    b, to_b = turned(tray_b, kind_b, turn_b)
    box_a, box_b = tray_a.bounding_box(), b.bounding_box()
    dx, dy = box_a.max.X - box_b.min.X, box_a.min.Y - box_b.min.Y
    b = Pos(dx, dy, 0) * b
    p = geometry.PITCH
    what = "%s beside %s turned %d" % (kind_b, kind_a, turn_b)
    xs = []
    for k in range(geometry.squares(kind_b)):
        x, y = to_b(geometry.square_centre(kind_b, k))
        x, y = x + dx, y + dy
        xs.append(x)
        for v in (x, y):
            if abs((v - p / 2) / p - round((v - p / 2) / p)) * p > PITCH_TOL:
                out.append("%s: its square %d at (%.2f, %.2f) is off the %.0f mm grid"
                           % (what, k, x, y, p))
                break
    first = geometry.size(kind_a)[0] * p + p / 2
    if abs(min(xs) - first) > PITCH_TOL:
        out.append("%s: its first column at x = %.2f, not %.2f" % (what, min(xs), first))
    if overlap(tray_a, b) > EPS:
        out.append("%s: the trays overlap" % what)
    edge = box_a.max.X
    mine = {round(y, 2): pole for x, y, n, pole in traymod.magnets(kind_a) if n == (1, 0)}
    theirs = {}
    for x, y, n, pole in traymod.magnets(kind_b):
        bx, by = to_b((x, y))
        if abs(bx + dx - edge) < 0.01:
            theirs[round(by + dy, 2)] = pole
    out += magnets_meet(what, mine, theirs, max(box_a.min.Y, box_b.min.Y + dy),
                        min(box_a.max.Y, box_b.max.Y + dy))
    return out


def magnets_meet(what, mine, theirs, lo, hi):
    """Magnets across a shared edge from lo to hi ({position: pole} on each
    side): never a pole on its own kind, and at least one pair north to south
    along an edge of more than one square (see tray.magnets)."""
    out = []
    for y in sorted(set(mine) & set(theirs)):
        if mine[y] == theirs[y]:
            out.append("%s: the magnets at %.1f meet pole to the same pole" % (what, y))
    if hi - lo > geometry.PITCH + 1 and pairs(mine, theirs, lo, hi) == 0:
        out.append("%s: no magnets meet between %.0f and %.0f" % (what, lo, hi))
    return out


def pairs(mine, theirs, lo, hi):
    """How many magnets meet north to south between lo and hi."""
    return sum(1 for y in mine if lo < y < hi and theirs.get(y) == -mine[y])


def magnet_pockets(tray, kind):
    """A pocket, open on the outer face, at every magnet."""
    out = []
    depth = dims.MAGNET_T / 2
    for x, y, n, _pole in traymod.magnets(kind):
        inside = (x - n[0] * depth, y - n[1] * depth, dims.MAGNET_Z)
        behind = (x - n[0] * (dims.BLOCK_W - 0.4), y - n[1] * (dims.BLOCK_W - 0.4), dims.MAGNET_Z)
        if tray.is_inside(inside) or not tray.is_inside(behind):
            out.append("%s tray: no magnet pocket at (%.1f, %.1f)" % (kind, x, y))
    return out
