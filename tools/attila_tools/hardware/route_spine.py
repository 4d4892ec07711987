"""A module's spine: the register at its foot, the IN and OUT connectors, and
the bottom-side lines every square's lanes drop onto (route_cell.py).

- The register's upper pins (3.3 V, D0..D3, SER) rise to vias where their
  lines start; its lower pins (LOAD, CLOCK, D4..D7) drop to vias on the
  bottom strip, lanes along the board's bottom edge, one a via's pitch above
  the other; unused inputs and ground are tied under its body.
- IN (bottom left): 5 V up through the bulk capacitor and across on the
  bottom side to the 5 V line; 3.3 V along to the register's capacitor and up
  to its pin; the LED data up to square 0's LED; LOAD and CLOCK down to the
  strip; QH under the register to its pin.
- OUT (under the last square): its odd pins' lanes nested below it to their
  lines, CLOCK and the last LED's data from above.
- Ground is poured on both sides.
"""

from attila_tools.hardware import footprints, geometry as g, rules
from attila_tools.hardware.geometry import LANE
from attila_tools.hardware.place import PITCH_STEP, one_row_lanes, upper_via_y
from attila_tools.hardware.route import B, F
from attila_tools.hardware.route_cell import GROUND_VIA, line_x, square


def strip_y(level):
    """Height of the bottom strip's lane `level` (0: CLOCK, 1: LOAD, 2..5: D4..D7)."""
    c = rules.SIGNAL
    return round(g.EDGE + (level + 1) * (c["via"] + c["clearance"]), 4)


def register(r, kind):
    n = g.squares(kind)
    reg = r.parts["U1"]
    pin = lambda role: r.pin("U1", role)  # noqa: E731
    top, mid = upper_via_y(r.parts.values()), reg["at"][1]
    inner = footprints.pad_size(reg, reg["choice"].pin("GND"))[1]
    tie = (abs(mid - pin("GND")[1]) - inner / 2) / 2  # the ties under the body
    # Unused upper inputs (a module of fewer than four squares) are tied to
    # 3.3 V just above the pins, where ground's pin (CE) then does not rise:
    # it reaches the pour through pin 8's via on the strip, below.
    spare = ["D%d" % k for k in range(n, 4)]
    above = pin("VCC")[1] + inner / 2 + rules.POWER["clearance"] + rules.POWER["track"] / 2
    for role, net in (("VCC", "+3V3"), ("CE", "GND"), ("D3", "D3"), ("D2", "D2"),
                      ("D1", "D1"), ("D0", "D0"), ("SER", "SER")):
        x, y = pin(role)
        if role in spare:
            r.track("+3V3", F, [(x, y), (x, above), (pin("VCC")[0], above)])
            continue
        if role == "CE" and spare:
            continue
        r.track(net, F, [(x, y), (x, top)])
        r.via(net, (x, top))
        r.join(net, x, top)
    for level, (role, net) in enumerate((("CLOCK", "CLOCK"), ("LOAD", "LOAD"))):
        x, y = pin(role)
        r.via(net, (x, strip_y(level)))
        r.track(net, F, [(x, strip_y(level)), (x, y)])
    tied = []
    for k in range(4, g.MOST_SQUARES):
        x, y = pin("D%d" % k)
        if k >= n:
            tied.append(x)
            r.track("+3V3", F, [(x, y), (x, mid - tie)])
            continue
        level = k - 2
        r.via("D%d" % k, (x, strip_y(level)))
        r.track("D%d" % k, F, [(x, strip_y(level)), (x, y)])
        r.track("D%d" % k, B, [(x, strip_y(level)), (g.spine_x(kind, "D%d" % k), strip_y(level))])
        r.join("D%d" % k, g.spine_x(kind, "D%d" % k), strip_y(level))
    vcc = pin("VCC")
    if tied:
        r.track("+3V3", F, [(max(tied), mid - tie), (vcc[0], mid - tie), vcc])
    gnd, ce = pin("GND"), pin("CE")
    r.track("GND", F, [gnd, (gnd[0], mid + tie), (ce[0], mid + tie), ce])
    if spare:  # the strip's lanes of D4 and up are not there
        r.track("GND", F, [gnd, (gnd[0], strip_y(2))])
        r.via("GND", (gnd[0], strip_y(2)))
    # Its 100 nF: +3.3 V up to the pin row and along into VCC; ground to a via.
    cap = "C%d" % (n + 1)
    c3, cg = r.pad(cap, "2"), r.pad(cap, "1")
    r.track("+3V3", F, [c3, (c3[0], vcc[1]), vcc])
    r.track("GND", F, [cg, (cg[0], cg[1] - GROUND_VIA)])
    r.via("GND", (cg[0], cg[1] - GROUND_VIA))


