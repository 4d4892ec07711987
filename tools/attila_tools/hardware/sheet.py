"""One schematic sheet (.kicad_sch) being drawn: KiCad's library symbols
placed and turned, wires between their pins, power symbols, labels, child
sheets. schematic_module.py and schematic_controller.py draw with it.

Points are the sheet's (mm, y down, on KiCad's 1.27 mm grid); a symbol's
pin ends come from its library drawing (symbols.py), so a wire drawn from
`placed.pin("2")` meets the pin exactly. UUIDs come from the project's name
and what each item is: regenerating gives the same bytes.
"""

import uuid

from attila_tools.hardware import symbols
from attila_tools.hardware.normalise import NS  # the boards' UUIDs and the sheets' alike
FONT = "\t\t\t(font\n\t\t\t\t(size 1.27 1.27)\n\t\t\t)\n"


def num(v):
    s = ("%.4f" % v).rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def part_fields(p):
    """A part's symbol fields: its footprint and, where it is bought, MPN and maker."""
    out = {"Footprint": p["footprint"], "Datasheet": ""}
    if p["mpn"]:
        out.update(MPN=p["mpn"], Manufacturer=p["maker"])
    return out


def turned(px, py, rot):
    """A symbol-frame offset (y up) on the sheet (y down), the symbol turned by
    rot degrees counter-clockwise as KiCad turns it."""
    x, y = px, -py
    for _ in range(int(rot) // 90 % 4):
        x, y = y, -x
    return (round(x, 4), round(y, 4))


class Placed:
    """A symbol on the sheet: where each of its pins ends."""

    def __init__(self, symbol, at, rot):
        self.symbol, self.at, self.rot = symbol, at, rot

    def pin(self, number):
        px, py, _a = self.symbol.pins[str(number)]
        dx, dy = turned(px, py, self.rot)
        return (round(self.at[0] + dx, 4), round(self.at[1] + dy, 4))

    def outward(self, number):
        """The unit step from a pin's end away from its symbol."""
        a = self.symbol.pins[str(number)][2]
        return turned(*{0: (-1, 0), 90: (0, -1), 180: (1, 0), 270: (0, 1)}[a], self.rot)


class Sheet:
    def __init__(self, project, key, paper="A3", powers=None):
        self.project, self.key = project, key
        self.uuid = self.uid("sheet")
        self.paper = paper
        self.body, self.lib_ids, self.wires, self.count = [], set(), [], 0
        self.powers = powers if powers is not None else [0]  # the project's #PWR count

    def uid(self, what):
        return str(uuid.uuid5(NS, "%s/%s/%s" % (self.project, self.key, what)))

    def symbol(self, lib_id, ref, value, at, rot=0, instances=(), fields=None, on_board=True,
               in_bom=True, hide_ref=False):
        """Place a library symbol; instances: [(sheet path, reference)] (a sheet
        drawn several times gives each drawing its own references)."""
        sym = symbols.load(lib_id)
        self.lib_ids.add(lib_id)
        x, y = at
        out = ['\t(symbol\n\t\t(lib_id "%s")\n\t\t(at %s %s %d)\n\t\t(unit 1)\n'
               '\t\t(exclude_from_sim no)\n\t\t(in_bom %s)\n\t\t(on_board %s)\n\t\t(dnp no)\n'
               '\t\t(uuid "%s")\n' % (lib_id, num(x), num(y), rot, "yes" if in_bom else "no",
                                      "yes" if on_board else "no", self.uid("sym/" + ref))]
        for name, text, hide in (("Reference", ref, hide_ref), ("Value", value, False)):
            fx, fy, fa, just = sym.fields.get(name, (0.0, 0.0, 0, ""))
            dx, dy = turned(fx, fy, rot)
            out.append(_prop(name, text, x + dx, y + dy, (fa + rot) % 180, just, hide))
        for name, text in sorted((fields or {}).items()):
            out.append(_prop(name, text, x, y, 0, "", True))
        for n in sorted(sym.pins, key=lambda v: (len(v), v)):
            out.append('\t\t(pin "%s"\n\t\t\t(uuid "%s")\n\t\t)\n' % (n, self.uid("pin/%s/%s"
                                                                                  % (ref, n))))
        out.append('\t\t(instances\n\t\t\t(project "%s"\n' % self.project)
        for path, r in instances:
            out.append('\t\t\t\t(path "%s"\n\t\t\t\t\t(reference "%s")\n\t\t\t\t\t(unit 1)\n'
                       '\t\t\t\t)\n' % (path, r))
        out.append("\t\t\t)\n\t\t)\n\t)\n")
        self.body.append("".join(out))
        return Placed(sym, at, rot)

    def power(self, net, at, paths, rot=0):
        """A power symbol (power:+5V, GND, +3V3, PWR_FLAG) with its pin at `at`,
        numbered across the project (paths: the sheet's instances)."""
        refs = []
        for path in paths:
            self.powers[0] += 1
            refs.append((path, "#%s%02d" % ("FLG" if net == "PWR_FLAG" else "PWR",
                                           self.powers[0])))
        self.count += 1
        return self.symbol("power:" + net, "power%d" % self.count, net, at, rot, refs,
                           on_board=False, in_bom=False, hide_ref=True)

    def child(self, name, file, at, size, pins, instances):
        """A child sheet's box: pins [(name, (x, y), angle)] on its edges (angle
        180: left, 0: right, 90: top, 270: bottom); instances [(path, page)]."""
        x, y = at
        w, h = size
        out = ['\t(sheet\n\t\t(at %s %s)\n\t\t(size %s %s)\n\t\t(exclude_from_sim no)\n'
               '\t\t(in_bom yes)\n\t\t(on_board yes)\n\t\t(dnp no)\n\t\t(fields_autoplaced yes)\n'
               '\t\t(stroke\n\t\t\t(width 0.1524)\n\t\t\t(type solid)\n\t\t)\n\t\t(fill\n'
               '\t\t\t(color 0 0 0 0.0000)\n\t\t)\n\t\t(uuid "%s")\n'
               % (num(x), num(y), num(w), num(h), self.uid("child/" + name)),
               _prop("Sheetname", name, x, y - 0.7116, 0, "left bottom", False),
               _prop("Sheetfile", file, x, y + h + 0.5846, 0, "left top", False)]
        for pin, (px, py), angle in pins:
            just = {180: "left", 0: "right", 90: "right", 270: "left"}[angle]
            out.append('\t\t(pin "%s" passive\n\t\t\t(at %s %s %d)\n\t\t\t(uuid "%s")\n'
                       '\t\t\t(effects\n%s\t\t\t\t(justify %s)\n\t\t\t)\n\t\t)\n'
                       % (pin, num(px), num(py), angle, self.uid("child/%s/%s" % (name, pin)),
                          FONT.replace("\t\t\t", "\t\t\t\t"), just))
        out.append('\t\t(instances\n\t\t\t(project "%s"\n' % self.project)
        for path, page in instances:
            out.append('\t\t\t\t(path "%s"\n\t\t\t\t\t(page "%s")\n\t\t\t\t)\n' % (path, page))
        out.append("\t\t\t)\n\t\t)\n\t)\n")
        self.body.append("".join(out))
        return self.uid("child/" + name)

    def wire(self, *pts):
        pts = [(round(x, 4), round(y, 4)) for x, y in pts]
        for a, b in zip(pts, pts[1:]):
            if a != b:
                self.wires.append((a, b))

    def label(self, name, at, angle, kind="global_label", shape="passive"):
        """A label whose text runs away from `at` (angle: its direction, 0 right)."""
        self.count += 1
        just = "left" if angle in (0, 90) else "right"
        extra = ('\t\t(shape %s)\n' % shape) if kind != "label" else ""
        self.body.append('\t(%s "%s"\n%s\t\t(at %s %s %d)\n\t\t(effects\n%s\t\t\t(justify %s)\n'
                         '\t\t)\n\t\t(uuid "%s")\n\t)\n' % (kind, name, extra, num(at[0]),
                                                          num(at[1]), angle, FONT, just,
                                                          self.uid("label%d" % self.count)))

    def no_connect(self, at):
        self.count += 1
        self.body.append('\t(no_connect\n\t\t(at %s %s)\n\t\t(uuid "%s")\n\t)\n'
                         % (num(at[0]), num(at[1]), self.uid("nc%d" % self.count)))

    def text(self, title_block, tail=""):
        """The whole file; title_block: (title, date, rev, comment)."""
        title, date, rev, comment = title_block
        out = ['(kicad_sch\n\t(version 20250114)\n\t(generator "eeschema")\n'
               '\t(generator_version "9.0")\n\t(uuid "%s")\n\t(paper "%s")\n' % (self.uuid,
                                                                                 self.paper),
               '\t(title_block\n\t\t(title "%s")\n\t\t(date "%s")\n\t\t(rev "%s")\n'
               '\t\t(company "attila-board")\n\t\t(comment 1 "%s")\n\t)\n'
               % (title, date, rev, comment), "\t(lib_symbols\n"]
        for lib_id in sorted(self.lib_ids):
            out.append("\t\t" + symbols.load(lib_id).text.replace("\n", "\n\t\t") + "\n")
        out.append("\t)\n")
        out += self._wires()
        out += self.body
        out.append(tail)
        out.append("\t(embedded_fonts no)\n)\n")
        return "".join(out)

    def _wires(self):
        """The wires, split where one's end meets another's middle, with a
        junction wherever three or more meet."""
        wires = list(self.wires)
        ends = {p for w in wires for p in w}
        split = []
        for a, b in wires:
            cut = sorted((p for p in ends if _inside(p, a, b)),
                         key=lambda p: abs(p[0] - a[0]) + abs(p[1] - a[1]))
            pts = [a] + cut + [b]
            split += list(zip(pts, pts[1:]))
        count = {}
        for w in split:
            for p in w:
                count[p] = count.get(p, 0) + 1
        out = []
        for i, (a, b) in enumerate(sorted(split)):
            out.append('\t(wire\n\t\t(pts\n\t\t\t(xy %s %s) (xy %s %s)\n\t\t)\n\t\t(stroke\n'
                       '\t\t\t(width 0)\n\t\t\t(type default)\n\t\t)\n\t\t(uuid "%s")\n\t)\n'
                       % (num(a[0]), num(a[1]), num(b[0]), num(b[1]), self.uid("w%d" % i)))
        for i, p in enumerate(sorted(p for p, n in count.items() if n >= 3)):
            out.append('\t(junction\n\t\t(at %s %s)\n\t\t(diameter 0)\n\t\t(color 0 0 0 0)\n'
                       '\t\t(uuid "%s")\n\t)\n' % (num(p[0]), num(p[1]), self.uid("j%d" % i)))
        return out


def _inside(p, a, b):
    """Whether p lies on the segment a-b, not at its ends (wires run along x or y)."""
    if p in (a, b):
        return False
    if a[0] == b[0] == p[0]:
        return min(a[1], b[1]) < p[1] < max(a[1], b[1])
    if a[1] == b[1] == p[1]:
        return min(a[0], b[0]) < p[0] < max(a[0], b[0])
    return False


def _prop(name, value, x, y, angle, justify, hide):
    return ('\t\t(property "%s" "%s"\n\t\t\t(at %s %s %d)\n\t\t\t(effects\n'
            '\t\t\t\t(font\n\t\t\t\t\t(size 1.27 1.27)\n\t\t\t\t)\n%s%s\t\t\t)\n\t\t)\n'
            % (name, value, num(x), num(y), angle,
               "\t\t\t\t(justify %s)\n" % justify if justify else "",
               "\t\t\t\t(hide yes)\n" if hide else ""))
