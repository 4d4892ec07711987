"""KiCad's library footprints read from their own files (no KiCad program
needed): each pad's place and size and the courtyard, and where they land on
a board once a part is placed. Placement and routing lay everything from
these, so no pad offset is typed in our code.

    led = footprints.load("LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm")
    led.pads["1"]                      # (-2.45, -1.65): the footprint's own frame, y down
    footprints.pads_of(part)           # {"1": (x, y), ...}: the board's frame, y up

A part (circuit.part) lies at `at` (the board's frame: mm, y up), turned by
`rot` degrees counter-clockwise as KiCad turns it, on the top or bottom side
(bottom: mirrored left to right about its place, as pcbnew's Flip does);
a footprint whose origin is its pin 1 (catalogue: anchor "pads") is placed by
its pads' middle instead.
"""

import math
import os

from attila_tools.errors import ToolError
from attila_tools.hardware import pcbfile

LIBRARY = os.environ.get("KICAD9_FOOTPRINT_DIR", "/usr/share/kicad/footprints")

_cache = {}


class FootprintMissing(ToolError):
    """A footprint that is not in KiCad's library where we look."""


class Footprint:
    """A library footprint: pads and courtyard in its own frame (mm, y down)."""

    def __init__(self, lib_id, pads, sizes, courtyard, marks):
        self.lib_id = lib_id
        self.pads = pads  # number -> (x, y) of its first pad of that number
        self.all_pads = sizes  # [(number, (x, y), (w, h))] every pad, holes too
        self.courtyard = courtyard  # (x0, y0, x1, y1), or None
        self.marks = marks  # [((x0, y0), (x1, y1))]: its lines on Dwgs.User (a "PCB Edge")

    def middle(self):
        """The middle of the pads' span (where a part placed by its pads lies)."""
        xs = [p[1][0] for p in self.all_pads if p[0]]
        ys = [p[1][1] for p in self.all_pads if p[0]]
        return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


def load(lib_id):
    """The footprint `lib_id` ("Library:Name") from KiCad's library."""
    if lib_id not in _cache:
        lib, name = lib_id.split(":")
        path = os.path.join(LIBRARY, lib + ".pretty", name + ".kicad_mod")
        if not os.path.exists(path):
            raise FootprintMissing("%s: no footprint %s (KiCad's footprints: kicad-footprints)"
                                   % (path, lib_id))
        with open(path, encoding="utf-8") as f:
            tree = pcbfile.parse(f.read(), path)
        pads, sizes = {}, []
        for node in pcbfile.find_all(tree, "pad"):
            at, size = pcbfile.find(node, "at"), pcbfile.find(node, "size")
            xy = (float(at[1]), float(at[2]))
            sizes.append((str(node[1]), xy, (float(size[1]), float(size[2]))))
            if node[1]:
                pads.setdefault(str(node[1]), xy)
        marks = []
        for node in pcbfile.find_all(tree, "fp_line"):
            if pcbfile.find(node, "layer")[1] == "Dwgs.User":
                s, e = pcbfile.find(node, "start"), pcbfile.find(node, "end")
                marks.append(((float(s[1]), float(s[2])), (float(e[1]), float(e[2]))))
        _cache[lib_id] = Footprint(lib_id, pads, sizes, _courtyard(tree), marks)
    return _cache[lib_id]


def _courtyard(tree):
    pts = []
    for key in ("fp_line", "fp_rect", "fp_poly", "fp_circle"):
        for item in pcbfile.find_all(tree, key):
            layer = pcbfile.find(item, "layer")
            if layer is None or layer[1] != "F.CrtYd":
                continue
            ends = [pcbfile.find(item, k) for k in ("start", "center", "end")]
            ends = [(float(v[1]), float(v[2])) for v in ends if v is not None]
            if key == "fp_circle":
                (cx, cy), (ex, ey) = ends
                r = math.hypot(ex - cx, ey - cy)
                ends = [(cx - r, cy - r), (cx + r, cy + r)]
            pts += ends
            poly = pcbfile.find(item, "pts")
            if poly is not None:
                pts += [(float(q[1]), float(q[2])) for q in pcbfile.find_all(poly, "xy")]
    if not pts:
        return None
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def turn(local, rot, side="top"):
    """A footprint-frame offset (y down) as a board-frame offset (y up): turned
    counter-clockwise by rot degrees, mirrored on the bottom side."""
    a = math.radians(rot)
    c, s = round(math.cos(a), 12), round(math.sin(a), 12)
    x, y = local
    dx, dy = x * c + y * s, -x * s + y * c  # on KiCad's page (y down)
    if side == "bottom":
        dx = -dx
    return (dx, -dy)


def origin(part):
    """Where the footprint's origin lies (the board's frame)."""
    x, y = part["at"]
    if part.get("anchor") != "pads":
        return (x, y)
    mx, my = turn(load(part["footprint"]).middle(), part["rot"], part["side"])
    return (x - mx, y - my)


def pads_of(part):
    """{pad number: (x, y)} of a placed part, in the board's frame (mm, y up)."""
    fp = load(part["footprint"])
    ox, oy = origin(part)
    out = {}
    for number, xy in fp.pads.items():
        dx, dy = turn(xy, part["rot"], part["side"])
        out[number] = (round(ox + dx, 4), round(oy + dy, 4))
    return out


def all_pads_of(part):
    """{pad number: [(x, y), ...]} of every pad of a placed part (a button's two pads 1)."""
    fp = load(part["footprint"])
    ox, oy = origin(part)
    out = {}
    for number, xy, _size in fp.all_pads:
        if number:
            dx, dy = turn(xy, part["rot"], part["side"])
            out.setdefault(number, []).append((round(ox + dx, 4), round(oy + dy, 4)))
    return out


def pad_size(part, number):
    """(width, height) of a placed part's pad in the board's frame (turned)."""
    for n, _xy, (w, h) in load(part["footprint"]).all_pads:
        if n == str(number):
            quarter = round(part["rot"] / 90) % 2
            return (h, w) if quarter else (w, h)
    raise KeyError("%s has no pad %s" % (part["ref"], number))


def courtyard_of(part):
    """(x0, y0, x1, y1) of a placed part's courtyard in the board's frame."""
    box = load(part["footprint"]).courtyard
    ox, oy = origin(part)
    corners = [turn(c, part["rot"], part["side"]) for c in
               ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))]
    xs, ys = [ox + c[0] for c in corners], [oy + c[1] for c in corners]
    return (min(xs), min(ys), max(xs), max(ys))
