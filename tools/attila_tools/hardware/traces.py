"""A net's copper as a graph, read from a .kicad_pcb: track lengths between
pads, and the resistance the tracks put between them.

    net = Copper(board, "+5V")
    net.length(("J1", "6"), ("U1", "2"))          # mm along the tracks
    net.resistance([("J1", "1")], {("D1", "1"): 0.06, ...})   # volts lost, per pad

Tracks meet at their ends, at a via (both layers) or inside a pad of their
net; a track end that lands on another track's middle joins it there. The
ground pour is not a track: the boards' GND returns through the pour
(supply.py bounds what it adds).
"""

import heapq
import math

from attila_tools.hardware import pcbfile

RHO_CU = 1.72e-8  # ohm m, annealed copper at 20 C
COPPER_M = 35e-6  # 1 oz copper, the fab's default (docs/pages/build/order.md)
PAD_REACH = 1.0  # mm: a track end this close to a pad of its net lands in it
SNAP = 1e-3  # mm: ends this close are one point


def _key(layer, x, y):
    return (layer, round(x / SNAP), round(y / SNAP))


class Copper:
    """The tracks, vias and pads of one net."""

    def __init__(self, board, net):
        self.net = net
        self.edges = {}  # node -> {node: (length mm, ohms)}
        self.pads = {}  # (ref, pad) -> [node]
        segs = [(layer, w, a, b) for n, layer, w, a, b in board.tracks if n == net]
        if not segs:
            raise pcbfile.PcbError("%s: net %s has no tracks" % (board.where, net))
        # split a track where another's end lands on its middle
        ends = [(layer, p) for layer, _w, a, b in segs for p in (a, b)]
        ends += [(layer, xy) for n, xy, _size, _drill in board.vias if n == net
                 for layer in ("F.Cu", "B.Cu")]
        pieces = []
        for layer, w, a, b in segs:
            cut = [a, b]
            for el, p in ends:
                if el == layer and _inside(p, a, b):
                    cut.append(p)
            cut.sort(key=lambda p: (p[0] - a[0]) ** 2 + (p[1] - a[1]) ** 2)
            pieces += [(layer, w, p, q) for p, q in zip(cut, cut[1:]) if p != q]
        for layer, w, a, b in pieces:
            length = math.hypot(b[0] - a[0], b[1] - a[1])
            ohms = RHO_CU * length * 1e-3 / (w * 1e-3 * COPPER_M)
            self._join(_key(layer, *a), _key(layer, *b), length, ohms)
        for n, (x, y), _size, _drill in board.vias:
            if n == net:
                self._join(_key("F.Cu", x, y), _key("B.Cu", x, y), 0.0, 0.0)
        nodes = [(k, layer, (x * SNAP, y * SNAP)) for k in list(self.edges)
                 for layer, x, y in [k]]
        for fp in board.footprints.values():
            for pad in fp.all_pads:
                if pad.net != net:
                    continue
                layers = {"F.Cu", "B.Cu"} if "*.Cu" in pad.layers else set(pad.layers)
                hit = [k for k, layer, p in nodes if layer in layers
                       and math.hypot(p[0] - pad.at[0], p[1] - pad.at[1]) <= PAD_REACH]
                if not hit:
                    continue
                here = ("pad", fp.ref, pad.number)
                for k in hit:
                    self._join(here, k, 0.0, 0.0)
                self.pads.setdefault((fp.ref, pad.number), []).append(here)

    def _join(self, a, b, length, ohms):
        self.edges.setdefault(a, {})
        self.edges.setdefault(b, {})
        if b in self.edges[a]:  # two tracks side by side: in parallel
            l0, r0 = self.edges[a][b]
            ohms = r0 * ohms / (r0 + ohms) if r0 + ohms else 0.0
            length = min(l0, length)
        self.edges[a][b] = self.edges[b][a] = (length, ohms)

    def node(self, pad):
        if pad not in self.pads:
            raise pcbfile.PcbError("net %s: no track reaches pad %s-%s" % (self.net, pad[0], pad[1]))
        return self.pads[pad][0]

    def length(self, a, b):
        """The shortest track length (mm) from pad a to pad b."""
        start, goal = self.node(a), self.node(b)
        best = {start: 0.0}
        todo = [(0.0, 0, start)]
        n = 0
        while todo:
            d, _, k = heapq.heappop(todo)
            if k == goal:
                return d
            if d > best.get(k, math.inf):
                continue
            for m, (length, _ohms) in self.edges[k].items():
                if d + length < best.get(m, math.inf):
                    best[m] = d + length
                    n += 1
                    heapq.heappush(todo, (d + length, n, m))
        raise pcbfile.PcbError("net %s: pads %s and %s are not joined by tracks" % (self.net, a, b))

    def drops(self, sources, sinks):
        """{pad: volts below the sources} with `sinks` {pad: amps} drawn and the
        `sources` pads held at one voltage (nodal analysis of the tracks)."""
        fixed = {self.node(p) for p in sources}
        free = [k for k in self.edges if k not in fixed]
        index = {k: i for i, k in enumerate(free)}
        n = len(free)
        g = [[0.0] * n for _ in range(n)]
        inj = [0.0] * n
        for k, nbrs in self.edges.items():
            if k in fixed:
                continue
            i = index[k]
            for m, (_length, ohms) in nbrs.items():
                c = 1.0 / max(ohms, 1e-9)
                g[i][i] += c
                if m not in fixed:
                    g[i][index[m]] -= c
        for pad, amps in sinks.items():
            inj[index[self.node(pad)]] -= amps  # current out of the copper
        v = _solve(g, inj)  # volts relative to the sources (negative: below)
        out = {}
        for pad in sinks:
            k = self.node(pad)
            out[pad] = -v[index[k]]
        return out


def _inside(p, a, b):
    """Whether p lies on segment a-b, not at its ends."""
    ax, ay = b[0] - a[0], b[1] - a[1]
    px, py = p[0] - a[0], p[1] - a[1]
    ll = ax * ax + ay * ay
    if ll == 0:
        return False
    t = (px * ax + py * ay) / ll
    if t <= 1e-6 or t >= 1 - 1e-6:
        return False
    return abs(px * ay - py * ax) / math.sqrt(ll) < SNAP


def _solve(a, b):
    """x with a x = b (Gaussian elimination with partial pivoting; small systems)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-12:
            raise ValueError("copper network has a part joined to no source")
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x
