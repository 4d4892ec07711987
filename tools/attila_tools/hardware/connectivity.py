"""Which copper touches which on a board, read from its file (no KiCad needed).

The nets as the copper makes them, not as the pads' labels say: a pad is on
the piece of copper it touches (tracks, vias, other pads, the pour's filled
polygons), so a track left out or cut splits a net, and copper that joins
two labels shorts them.

    copper = connectivity.Copper(pcbfile.load(path))
    copper.net("U1", "2")      # 'CLOCK', or 'CLOCK (piece 2)' when cut off from it
    copper.problems            # ['net CLOCK is open: ...'], [] on a sound board
"""

import math

EPS = 1e-3  # mm: copper that touches at a point touches
CELL = 4.0  # mm: the grid the pairs are looked up in


class Item:
    """One piece of copper: a pad, a track, a via or a zone's filled polygon."""

    def __init__(self, kind, net, layers, geo, ref=None, pin=None):
        self.kind, self.net, self.layers, self.geo = kind, net, layers, geo
        self.ref, self.pin = ref, pin
        self.box = _bbox(geo)

    def where(self):
        if self.kind == "pad":
            return "%s.%s" % (self.ref, self.pin)
        return self.kind


def _cu(names):
    out = set()
    for n in names:
        if n in ("*.Cu", "F&B.Cu"):
            out |= {"F.Cu", "B.Cu"}
        elif n.endswith(".Cu"):
            out.add(n)
    return frozenset(out)


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


def _bbox(geo):
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


def items(board):
    """Every piece of copper of a pcbfile.Pcb as Items (pads first)."""
    out = []
    for fp in sorted(board.footprints.values(), key=lambda f: f.ref):
        for pad in fp.all_pads:
            layers = _cu(pad.layers)
            if layers and pad.kind != "np_thru_hole":
                out.append(Item("pad", pad.net, layers, pad_geo(pad), fp.ref, pad.number))
    for net, layer, width, a, b in board.tracks:
        out.append(Item("track", net, frozenset([layer]), ("seg", a, b, width / 2)))
    for net, xy, size, _drill in board.vias:
        out.append(Item("via", net, frozenset(["F.Cu", "B.Cu"]), ("disc", xy, size / 2)))
    for net, layer, pts in board.fills:
        out.append(Item("zone", net, frozenset([layer]), ("poly", pts)))
    return out


def links(its):
    """{index: set of indices} of the items whose copper meets."""
    adj = {i: set() for i in range(len(its))}
    grid = {}
    zones = []
    for i, it in enumerate(its):
        if it.kind == "zone":
            zones.append(i)
            continue
        x0, y0, x1, y1 = it.box
        for cx in range(int(math.floor(x0 / CELL)), int(math.floor(x1 / CELL)) + 1):
            for cy in range(int(math.floor(y0 / CELL)), int(math.floor(y1 / CELL)) + 1):
                grid.setdefault((cx, cy), []).append(i)
    for cell in grid.values():
        for n, i in enumerate(cell):
            for j in cell[n + 1:]:
                if j not in adj[i] and touch(its[i], its[j]):
                    adj[i].add(j)
                    adj[j].add(i)
    for z in zones:
        for i, it in enumerate(its):
            if it.kind != "zone" and touch(its[z], it):
                adj[z].add(i)
                adj[i].add(z)
    return adj


def pieces(adj, skip=()):
    """The connected pieces (lists of indices) of a link table, less `skip`."""
    seen, out = set(skip), []
    for start in sorted(adj):
        if start in seen:
            continue
        piece, stack = [], [start]
        seen.add(start)
        while stack:
            i = stack.pop()
            piece.append(i)
            for j in adj[i]:
                if j not in seen:
                    seen.add(j)
                    stack.append(j)
        out.append(sorted(piece))
    return out


class Copper:
    """A board's nets as its copper makes them."""

    def __init__(self, board):
        self.board = board
        self.items = items(board)
        self.adj = links(self.items)
        self.pieces = pieces(self.adj)
        self.problems = []
        self.name = {}  # piece index -> name
        labels = {}
        for k, piece in enumerate(self.pieces):
            pads = [self.items[i] for i in piece if self.items[i].kind == "pad"]
            nets = sorted({it.net for it in (self.items[i] for i in piece) if it.net})
            if len(nets) > 1:
                self.problems.append("nets %s are shorted: %s" % (
                    " and ".join(nets), ", ".join(sorted(p.where() for p in pads)[:6])))
            for net in nets:
                if pads:
                    labels.setdefault(net, []).append(k)
            self.name[k] = "+".join(nets)
        for net, ks in sorted(labels.items()):
            if len(ks) < 2:
                continue
            ks.sort(key=lambda k: (-self._pads(k), self.pieces[k][0]))
            for n, k in enumerate(ks[1:], 2):
                if self.name[k] == net:
                    self.name[k] = "%s (piece %d)" % (net, n)
            self.problems.append("net %s is open: its pads fall into %d pieces: %s" % (
                net, len(ks), " | ".join(", ".join(self.pads_of_piece(k)) for k in ks)))
        self.piece_of = {}
        for k, piece in enumerate(self.pieces):
            for i in piece:
                self.piece_of[i] = k
        self._pad = {}
        for i, it in enumerate(self.items):
            if it.kind == "pad":
                self._pad.setdefault((it.ref, it.pin), i)

    def _pads(self, k):
        return sum(1 for i in self.pieces[k] if self.items[i].kind == "pad")

    def pads_of_piece(self, k):
        return sorted("%s.%s" % (self.items[i].ref, self.items[i].pin)
                      for i in self.pieces[k] if self.items[i].kind == "pad")

    def net(self, ref, pin):
        """The name of the copper a pad is on (None: no such pad)."""
        i = self._pad.get((ref, str(pin)))
        return None if i is None else self.name[self.piece_of[i]]

    def every(self, ref, pin):
        """The names of the copper under every pad of one number (a shell's several pads)."""
        return {self.name[self.piece_of[i]] for i, it in enumerate(self.items)
                if it.kind == "pad" and it.ref == ref and it.pin == str(pin)}

    def nets_of(self, ref):
        """{pad number: net} of one part."""
        return {pin: self.name[self.piece_of[i]] for (r, pin), i in self._pad.items() if r == ref}

    def pads(self, net):
        """[(ref, pin)] on a net, sorted."""
        return sorted(key for key, i in self._pad.items() if self.name[self.piece_of[i]] == net)