def connector_in(r, kind):
    """IN's pins (pin 1 at the board's left edge, odd pins up) onto the spine."""
    n = g.squares(kind)
    pin = lambda p: r.pad("J1", p)  # noqa: E731
    half = abs(pin("2")[0] - pin("1")[0]) / 2 or abs(pin("3")[0] - pin("1")[0]) / 2
    bulk = "C%d" % (n + 2)
    b5, bg = r.pad(bulk, "2"), r.pad(bulk, "1")
    p1 = pin("1")
    r.track("+5V", F, [p1, (p1[0], b5[1]), b5])
    r.track("+5V", B, [p1, (p1[0], b5[1]), (g.spine_x(kind, "+5V"), b5[1])])
    r.join("+5V", g.spine_x(kind, "+5V"), b5[1])
    r.track("GND", F, [bg, (bg[0], bg[1] + GROUND_VIA)])
    r.via("GND", (bg[0], bg[1] + GROUND_VIA))
    cap3 = r.pad("C%d" % (n + 1), "2")
    p3 = pin("3")
    r.track("+3V3", F, [p3, (p3[0], cap3[1]), cap3])
    # The LED data up between the pin columns on the bottom, over on top to
    # square 0's LED.
    p4, din = pin("4"), r.pin("D1", "data_in")
    x = p4[0] + half
    via_y = (cap3[1] + b5[1]) / 2
    r.track("LED_IN", B, [p4, (x, p4[1] + half), (x, via_y)])
    r.via("LED_IN", (x, via_y))
    r.track("LED_IN", F, [(x, via_y), (x, din[1]), din])
    # LOAD and CLOCK down to the strip, along to their lines and the register.
    p5, p6 = pin("5"), pin("6")
    r.track("LOAD", B, [p5, (p5[0] + half, p5[1] - half), (p5[0] + half, strip_y(1)),
                        (g.spine_x(kind, "LOAD"), strip_y(1))])
    r.join("LOAD", g.spine_x(kind, "LOAD"), strip_y(1))
    r.track("CLOCK", B, [p6, (p6[0], strip_y(0)), (g.spine_x(kind, "CLOCK"), strip_y(0))])
    r.join("CLOCK", g.spine_x(kind, "CLOCK"), strip_y(0))
    # QH under the register's body on the bottom, up beside it to its pin's row.
    p7, qh = pin("7"), r.pin("U1", "QH")
    mid = r.parts["U1"]["at"][1]
    qx = (qh[0] + g.spine_x(kind, g.spine_lines(kind)[1][0])) / 2
    r.track("QH", B, [p7, (p7[0], mid), (qx, mid), (qx, qh[1])])
    r.via("QH", (qx, qh[1]))
    r.track("QH", F, [(qx, qh[1]), qh])


