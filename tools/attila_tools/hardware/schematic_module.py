"""A module's schematic: each square's cell drawn once, as a sheet (square.kicad_sch)
that the root sheet uses once per square; the register and the connectors on
the root, wired to the squares' sheets.

- square.kicad_sch: the LED with its 100 nF across its 5 V and ground, the
  reed switch with its pull-up; hierarchical labels DIN, DOUT (the LED chain)
  and SWITCH (to the register's input). Each use gives its parts their own
  references (square k: D(k+1), C(k+1), SW(k+1), R(k+1)).
- the root: the squares' sheets stacked in chain order, each DOUT wired to
  the next DIN, each SWITCH to its register input; IN and OUT with the
  cable's signals named (LOAD, CLOCK, QH, SER, LED_IN, LED_OUT), power by
  power symbols.

Positions are on KiCad's 2.54 mm grid (mm, y down).
"""

from attila_tools.hardware import circuit, geometry as g
from attila_tools.hardware.sheet import Sheet

U = 2.54
SQUARE_FILE = "square.kicad_sch"
BOX = (10 * U, 6 * U)  # a square's sheet box
STACK = (30 * U, 20 * U, 10 * U)  # its left x, the first's top y, the room down to the next


def square_sheet(name, parts, paths, powers):
    """The square's cell, drawn once; paths: {k: the sheet path of square k}."""
    s = Sheet(name, "square", powers=powers)
    ks = sorted(paths)

    def inst(job):
        by = {(p["square"], p["job"]): p for p in parts}
        return [(paths[k], by[(k, job)]["ref"]) for k in ks], by[(ks[0], job)]

    every = [paths[k] for k in ks]
    refs, led = inst("led")
    d = s.symbol(led["symbol"], "D?", led["value"], (40 * U, 30 * U), 0, refs,
                 _fields(led))
    refs, cap = inst("led_cap")
    c = s.symbol(cap["symbol"], "C?", cap["value"], (56 * U, 30 * U), 180, refs, _fields(cap))
    top, bottom = 25 * U, 35 * U
    vdd, vss = d.pin(led["choice"].pin("supply")), d.pin(led["choice"].pin("ground"))
    s.wire(vdd, (vdd[0], top), (c.pin("2")[0], top), c.pin("2"))
    s.wire(vss, (vss[0], bottom), (c.pin("1")[0], bottom), c.pin("1"))
    s.power("+5V", (vdd[0], top), every)
    s.power("GND", (vss[0], bottom), every)
    din, dout = d.pin(led["choice"].pin("data_in")), d.pin(led["choice"].pin("data_out"))
    s.wire(din, (din[0] - 4 * U, din[1]))
    s.label("DIN", (din[0] - 4 * U, din[1]), 180, "hierarchical_label", "input")
    s.wire(dout, (dout[0] + 3 * U, dout[1]))
    s.label("DOUT", (dout[0] + 3 * U, dout[1]), 0, "hierarchical_label", "output")
    refs, pull = inst("pullup")
    r = s.symbol(pull["symbol"], "R?", pull["value"], (66 * U, 27 * U), 180, refs,
                 _fields(pull))
    refs, sw = inst("switch")
    w = s.symbol(sw["symbol"], "SW?", sw["value"], (72 * U, 30 * U), 180, refs, _fields(sw))
    node = (r.pin("1")[0], 30 * U)
    s.wire(r.pin("2"), (r.pin("2")[0], top))
    s.power("+3V3", (r.pin("2")[0], top), every)
    s.wire(r.pin("1"), node, w.pin(sw["choice"].pin("signal")))
    ground = w.pin(sw["choice"].pin("ground"))
    s.wire(ground, (ground[0] + 2 * U, ground[1]), (ground[0] + 2 * U, bottom))
    s.power("GND", (ground[0] + 2 * U, bottom), every)
    s.wire(node, (node[0] - 3 * U, node[1]))
    s.label("SWITCH", (node[0] - 3 * U, node[1]), 180, "hierarchical_label", "output")
    return s


def _fields(p):
    out = {"Footprint": p["footprint"], "Datasheet": ""}
    if p["mpn"]:
        out.update(MPN=p["mpn"], Manufacturer=p["maker"])
    return out


