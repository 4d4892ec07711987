"""The controller's schematic: one sheet of wired blocks, named nets between
them (global labels at the Pico's pins and where each block takes them).

- the Pico: every pin the profile uses named with its net, power by power
  symbols, the others flagged not connected;
- the LED data: the buffer with its 100 nF and 330 Ohm; the 68 Ohm on LOAD
  and CLOCK; the shift data's pull-up;
- the cable connector; the USB-C 5 V input through its fuse, clamp and
  reverse-polarity MOSFET to the 5 V, the 1000 uF, the diode to VSYS;
- the buttons and the piezo; the microSD socket with its pull-ups.

Positions on KiCad's 2.54 mm grid (mm, y down).
"""

from attila_tools.hardware import symbols
from attila_tools.hardware.sheet import Sheet, part_fields

U = 2.54
POWER = ("+5V", "+3V3", "GND")
# block: (x, y) of its first symbol, in grid units
BLOCKS = {"pico": (35, 52), "buffer": (75, 18), "series": (70, 36), "cable": (124, 44),
          "power": (68, 58), "buttons": (68, 84), "card": (136, 74)}


class Drawing:
    def __init__(self, name, parts):
        self.s = Sheet(name, "root")
        self.root = "/" + self.s.uuid
        self.by = {p["ref"]: p for p in parts}

    def place(self, ref, at, rot=0):
        p = self.by[ref]
        return self.s.symbol(p["symbol"], ref, p["value"], (at[0] * U, at[1] * U), rot,
                             [(self.root, ref)], part_fields(p), in_bom=p["job"] != "hole")

    def end(self, sym, ref, pin, length=2):
        """Every pin's far end: a short wire, then its net's label or power symbol,
        or a no-connect flag on an open pin."""
        net = self.by[ref]["pins"].get(pin)
        p, out = sym.pin(pin), sym.outward(pin)
        if net is None:
            self.s.no_connect(p)
            return
        e = (p[0] + out[0] * length * U, p[1] + out[1] * length * U)
        self.s.wire(p, e)
        if net in POWER:
            up = {(0, -1): 0, (1, 0): 270, (0, 1): 180, (-1, 0): 90}[out]
            self.s.power(net, e, [self.root], (up + 180) % 360 if net == "GND" else up)
        else:
            self.s.label(net, e, {(1, 0): 0, (-1, 0): 180, (0, -1): 90, (0, 1): 270}[out])

    def ends(self, sym, ref, pins=None, length=2):
        done = set()
        for pin in pins or sorted(sym.symbol.pins, key=lambda v: (len(v), v)):
            point = sym.pin(pin)
            if point not in done:  # pins stacked on one point (the Pico's grounds)
                done.add(point)
                self.end(sym, ref, pin, length)

    def chain(self, refs, start, step, rot=90):
        """Two-pin parts in a row along x, each one's pin 2 wired to the next's pin 1."""
        out = []
        for i, ref in enumerate(refs):
            out.append(self.place(ref, (start[0] + i * step, start[1]), rot))
        for a, b in zip(out, out[1:]):
            self.s.wire(a.pin("2"), b.pin("1"))
        return out