def connector_out(r, kind):
    """OUT (pin 1 at the board's right edge, odd pins down): SER, LOAD, 3.3 V
    and 5 V nested below it onto their lines, CLOCK and the LED data from above."""
    n = g.squares(kind)
    pin = lambda p: r.pad("J2", p)  # noqa: E731
    # the first lane below the odd row clears its pads by the power class
    first = footprints.pad_size(r.parts["J2"], "1")[1] / 2 + rules.POWER["clearance"] + \
        rules.POWER["track"] / 2
    for depth, (p, net) in enumerate((("7", "SER"), ("5", "LOAD"), ("3", "+3V3"),
                                      ("1", "+5V"))):
        x, y = pin(p)
        below = 0.0 if depth == 0 else first + (depth - 1) * LANE
        r.to_line(net, line_x(r, kind, net), [(x, y), (x, y - below)])
    pull = "R%d" % (n + 1)
    pg = r.pad(pull, "2")
    r.track("GND", F, [pg, (pg[0], pg[1] + GROUND_VIA)])
    r.via("GND", (pg[0], pg[1] + GROUND_VIA))
    p6, p4 = pin("6"), pin("4")
    r.track("CLOCK", B, [p6, (p6[0], p6[1] + 2 * LANE), (g.spine_x(kind, "CLOCK"),
                                                         p6[1] + 2 * LANE)])
    r.join("CLOCK", g.spine_x(kind, "CLOCK"), p6[1] + 2 * LANE)
    out = r.pad("R%d" % (n + 2), "2")
    r.track("LED_OUT", F, [out, (out[0], p4[1] + 3 * LANE), (p4[0], p4[1] + 3 * LANE), p4])


def connector_out_one_row(r, kind):
    """OUT beside the register in a one-row module (turned as IN, pin 1 towards
    the spine, odd pins up): its odd pins' lanes rise past the register's upper
    vias, nested, to their lines, SER through its pull-down; CLOCK below it on
    the bottom side; the LED data on the bottom side into pin 4 between the rows.
    SizeError where the last square's parts leave the lanes no room."""
    n = g.squares(kind)
    pin = lambda p: r.pad("J2", p)  # noqa: E731
    lanes = one_row_lanes(list(r.parts.values()))
    top = lanes[-1] + rules.SIGNAL["track"] / 2 + rules.SIGNAL["clearance"]
    cx, cy = g.square_centre(kind, n - 1)
    lowest = min([xy[1] - size / 2 for _net, xy, size, _d in r.vias
                  if abs(xy[0] - cx) < g.PITCH / 2 and xy[1] > lanes[0]] +
                 [footprints.courtyard_of(p)[1] for p in r.parts.values()
                  if p["square"] == n - 1])
    if top > lowest:
        least = -(-(g.PITCH + 2 * (top - lowest)) // PITCH_STEP) * PITCH_STEP
        raise g.SizeError("module %s: in one row of %g mm squares OUT's lanes do not pass "
                          "under its second square's parts; it needs squares of %g mm or more"
                          % (kind, g.PITCH, least))
    for y, (p, net) in zip(lanes, (("1", "+5V"), ("3", "+3V3"), ("5", "LOAD"), ("7", "SER"))):
        x, y0 = pin(p)
        r.to_line(net, line_x(r, kind, net), [(x, y0), (x, y)])
    pg = r.pad("R%d" % (n + 1), "2")
    r.track("GND", F, [pg, (pg[0], pg[1] + GROUND_VIA)])
    r.via("GND", (pg[0], pg[1] + GROUND_VIA))
    first = footprints.pad_size(r.parts["J2"], "1")[1] / 2 + rules.POWER["clearance"] + \
        rules.POWER["track"] / 2
    p6 = pin("6")
    y = p6[1] - first
    r.track("CLOCK", B, [p6, (p6[0], y), (g.spine_x(kind, "CLOCK"), y)])
    r.join("CLOCK", g.spine_x(kind, "CLOCK"), y)
    out, p4, p2 = r.pad("R%d" % (n + 2), "2"), pin("4"), pin("2")
    via = (out[0], out[1] - GROUND_VIA)
    r.track("LED_OUT", F, [out, via])
    r.via("LED_OUT", via)
    between = ((p4[0] + p2[0]) / 2, (p4[1] + pin("3")[1]) / 2)  # among pins 1 to 4
    r.track("LED_OUT", B, [via, (via[0], between[1]), between, p4])


def route(r, kind):
    """A module board's tracks and pours (r: a route.Route of its placed parts)."""
    for k in range(g.squares(kind)):
        square(r, kind, k)
    register(r, kind)
    connector_in(r, kind)
    (connector_out if g.size(kind)[1] > 1 else connector_out_one_row)(r, kind)
    r.draw_lines()
    box = g.board_outline(kind)
    r.pour("GND", B, box)
    r.pour("GND", F, box)
    return r
