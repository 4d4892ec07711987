"""Read a KiCad 9 board (.kicad_pcb): footprints, pads with their nets, tracks, outline.

A plain s-expression reader in our own code, so that tests and the printed
parts need no KiCad installed:

    board = pcbfile.load("boards/pcb/module-2x3/module-2x3.kicad_pcb")
    board.footprints["D1"].pads["4"].net      # 'LED_IN'
    board.footprints["D1"].at                 # (120.0, 180.0), KiCad's page, mm, y down
    board.outline()                           # (x0, y0, x1, y1) of Edge.Cuts

Positions are KiCad's (mm, y down); frame.to_module turns them into a
module's own frame.
"""

import math
import re

from attila_tools.errors import ToolError

_TOKEN = re.compile(r'\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))')


class PcbError(ToolError):
    """A .kicad_pcb that this reader cannot make sense of (file and place in the message)."""


class Sym(str):
    """A bare word of the file (as opposed to a quoted string)."""


def parse(text, where="<text>"):
    """The nested lists of an s-expression text (bare words as Sym, numbers as str)."""
    stack = [[]]
    pos = 0
    n = len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if not m:
            if text[pos:].strip() == "":
                break
            raise PcbError("%s: bad s-expression at character %d" % (where, pos))
        pos = m.end()
        if m.group(1):
            stack.append([])
        elif m.group(2):
            if len(stack) < 2:
                raise PcbError("%s: unmatched ')' at character %d" % (where, pos))
            done = stack.pop()
            stack[-1].append(done)
        elif m.group(3) is not None:
            stack[-1].append(m.group(3).replace('\\"', '"').replace("\\\\", "\\"))
        elif m.group(4):
            stack[-1].append(Sym(m.group(4)))
    if len(stack) != 1 or len(stack[0]) != 1:
        raise PcbError("%s: unbalanced parentheses" % where)
    return stack[0][0]


def blocks(text):
    """(start, end) character spans of the top-level list's children (for rewriting)."""
    out = []
    depth = 0
    i = 0
    start = None
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "(":
            depth += 1
            if depth == 2:
                start = i
        elif c == ")":
            if depth == 2:
                out.append((start, i + 1))
            depth -= 1
        i += 1
    return out


def find(node, key):
    """The first child list of node headed by key, or None."""
    for c in node:
        if isinstance(c, list) and c and c[0] == key:
            return c
    return None


def find_all(node, key):
    return [c for c in node if isinstance(c, list) and c and c[0] == key]


def _xy(node):
    at = find(node, "at")
    return (float(at[1]), float(at[2]), float(at[3]) if len(at) > 3 else 0.0)


class Pad:
    def __init__(self, number, net, at, layers, kind, shape="rect", size=(0.0, 0.0), angle=0.0):
        self.number = number
        self.net = net  # net name, '' when unconnected
        self.at = at  # absolute (x, y) on the page
        self.layers = layers
        self.kind = kind  # 'smd', 'thru_hole', 'np_thru_hole'
        self.shape = shape  # 'rect', 'roundrect', 'circle', 'oval', ...
        self.size = size  # (width, height) before it is turned
        self.angle = angle  # degrees on the page (KiCad's, counter-clockwise)


class Footprint:
    def __init__(self, ref, value, name, at, rot, side, pads, fields):
        self.ref = ref
        self.value = value
        self.name = name  # library:footprint
        self.at = at
        self.rot = rot
        self.side = side  # 'top' or 'bottom'
        self.pads = pads  # number -> Pad (the first pad of that number)
        self.all_pads = []
        self.fields = fields

    def nets(self):
        return {n: p.net for n, p in self.pads.items()}