def root_sheet(name, kind, parts, powers):
    """The root: the squares' sheets, the register, IN and OUT, their parts."""
    s = Sheet(name, "root", powers=powers)
    root = "/" + s.uuid
    n = g.squares(kind)
    by = {p["ref"]: p for p in parts}

    def place(ref, at, rot=0):
        p = by[ref]
        return s.symbol(p["symbol"], ref, p["value"], at, rot, [(root, ref)], _fields(p),
                        in_bom=p["job"] != "hole")

    x0, y0, step = STACK
    paths, pins = {}, []
    for k in range(n):
        top = y0 + k * step
        box = {"DIN": (x0 + BOX[0] / 2, top), "DOUT": (x0 + BOX[0] / 2, top + BOX[1]),
               "SWITCH": (x0 + BOX[0], top + BOX[1] / 2)}
        uid = s.child("square %d" % k, SQUARE_FILE, (x0, top), BOX,
                      [("DIN", box["DIN"], 90), ("DOUT", box["DOUT"], 270),
                       ("SWITCH", box["SWITCH"], 0)], [(root, str(k + 2))])
        paths[k] = root + "/" + uid
        pins.append(box)
    for k in range(n - 1):
        s.wire(pins[k]["DOUT"], pins[k + 1]["DIN"])
    # the chain's ends, named as at IN and at the data-out's series resistor
    first, last = pins[0]["DIN"], pins[n - 1]["DOUT"]
    s.wire(first, (first[0], first[1] - 2 * U))
    s.label(circuit.led_net(kind, 0), (first[0], first[1] - 2 * U), 90)
    s.wire(last, (last[0], last[1] + 2 * U))
    s.label(circuit.led_net(kind, n), (last[0], last[1] + 2 * U), 270)
    reg = place("U1", (70 * U, 60 * U))
    turns = [k for k in range(n) if pins[k]["SWITCH"][1] <= reg.pin(_input_pin(by, k))[1]]
    for k in range(n):
        a, b = pins[k]["SWITCH"], reg.pin(_input_pin(by, k))
        rank = k if k in turns else n - 1 - k  # nested: no wire crosses another
        x = b[0] - (8 + rank) * U
        s.wire(a, (x, a[1]), (x, b[1]), b)
        s.label("D%d" % k, (x, b[1]), 0)  # the name its copper takes
    return s, paths, reg


def _input_pin(by, k):
    return by["U1"]["choice"].pin("D%d" % k)


def draw(name, kind, parts):
    """{file name: Sheet} of a module's schematic."""
    powers = [0]
    root, paths, reg = root_sheet(name, kind, parts, powers)
    cables(root, parts, reg)
    square = square_sheet(name, parts, paths, powers)
    return {name + ".kicad_sch": root, SQUARE_FILE: square}


def cables(s, parts, reg):
    """IN, OUT and the register's other pins, the parts around them."""
    root = "/" + s.uuid
    by = {p["ref"]: p for p in parts}
    n = sum(1 for p in parts if p["job"] == "led")

    def place(ref, at, rot=0):
        p = by[ref]
        return s.symbol(p["symbol"], ref, p["value"], at, rot, [(root, ref)], _fields(p),
                        in_bom=p["job"] != "hole")

    def net_label(point, out, net):
        end = (point[0] + out[0] * 2 * U, point[1] + out[1] * 2 * U)
        s.wire(point, end)
        angle = {(1, 0): 0, (-1, 0): 180, (0, -1): 90, (0, 1): 270}[out]
        s.label(net, end, angle)

    def power_at(point, out, net):
        end = (point[0] + out[0] * 2 * U, point[1] + out[1] * 2 * U)
        s.wire(point, end)
        rot = {"GND": {(1, 0): 90, (-1, 0): 270, (0, 1): 0, (0, -1): 180},
               "+5V": {(1, 0): 270, (-1, 0): 90, (0, 1): 180, (0, -1): 0}}
        s.power(net, end, [root], rot["GND" if net == "GND" else "+5V"][out])

    for ref, at in (("J1", (20 * U, 12 * U)), ("J2", (110 * U, 12 * U))):
        j = place(ref, at)
        for pin, net in by[ref]["pins"].items():
            out = j.outward(pin)
            if net in ("+5V", "+3V3", "GND"):
                power_at(j.pin(pin), out, net)
            else:
                net_label(j.pin(pin), out, net)
    for role in ("LOAD", "CLOCK", "QH", "SER"):
        pin = by["U1"]["choice"].pin(role)
        net_label(reg.pin(pin), reg.outward(pin), by["U1"]["pins"][pin])
    for role, net in (("VCC", "+3V3"), ("GND", "GND"), ("CE", "GND")):
        pin = by["U1"]["choice"].pin(role)
        power_at(reg.pin(pin), reg.outward(pin), net)
    for k in range(n, 8):
        pin = by["U1"]["choice"].pin("D%d" % k)
        power_at(reg.pin(pin), reg.outward(pin), "+3V3")
    s.no_connect(reg.pin(by["U1"]["choice"].pin("nQH")))
    x = 90 * U
    for i, job in enumerate(("register_cap", "ser_pulldown", "out_series", "bulk")):
        p = next(q for q in parts if q["job"] == job)
        c = place(p["ref"], (x + i * 8 * U, 40 * U))
        for pin, net in p["pins"].items():
            out = c.outward(pin)
            if net in ("+5V", "+3V3", "GND"):
                power_at(c.pin(pin), out, net)
            else:
                net_label(c.pin(pin), out, net)
    for i, p in enumerate(q for q in parts if q["job"] == "hole"):
        place(p["ref"], ((90 + 6 * i) * U, 100 * U))
    for i, net in enumerate(("+5V", "GND", "+3V3")):
        s.power("PWR_FLAG", ((20 + 8 * i) * U, 30 * U), [root])
        s.wire(((20 + 8 * i) * U, 30 * U), ((20 + 8 * i) * U, 32 * U))
        s.power(net, ((20 + 8 * i) * U, 32 * U), [root], 0 if net == "GND" else 180)


def views(name):
    """[(view, page's SVG, box)]: square 0's LED and switch, the register's area."""
    square = "%s-square 0.svg" % name
    return [("led", square, (26 * U, 22 * U, 60 * U, 38 * U)),
            ("switch", square, (58 * U, 22 * U, 76 * U, 38 * U)),
            ("register", name + ".svg", (14 * U, 6 * U, 118 * U, 80 * U))]
