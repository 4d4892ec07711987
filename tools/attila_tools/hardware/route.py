"""The tracks of a board as data, for pcbgen to draw (KiCad's DRC is the judge).

The routers (route_cell.py and route_spine.py for a module,
route_controller.py for the controller) lay their few nets by rule rather
than with an autorouter: every point is a pad of a placed part
(footprints.py) or a named step from one. Each track takes its net class's
width and each via its net class's size (rules.py): nothing is typed here.

Points are the board's own frame (mm, y up); pcbgen turns them into
KiCad's page.
"""

from attila_tools.hardware import footprints, rules

F, B = "F.Cu", "B.Cu"


class Route:
    """What a router lays: tracks, vias and ground pours."""

    def __init__(self, parts):
        self.parts = {p["ref"]: p for p in parts}
        self._pads = {}
        self.tracks = []  # (net, layer, width, (x1, y1), (x2, y2))
        self.vias = []  # (net, (x, y), diameter, drill)
        self.pours = []  # (net, layer, (x0, y0, x1, y1))
        self.lines = {}  # (x, net) -> [y, ...]: points a bottom-side line must join

    def pad(self, ref, number):
        """Where a placed part's pad lies (the board's frame)."""
        if ref not in self._pads:
            self._pads[ref] = footprints.pads_of(self.parts[ref])
        return self._pads[ref][str(number)]

    def pin(self, ref, role):
        """A part's pad by its role in the catalogue ("data_out")."""
        return self.pad(ref, self.parts[ref]["choice"].pin(role))

    def track(self, net, layer, pts):
        """A track through pts, as wide as its net class lays."""
        width = rules.net_class(net)["track"]
        pts = [(round(x, 4), round(y, 4)) for x, y in pts]
        for a, b in zip(pts, pts[1:]):
            if a != b:
                self.tracks.append((net, layer, width, a, b))

    def via(self, net, xy):
        """A via of its net class's size (one only where two lanes meet)."""
        xy = (round(xy[0], 4), round(xy[1], 4))
        if any(v[1] == xy for v in self.vias):
            return
        c = rules.net_class(net)
        self.vias.append((net, xy, c["via"], c["drill"]))

    def to_line(self, net, x, pts):
        """A top lane along pts, on to line x at the last point's height, a via there."""
        end = (x, pts[-1][1])
        self.track(net, F, list(pts) + [end])
        self.via(net, end)
        self.join(net, x, end[1])

    def join(self, net, x, y):
        """A point of the bottom-side line x that the line must reach."""
        self.lines.setdefault((round(x, 4), net), []).append(round(y, 4))

    def draw_lines(self):
        for (x, net), ys in sorted(self.lines.items()):
            if len(ys) > 1:
                self.track(net, B, [(x, min(ys)), (x, max(ys))])

    def pour(self, net, layer, box):
        """`net` poured over the box on one side, around the other copper."""
        self.pours.append((net, layer, box))