class Pcb:
    def __init__(self, tree, where):
        self.where = where
        self.tree = tree
        self.footprints = {}
        for node in find_all(tree, "footprint"):
            fp = _footprint(node, where)
            self.footprints[fp.ref] = fp
        self.tracks = []  # (net, layer, width, (x1, y1), (x2, y2))
        self.vias = []  # (net, (x, y), diameter, drill)
        names = {c[1]: c[2] for c in find_all(tree, "net")}
        for node in find_all(tree, "segment"):
            s, e = find(node, "start"), find(node, "end")
            self.tracks.append((_net(node, names), find(node, "layer")[1],
                                float(find(node, "width")[1]),
                                (float(s[1]), float(s[2])), (float(e[1]), float(e[2]))))
        for node in find_all(tree, "via"):
            x, y, _ = _xy(node)
            self.vias.append((_net(node, names), (x, y), float(find(node, "size")[1]),
                              float(find(node, "drill")[1])))
        self.zones = [(_net(z, names), find(z, "layer")[1] if find(z, "layer") else "")
                      for z in find_all(tree, "zone")]
        self.fills = []  # (net, layer, [(x, y), ...]): the zones' filled polygons
        for z in find_all(tree, "zone"):
            for poly in find_all(z, "filled_polygon"):
                pts = [(float(q[1]), float(q[2])) for q in find_all(find(poly, "pts"), "xy")]
                self.fills.append((_net(z, names), find(poly, "layer")[1], pts))

    def edges(self):
        """Edge.Cuts segments as ((x1, y1), (x2, y2))."""
        out = []
        for key in ("gr_line", "gr_rect"):
            for node in find_all(self.tree, key):
                layer = find(node, "layer")
                if layer is None or layer[1] != "Edge.Cuts":
                    continue
                s, e = find(node, "start"), find(node, "end")
                a, b = (float(s[1]), float(s[2])), (float(e[1]), float(e[2]))
                if key == "gr_line":
                    out.append((a, b))
                else:
                    c, d = (b[0], a[1]), (a[0], b[1])
                    out += [(a, c), (c, b), (b, d), (d, a)]
        return out

    def outline(self):
        """(x0, y0, x1, y1): the Edge.Cuts bounding box."""
        pts = [p for seg in self.edges() for p in seg]
        if not pts:
            raise PcbError("%s: no Edge.Cuts outline" % self.where)
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return (min(xs), min(ys), max(xs), max(ys))


def _net(node, names):
    n = find(node, "net")
    if n is None:
        return ""
    if len(n) > 2:
        return n[2]
    return names.get(n[1], n[1])  # KiCad 9 writes (net N "name"); a bare N names the table


def _footprint(node, where):
    name = node[1]
    x, y, rot = _xy(node)
    side = "bottom" if find(node, "layer")[1] == "B.Cu" else "top"
    fields = {p[1]: p[2] for p in find_all(node, "property")}
    ref = fields.get("Reference")
    if ref is None:
        raise PcbError("%s: footprint %s at (%g, %g) has no Reference" % (where, name, x, y))
    pads = {}
    allp = []
    a = math.radians(rot)
    ca, sa = math.cos(a), math.sin(a)
    for p in find_all(node, "pad"):
        px, py, pangle = _xy(p)
        # KiCad turns a footprint counter-clockwise on the page (y down).
        ax = x + px * ca + py * sa
        ay = y - px * sa + py * ca
        net = find(p, "net")
        netname = "" if net is None else (net[2] if len(net) > 2 else net[1])
        layers = tuple(find(p, "layers")[1:]) if find(p, "layers") else ()
        size = find(p, "size")
        pad = Pad(str(p[1]), netname, (round(ax, 4), round(ay, 4)), layers, str(p[2]),
                  str(p[3]), (float(size[1]), float(size[2])) if size else (0.0, 0.0), pangle)
        allp.append(pad)
        pads.setdefault(pad.number, pad)
    fp = Footprint(ref, fields.get("Value", ""), name, (x, y), rot, side, pads, fields)
    fp.all_pads = allp
    return fp


def loads(text, where="<text>"):
    tree = parse(text, where)
    if not tree or tree[0] != "kicad_pcb":
        raise PcbError("%s: not a KiCad board (no kicad_pcb at the top)" % where)
    return Pcb(tree, where)


def load(path):
    with open(path, encoding="utf-8") as f:
        return loads(f.read(), path)
