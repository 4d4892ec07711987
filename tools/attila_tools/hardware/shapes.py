"""Copper shapes and whether two of them touch (connectivity.py joins them into nets).

A shape is a tuple: ("seg", a, b, half width) for a track or an oval pad,
("disc", centre, radius) for a via or a round pad, ("box", centre, half
width, half height, angle) for a rectangular pad, ("poly", points) for a
pour's filled polygon; points are KiCad's page (mm, y down).
"""

import math

EPS = 1e-3  # mm: copper that touches at a point touches


def _turn(v, angle):
    """A pad-local vector on the page (KiCad turns counter-clockwise, y down)."""
    a = math.radians(angle)
    return (v[0] * math.cos(a) + v[1] * math.sin(a), -v[0] * math.sin(a) + v[1] * math.cos(a))


def pad_geo(pad):
    w, h = pad.size
    c = pad.at
    if pad.shape == "circle":
        return ("disc", c, w / 2)
    if pad.shape == "oval" and abs(w - h) > EPS:
        half = (max(w, h) - min(w, h)) / 2
        d = _turn((half, 0.0) if w > h else (0.0, half), pad.angle)
        return ("seg", (c[0] - d[0], c[1] - d[1]), (c[0] + d[0], c[1] + d[1]), min(w, h) / 2)
    if pad.shape == "oval":
        return ("disc", c, w / 2)
    return ("box", c, w / 2, h / 2, pad.angle)


def bbox(geo):
    kind = geo[0]
    if kind == "seg":
        (ax, ay), (bx, by), r = geo[1], geo[2], geo[3]
        return (min(ax, bx) - r, min(ay, by) - r, max(ax, bx) + r, max(ay, by) + r)
    if kind == "disc":
        (x, y), r = geo[1], geo[2]
        return (x - r, y - r, x + r, y + r)
    if kind == "box":
        pts = _corners(geo)
    else:
        pts = geo[1]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def _corners(geo):
    _k, (x, y), hw, hh, angle = geo
    out = []
    for v in ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)):
        d = _turn(v, angle)
        out.append((x + d[0], y + d[1]))
    return out


def _to_box(p, geo):
    """A page point in a box's own frame (centred, not turned)."""
    _k, (x, y), _hw, _hh, angle = geo
    return _turn((p[0] - x, p[1] - y), -angle)


def _point_seg(p, a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _seg_seg(a, b, c, d):
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 and d2 and d3 and d4:
        return 0.0
    return min(_point_seg(a, c, d), _point_seg(b, c, d), _point_seg(c, a, b), _point_seg(d, a, b))


def _point_box(p, geo):
    """Distance from a page point to a box (0 inside)."""
    x, y = _to_box(p, geo)
    dx, dy = max(abs(x) - geo[2], 0.0), max(abs(y) - geo[3], 0.0)
    return math.hypot(dx, dy)


def _seg_box(a, b, geo):
    if _point_box(a, geo) == 0.0 or _point_box(b, geo) == 0.0:
        return 0.0
    cs = _corners(geo)
    return min(_seg_seg(a, b, cs[i], cs[(i + 1) % 4]) for i in range(4))


def inside(p, pts):
    """Whether a point lies inside a polygon (even-odd: KiCad's filled
    polygons are single outlines, their holes joined by slits)."""
    x, y = p
    odd = False
    j = len(pts) - 1
    for i in range(len(pts)):
        (xi, yi), (xj, yj) = pts[i], pts[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            odd = not odd
        j = i
    return odd


def touch(a, b):
    """Whether two items' copper meets (on a layer both are on)."""
    if not (a.layers & b.layers):
        return False
    ab, bb = a.box, b.box
    if ab[0] > bb[2] + EPS or bb[0] > ab[2] + EPS or ab[1] > bb[3] + EPS or bb[1] > ab[3] + EPS:
        return False
    ga, gb = a.geo, b.geo
    order = ("seg", "disc", "box", "poly")
    if order.index(ga[0]) > order.index(gb[0]):
        ga, gb = gb, ga
    ka, kb = ga[0], gb[0]
    if kb == "poly":
        pts = gb[1]
        # solid, or the thermal relief's spokes reaching into a pad
        box = a.box if a.geo is ga else b.box
        near = [p for p in pts if box[0] - EPS <= p[0] <= box[2] + EPS
                and box[1] - EPS <= p[1] <= box[3] + EPS]
        if ka == "seg":
            mid = ((ga[1][0] + ga[2][0]) / 2, (ga[1][1] + ga[2][1]) / 2)
            return any(inside(p, pts) for p in (ga[1], ga[2], mid)) or any(
                _point_seg(p, ga[1], ga[2]) <= ga[3] + EPS for p in near)
        if ka == "disc":
            return inside(ga[1], pts) or any(
                math.hypot(p[0] - ga[1][0], p[1] - ga[1][1]) <= ga[2] + EPS for p in near)
        if ka == "box":
            return inside(ga[1], pts) or any(_point_box(p, ga) <= EPS for p in near)
        return False  # two fills of one zone do not overlap
    if ka == "seg":
        if kb == "seg":
            return _seg_seg(ga[1], ga[2], gb[1], gb[2]) <= ga[3] + gb[3] + EPS
        if kb == "disc":
            return _point_seg(gb[1], ga[1], ga[2]) <= ga[3] + gb[2] + EPS
        return _seg_box(ga[1], ga[2], gb) <= ga[3] + EPS
    if ka == "disc":
        if kb == "disc":
            return math.hypot(ga[1][0] - gb[1][0], ga[1][1] - gb[1][1]) <= ga[2] + gb[2] + EPS
        return _point_box(ga[1], gb) <= ga[2] + EPS
    return any(_point_box(p, gb) <= EPS for p in _corners(ga) + [ga[1]]) or any(
        _point_box(p, ga) <= EPS for p in _corners(gb) + [gb[1]])
