"""Where a module's parts lie, laid from the footprints' own pads and
courtyards (footprints.py) and the module's shape (geometry.py).

Every square is the same cell shifted by the pitch. Its parts are described
in the square's "spine frame": origin at the square's centre, x towards the
spine of tracks up the module's middle, y up; the right column's cell is the
left one's mirror image, so every square's tracks leave towards the spine:

- the LED at the centre (under its baffle cell), turned so its 5 V and
  data-out pads face the spine;
- its 100 nF beside the 5 V pad, courtyard to courtyard with the LED, its
  +5 V pad in line with the LED's;
- the reed switch along y on the far side, its lower pad at SWITCH_PAD
  (a piece's magnet over its end: docs/pages/build/pieces.md);
- its pull-up beside the switch's upper end (PULLUP_AT).

The register sits at the spine's foot (geometry.register_at); IN in the
bottom-left corner, OUT under the last square (geometry.connectors).
"""

from attila_tools.hardware import footprints, geometry as g, rules

SWITCH_PAD = (-5.0, 1.0)  # the switch's lower pad, spine frame
PULLUP_AT = (-8.5, 13.0)  # its pull-up, beside the switch's upper end
PART_GAP = 0.5  # courtyard to courtyard where a track runs between two parts
GRID = 0.05  # places are snapped outwards to this
TINY = 1e-9  # mm: nought, less the floats' rounding
PITCH_STEP = 0.5  # the smallest pitch a part allows is told to this step


