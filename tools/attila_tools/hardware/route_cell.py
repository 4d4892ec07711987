"""A square's tracks: its LED, capacitor, switch and pull-up, and their lanes
to the spine (route_spine.py draws the lines they drop onto).

Lanes run on the top side along x at heights taken from the pads, in the
square's spine frame (place.Cell: x towards the spine). The right column's
LED is the left's turned half a turn, so its pads are the left's mirrored
in y: where a lane would meet the other column's lane of another net over
the spine, it runs a LANE lower (the switch's) or higher (the chain's).
"""

from attila_tools.hardware import circuit, geometry as g
from attila_tools.hardware.geometry import LANE
from attila_tools.hardware.place import Cell

GROUND_VIA = 1.5  # from the LED's ground pad to its via into the pour, away from the LED
LINK_BELOW = 3.5  # a left square's data-in lane below its 5 V lane


def square(r, kind, k):
    """Square k's tracks (D(k+1), C(k+1), SW(k+1), R(k+1) of circuit.square)."""
    c = Cell(kind, k)
    n = g.squares(kind)
    led, cap, sw, pull = "D%d" % (k + 1), "C%d" % (k + 1), "SW%d" % (k + 1), "R%d" % (k + 1)

    def pad(ref, role):
        return c.local(r.pin(ref, role))

    def lane(net, x, pts):
        r.to_line(net, x, [c.at(*p) for p in pts])

    vdd, vss = pad(led, "supply"), pad(led, "ground")
    din, dout = pad(led, "data_in"), pad(led, "data_out")
    c5v, cgnd = pad(cap, "2"), pad(cap, "1")
    up = 1 if dout[1] > 0 else -1  # +1: the left column's LED, -1 the right's
    # The 100 nF straight onto the LED's pads, no via between: +5 V from its
    # pad to VDD beside it, ground under the LED's body to VSS at the far corner.
    r.track("+5V", "F.Cu", [c.at(*c5v), c.at(*vdd)])
    r.track("GND", "F.Cu", [c.at(*cgnd), c.at(*vss)])
    lane("+5V", g.spine_x(kind, "+5V"), [c5v])
    # The switch's ground to VSS; a via from VSS into the pour.
    sgnd, ssig = pad(sw, "ground"), pad(sw, "signal")
    r.track("GND", "F.Cu", [c.at(*sgnd), c.at(sgnd[0], vss[1]), c.at(*vss)])
    via = c.at(vss[0], vss[1] + (1 if vss[1] > 0 else -1) * GROUND_VIA)
    r.track("GND", "F.Cu", [c.at(*vss), via])
    r.via("GND", via)
    # The switch and its pull-up onto the register input's line; the pull-up's
    # other pad onto the 3.3 V line. The right column's lane runs a LANE lower.
    d_line = line_x(r, kind, "D%d" % k)
    high, low = pad(pull, "1"), pad(pull, "2")
    if up > 0:
        lane("D%d" % k, d_line, [high, (high[0], ssig[1]), ssig])
    else:
        y = ssig[1] - LANE
        r.track("D%d" % k, "F.Cu", [c.at(*ssig), c.at(ssig[0], y)])
        lane("D%d" % k, d_line, [high, (high[0], y)])
    lane("+3V3", line_x(r, kind, "+3V3"), [low])
    # The chain: within a row (left DOUT -> right DIN) on LINK_ROW, from a
    # row's right square up to the next row's left on LINK_UP.
    row_lane = abs(c5v[1])  # the right column's 5 V lane's height
    if up > 0:
        lane(circuit.led_net(kind, k + 1), g.spine_x(kind, "LINK_ROW"),
             [dout, (dout[0], row_lane)])
        if k > 0:
            lane(circuit.led_net(kind, k), g.spine_x(kind, "LINK_UP"),
                 [din, (din[0], c5v[1] - LINK_BELOW)])
        return
    lane(circuit.led_net(kind, k), g.spine_x(kind, "LINK_ROW"),
         [din, (din[0], row_lane + 2 * LANE)])
    if k < n - 1:
        lane(circuit.led_net(kind, k + 1), g.spine_x(kind, "LINK_UP"), [dout])
    else:  # the last LED's data-out through its series resistor (route_spine: on to OUT)
        series = "R%d" % (n + 2)
        r.track(circuit.led_net(kind, n), "F.Cu", [c.at(*dout), r.pad(series, "1")])


def line_x(r, kind, net):
    """x of the spine's line a net is joined on: 3.3 V, D0..D3 and SER on the
    register's own upper pin columns (from its pads), the others beside it
    (geometry.spine_lines)."""
    role = {"+3V3": "VCC", "SER": "SER"}.get(net, net)
    if role in ("VCC", "SER", "D0", "D1", "D2", "D3"):
        return r.pin("U1", role)[0]
    return g.spine_x(kind, net)