def draw(name, parts):
    d = Drawing(name, parts)
    pico = d.place("U1", BLOCKS["pico"])
    d.ends(pico, "U1", length=3)
    x, y = BLOCKS["buffer"]
    buf = d.place("U2", (x, y))
    d.ends(buf, "U2", [d.by["U2"]["choice"].pin(r) for r in ("A", "OE", "GND", "VCC")])
    r1 = d.place("R1", (x + 9, y), 90)
    d.s.wire(buf.pin(d.by["U2"]["choice"].pin("Y")), r1.pin("1"))
    d.s.label("LED_5V", r1.pin("1"), 90)
    d.end(r1, "R1", "2")
    d.ends(d.place("C1", (x + 20, y)), "C1")
    x, y = BLOCKS["series"]
    for i, ref in enumerate(("R2", "R3")):
        d.ends(d.place(ref, (x + 18 * i, y), 90), ref)
    d.ends(d.place("R8", (x + 36, y)), "R8")
    d.ends(d.place("J1", BLOCKS["cable"]), "J1")
    power_input(d)
    x, y = BLOCKS["buttons"]
    for i, ref in enumerate(("SW1", "SW2", "BZ1")):
        d.ends(d.place(ref, (x + 16 * i, y)), ref)
    x, y = BLOCKS["card"]
    d.ends(d.place("J3", (x, y)), "J3")
    for i, ref in enumerate(("R4", "R5", "R6", "R7", "C3")):
        d.ends(d.place(ref, (x - 12 + 7 * i, y + 14)), ref)
    for i, p in enumerate(q for q in parts if q["job"] == "hole"):
        d.place(p["ref"], (30 + 6 * i, 95))
    # a PWR_FLAG on each supply no part's power output drives (ERC's rule)
    driven = {net for p in parts for pin, net in p["pins"].items()
              if symbols.load(p["symbol"]).types.get(pin) == "power_out"}
    for i, net in enumerate(n for n in ("+5V", "VSYS") if n not in driven):
        at = ((10 + 8 * i) * U, 88 * U)
        d.s.power("PWR_FLAG", at, [d.root])
        d.s.wire(at, (at[0], at[1] + 2 * U))
        if net in POWER:
            d.s.power(net, (at[0], at[1] + 2 * U), [d.root], 180)
        else:
            d.s.label(net, (at[0], at[1] + 2 * U), 270)
    return {name + ".kicad_sch": d.s}


def power_input(d):
    """USB-C -> fuse -> (clamp) -> MOSFET drain, its source the LEDs' 5 V; the
    CC pull-downs, the gate's resistor, the 1000 uF, the diode to VSYS."""
    x, y = BLOCKS["power"]
    usb = d.place("J2", (x, y))
    ch = d.by["J2"]["choice"]
    d.ends(usb, "J2", [ch.pin(r) for r in ("CC1", "CC2", "GND_A", "SHIELD")])
    vbus = usb.pin(ch.pin("VBUS_A"))
    fuse = d.place("F1", (x + 14, y - 3), 90)
    d.s.wire(vbus, fuse.pin("1"))
    d.s.label("VIN", fuse.pin("1"), 90)
    q = d.place("Q1", (x + 34, y - 5), 270)
    qc = d.by["Q1"]["choice"]
    d.s.wire(fuse.pin("2"), (q.pin(qc.pin("D"))[0], fuse.pin("2")[1]), q.pin(qc.pin("D")))
    clamp = d.place("D2", (x + 26, y + 3), 270)
    tc = d.by["D2"]["choice"]
    node = (clamp.pin(tc.pin("K"))[0], fuse.pin("2")[1])
    d.s.wire(clamp.pin(tc.pin("K")), node)
    d.s.label("VIN_FUSED", node, 90)
    d.end(clamp, "D2", tc.pin("A"))
    d.end(q, "Q1", qc.pin("S"))
    gate = d.place("R9", (x + 42, y + 2))
    d.s.wire(q.pin(qc.pin("G")), (gate.pin("1")[0], q.pin(qc.pin("G"))[1]), gate.pin("1"))
    d.s.label("Q1_GATE", gate.pin("1"), 90)
    d.end(gate, "R9", "2")
    for ref, (dx, dy) in (("R10", (12, 10)), ("R11", (18, 10))):
        d.ends(d.place(ref, (x + dx, y + dy)), ref)
    d.ends(d.place("C2", (x + 52, y)), "C2")
    d.ends(d.place("D1", (x + 60, y), 180), "D1")


# view: (x0, y0, x1, y1) of the blocks each picture on the docs shows, grid units
VIEWS = {"pico": (14, 34, 56, 76), "buffer": (62, 8, 110, 42),
         "power": (58, 40, 136, 68), "buttons": (62, 80, 110, 88), "card": (118, 64, 160, 96)}


def views(design):
    """[(view, page's SVG, box in mm)]: the blocks the docs show."""
    return [(view, design.name + ".svg", tuple(v * U for v in box))
            for view, box in VIEWS.items()]
