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
from attila_tools.hardware.sheet import Sheet, part_fields

U = 2.54
SQUARE_FILE = "square.kicad_sch"
BOX = (10 * U, 6 * U)  # a square's sheet box


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
                 part_fields(led))
    refs, cap = inst("led_cap")
    c = s.symbol(cap["symbol"], "C?", cap["value"], (56 * U, 30 * U), 180, refs, part_fields(cap))
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
                 part_fields(pull))
    refs, sw = inst("switch")
    w = s.symbol(sw["symbol"], "SW?", sw["value"], (72 * U, 30 * U), 180, refs, part_fields(sw))
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


# grid units: the squares' sheets stacked down the left; the register right of
# them, IN and OUT above it, the parts around it
STACK = (30, 14, 11)  # the boxes' left x, the first's top y, the step down
REGISTER = (76, 54)
PLACES = {"in": (86, 30), "out": (108, 30), "ser_pulldown": (122, 30), "register_cap": (122, 46),
          "bulk": (130, 30)}


def root_sheet(name, kind, parts, powers):
    """The root: the squares' sheets, the register, IN and OUT, their parts."""
    s = Sheet(name, "root", powers=powers)
    root = "/" + s.uuid
    n = g.squares(kind)
    by = {p["ref"]: p for p in parts}
    place = placer(s, by)
    x0, y0, step = STACK
    paths, pins = {}, []
    for k in range(n):
        top = (y0 + k * step) * U
        left = x0 * U
        box = {"DIN": (left + BOX[0] / 2, top), "DOUT": (left + BOX[0] / 2, top + BOX[1]),
               "SWITCH": (left + BOX[0], top + BOX[1] / 2)}
        uid = s.child("square %d" % k, SQUARE_FILE, (left, top), BOX,
                      [("DIN", box["DIN"], 90), ("DOUT", box["DOUT"], 270),
                       ("SWITCH", box["SWITCH"], 0)], [(root, str(k + 2))])
        paths[k] = root + "/" + uid
        pins.append(box)
    for k in range(n - 1):
        s.wire(pins[k]["DOUT"], pins[k + 1]["DIN"])
    # the chain's ends: IN's data at the first, the last through its series
    # resistor to OUT's data
    first, last = pins[0]["DIN"], pins[n - 1]["DOUT"]
    s.wire(first, (first[0], first[1] - 2 * U))
    s.label(circuit.led_net(kind, 0), (first[0], first[1] - 2 * U), 90)
    series = next(p for p in parts if p["job"] == "out_series")
    r = place(series["ref"], (last[0] / U, last[1] / U + 4.5))
    s.wire(last, r.pin("1"))
    s.label(circuit.led_net(kind, n), r.pin("1"), 0)
    s.wire(r.pin("2"), (r.pin("2")[0], r.pin("2")[1] + 2 * U))
    s.label(series["pins"]["2"], (r.pin("2")[0], r.pin("2")[1] + 2 * U), 270)
    reg = place("U1", REGISTER)
    # each square's switch to its register input, nested so no wire crosses another
    down = [k for k in range(n) if pins[k]["SWITCH"][1] <= reg.pin(_input_pin(by, k))[1]]
    for k in range(n):
        a, b = pins[k]["SWITCH"], reg.pin(_input_pin(by, k))
        rank = k if k in down else n - 1 - k
        x = b[0] - (6 + rank) * U
        tag = (b[0] - 2 * U, b[1])
        s.wire(a, (x, a[1]), (x, b[1]), tag, b)
        s.label("D%d" % k, tag, 180)  # the name its copper takes
    return s, paths, reg


def placer(s, by):
    """place(ref, (x, y) in grid units, rot): a part of the board on the sheet."""
    root = "/" + s.uuid

    def place(ref, at, rot=0):
        p = by[ref]
        return s.symbol(p["symbol"], ref, p["value"], (at[0] * U, at[1] * U), rot,
                        [(root, ref)], part_fields(p), in_bom=p["job"] != "hole")
    return place


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
    """IN, OUT and the register's other pins, the parts around them: each pin
    its net's name or power symbol."""
    root = "/" + s.uuid
    by = {p["ref"]: p for p in parts}
    place = placer(s, by)
    n = sum(1 for p in parts if p["job"] == "led")

    def end(sym, p, pin):
        net, point, out = p["pins"][pin], sym.pin(pin), sym.outward(pin)
        if net is None:
            s.no_connect(point)
            return
        e = (point[0] + out[0] * 2 * U, point[1] + out[1] * 2 * U)
        s.wire(point, e)
        if net in ("+5V", "+3V3", "GND"):
            up = {(0, -1): 0, (1, 0): 270, (0, 1): 180, (-1, 0): 90}[out]
            s.power(net, e, [root], (up + 180) % 360 if net == "GND" else up)
        else:
            s.label(net, e, {(1, 0): 0, (-1, 0): 180, (0, -1): 90, (0, 1): 270}[out])

    for job, at in sorted(PLACES.items()):
        p = next(q for q in parts if q["job"] == job)
        sym = place(p["ref"], at)
        for pin in sorted(p["pins"], key=lambda v: (len(v), v)):
            end(sym, p, pin)
    u1 = by["U1"]
    for role in ("LOAD", "CLOCK", "QH", "SER", "VCC", "GND", "CE", "nQH"):
        end(reg, u1, u1["choice"].pin(role))
    for k in range(n, 8):
        end(reg, u1, u1["choice"].pin("D%d" % k))
    for i, p in enumerate(q for q in parts if q["job"] == "hole"):
        place(p["ref"], (64 + 6 * i, 100))
    for i, net in enumerate(("+5V", "GND", "+3V3")):
        at = ((6 + 6 * i) * U, 30 * U)
        s.power("PWR_FLAG", at, [root])
        s.wire(at, (at[0], at[1] + 2 * U))
        s.power(net, (at[0], at[1] + 2 * U), [root], 0 if net == "GND" else 180)


def views(name):
    """[(view, page's SVG, box)]: square 0's LED and switch, the register's area."""
    square = "%s-square 0.svg" % name
    return [("led", square, (26 * U, 22 * U, 60 * U, 38 * U)),
            ("switch", square, (58 * U, 22 * U, 76 * U, 38 * U)),
            ("register", name + ".svg", (54 * U, 24 * U, 134 * U, 70 * U))]