def snap_out(v):
    """v rounded away from zero to the placement grid."""
    n = -(-abs(v) // GRID)
    return round((1 if v >= 0 else -1) * n * GRID, 4)


def offset(part, pad, rot):
    """A pad's offset from the part's origin, turned by rot (board frame)."""
    return footprints.turn(footprints.load(part["footprint"]).pads[pad], rot, part["side"])


def extent(part, rot):
    """(x0, y0, x1, y1) of the part's courtyard about its origin, turned by rot."""
    return footprints.courtyard_of(dict(part, at=(0.0, 0.0), rot=rot, anchor="origin"))


def facing(part, pad, rot_choices, want):
    """The first turn that puts `pad` on the side `want(dx, dy)` accepts."""
    for rot in rot_choices:
        if want(*offset(part, pad, rot)):
            return float(rot)
    raise ValueError("%s: no turn puts pad %s where it is wanted" % (part["ref"], pad))


class Cell:
    """Square k's frame: spine-frame points to the module's frame."""

    def __init__(self, kind, k):
        self.cx, self.cy = g.square_centre(kind, k)
        self.s = g.toward_spine(kind, k)

    def at(self, x, y):
        return (round(self.cx + self.s * x, 4), round(self.cy + y, 4))

    def local(self, xy):
        return ((xy[0] - self.cx) * self.s, xy[1] - self.cy)


def put(part, at, rot):
    part["at"] = (round(at[0], 4), round(at[1], 4))
    part["rot"] = rot


def cell(parts, kind, k):
    """Square k's LED, its capacitor, switch and pull-up."""
    c = Cell(kind, k)
    by = {p["job"]: p for p in parts if p["square"] == k}
    led, cap, sw, pull = by["led"], by["led_cap"], by["switch"], by["pullup"]
    choice = led["choice"]
    put(led, c.at(0, 0), facing(led, choice.pin("supply"), (0, 180),
                                lambda dx, dy: dx * c.s > 0))
    vdd = c.local(footprints.pads_of(led)[choice.pin("supply")])
    rot = facing(cap, "2", (0, 180), lambda dx, dy: dx * c.s > 0)
    side = 1 if vdd[1] > 0 else -1
    y = side * (max(abs(v) for v in extent(led, led["rot"])[1::2])
                + max(abs(v) for v in extent(cap, rot)[1::2]))
    put(cap, c.at(vdd[0] - c.s * offset(cap, "2", rot)[0], snap_out(y)), rot)
    ground = sw["choice"].pin("ground")
    rot = facing(sw, ground, (0, 90, 180, 270), lambda dx, dy: dy < 0 and abs(dx) < TINY)
    gx, gy = offset(sw, ground, rot)
    put(sw, c.at(SWITCH_PAD[0] - c.s * gx, SWITCH_PAD[1] - gy), rot)
    put(pull, c.at(*PULLUP_AT), facing(pull, "1", (90, 270), lambda dx, dy: dy > 0))


def register_area(parts, kind):
    """The register at the spine's foot, its 100 nF on its left, level with
    its +3.3 V pin row's lower half."""
    by = {p["job"]: p for p in parts}
    reg, cap = by["register"], by["register_cap"]
    x, y = g.register_at(kind)
    put(reg, (x, y), facing(reg, reg["choice"].pin("LOAD"), (0, 90, 180, 270),
                            lambda dx, dy: dx < 0 and dy < 0))
    rot = facing(cap, "2", (90, 270), lambda dx, dy: dy > 0)
    left = -extent(reg, reg["rot"])[0] + extent(cap, rot)[2] + PART_GAP
    put(cap, (x - snap_out(left), y - offset(cap, "2", rot)[1]), rot)


def last_square(parts, kind):
    """The last LED's series resistor on its data-out lane, beside the LED."""
    n = g.squares(kind)
    c = Cell(kind, n - 1)
    led = next(p for p in parts if p["job"] == "led" and p["square"] == n - 1)
    res = next(p for p in parts if p["job"] == "out_series")
    dout = c.local(footprints.pads_of(led)[led["choice"].pin("data_out")])
    rot = facing(res, "1", (0, 180), lambda dx, dy: dx * c.s < 0)
    x = extent(led, led["rot"])[2] + extent(res, rot)[2] + PART_GAP
    put(res, c.at(snap_out(x), dout[1]), rot)


def connector_turn(part, outer, odd_up):
    """The turn of a cable connector that puts its pin 1 at the board's outer
    edge (outer: -1 left, +1 right) and its odd pins' row above (odd_up) or
    below the even pins' row."""
    for rot in (0, 90, 180, 270):
        p1, p2, p7 = (offset(part, pin, rot) for pin in ("1", "2", "7"))
        if (p1[0] - p7[0]) * outer > 0 and (p1[1] > p2[1]) == odd_up:
            return float(rot)
    raise ValueError("%s: no turn puts pin 1 at the edge" % part["ref"])


def connectors(parts, kind):
    """IN and OUT (bottom side, pin 1 at the outer edge: IN's odd pins up,
    towards the parts they feed, OUT's down, towards the spine's foot), the
    bulk capacitor above IN's 5 V pin, the SER pull-down beside OUT."""
    by = {p["job"]: p for p in parts}
    places = g.connectors(kind)
    middle = g.squares_outline(kind)[0] / 2
    outer = {name: -1 if places[name][0] < middle else 1 for name in places}
    put(by["in"], places["IN"], connector_turn(by["in"], outer["IN"], True))
    one_row = g.size(kind)[1] == 1
    if one_row:  # OUT beside the register: turned as IN, its lanes rise past the register
        put(by["out"], places["OUT"], connector_turn(by["out"], outer["IN"], True))
    else:
        put(by["out"], places["OUT"], connector_turn(by["out"], outer["OUT"], False))
    bulk = by["bulk"]
    rot = facing(bulk, "2", (90, 270), lambda dx, dy: dy < 0)
    pin1 = footprints.pads_of(by["in"])["1"]
    top = places["IN"][1] + g.CONNECTOR_KEEPOUT[1] / 2 + PART_GAP
    put(bulk, (pin1[0] - offset(bulk, "2", rot)[0], snap_out(top - extent(bulk, rot)[1])), rot)
    clear_of_holes(bulk, by["hole"], kind)
    pull = by["ser_pulldown"]
    rot = facing(pull, "1", (90, 270), lambda dx, dy: dy < 0)
    out = footprints.pads_of(by["out"])
    if one_row:  # on SER's lane, between its rising lane and LOAD's
        x, y = (out["5"][0] + out["7"][0]) / 2, one_row_lanes(parts)[3]
    else:  # beside OUT on the spine's side, on SER's lane
        x = places["OUT"][0] - outer["OUT"] * (g.CONNECTOR_KEEPOUT[0] / 2
                                               + extent(pull, rot)[2] + PART_GAP)
        x, y = snap_out(x), out["7"][1]
    put(pull, (x, y - offset(pull, "1", rot)[1]), rot)


# Where route_spine.py lays the register's and a one-row OUT's lanes: placing
# the SER pull-down on its lane needs the heights, reckoned here from the pads.
def upper_via_y(parts):
    """Where the register's upper pins' lines begin: a power via clear of its pads."""
    reg = next(p for p in parts if p["ref"] == "U1")
    pin = reg["choice"].pin("VCC")
    return round(footprints.pads_of(reg)[str(pin)][1] + footprints.pad_size(reg, pin)[1] / 2
                 + rules.POWER["clearance"] + rules.POWER["via"] / 2, 4)


def one_row_lanes(parts):
    """The heights of a one-row module's OUT lanes (5 V, 3.3 V, LOAD, SER), one
    LANE apart: above OUT's pins and the register's upper vias."""
    out = next(p for p in parts if p["ref"] == "J2")
    first = footprints.pad_size(out, "1")[1] / 2 + rules.POWER["clearance"] + \
        rules.POWER["track"] / 2
    clear = rules.POWER["via"] / 2 + rules.POWER["clearance"] + rules.POWER["track"] / 2
    base = max(footprints.pads_of(out)["1"][1] + first, upper_via_y(parts) + clear)
    return [round(base + i * g.LANE, 4) for i in range(4)]


def clear_of_holes(part, hole, kind):
    """Move a part right until its courtyard is PART_GAP clear of every
    mounting hole's (a hole's post stands there)."""
    r = footprints.load(hole["footprint"]).courtyard[2]
    x0, y0, x1, y1 = footprints.courtyard_of(part)
    for hx, hy in g.mounting_holes(kind):
        if x0 < hx + r + PART_GAP and hx - r - PART_GAP < x1 and y0 < hy + r and hy - r < y1:
            shift = snap_out(hx + r + PART_GAP - x0)
            part["at"] = (round(part["at"][0] + shift, 4), part["at"][1])
            x0, x1 = x0 + shift, x1 + shift


def reach(parts, kind):
    """(mm, part): how far square 0's cell reaches from the square's centre (its
    parts' courtyards), and the part that reaches furthest."""
    cx, cy = g.square_centre(kind, 0)
    out = (0.0, None)
    for p in parts:
        if p["square"] == 0:
            x0, y0, x1, y1 = footprints.courtyard_of(p)
            out = max(out, (max(cx - x0, x1 - cx, cy - y0, y1 - cy), p), key=lambda v: v[0])
    return out


def smallest_pitch(parts, kind):
    """The smallest pitch (to PITCH_STEP) whose squares hold a square's parts."""
    need = 2 * (reach(parts, kind)[0] + g.EDGE)
    return -(-need // PITCH_STEP) * PITCH_STEP


def check_fit(parts, kind):
    """SizeError unless square 0's cell fits inside its square less the board's edge."""
    far, part = reach(parts, kind)
    if g.PITCH < 2 * (far + g.EDGE):
        raise g.SizeError("squares of %g mm are too small for a square's parts: its %s (%s, "
                          "%s) reaches %.2f mm from the centre; with these parts the boards "
                          "need squares of %g mm or more (catalogue.py chooses the parts)"
                          % (g.PITCH, part["job"], part["value"], part["footprint"], far,
                             smallest_pitch(parts, kind)))


def module(parts, kind):
    """Place every part of a module board (circuit.module) in the module's frame."""
    for k in range(g.squares(kind)):
        cell(parts, kind, k)
    check_fit(parts, kind)
    register_area(parts, kind)
    last_square(parts, kind)
    connectors(parts, kind)
    holes = [p for p in parts if p["job"] == "hole"]
    for p, xy in zip(holes, g.mounting_holes(kind)):
        put(p, xy, 0.0)
    return parts
