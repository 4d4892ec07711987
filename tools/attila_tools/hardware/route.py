"""The tracks of a module board, laid by the generator (KiCad's DRC is the judge).

A module is a regular grid, so its few nets are laid by rule rather than by
an autorouter. Top copper carries horizontal lanes, bottom copper the
vertical lines of a spine up the middle of the module (x about 30..51 mm)
and a ground pour:

- each square sends its nets along lanes at fixed heights towards the
  spine (left column to the right, right column to the left: its parts are
  the mirror image, geometry.at) and drops through a via onto its line;
- the register sits at the spine's foot with its pins on the lines' pitch;
- the IN connector (bottom left) and OUT connector (top right) join the
  lines through short lanes; ground pins go to the pour.

Coordinates are the module's own frame (mm, y up); `Router` turns them into
KiCad's page. Lane heights are relative to a square's centre in its "spine
frame" (x towards the spine).
"""

import pcbnew

from attila_tools.hardware import circuit, frame, geometry as g, rules

F, B = pcbnew.F_Cu, pcbnew.B_Cu
W_SIG, W_GND, W_3V3 = rules.SIGNAL["track"], 0.4, 0.3
W_5V = rules.POWER["track"]  # the 5 V, and ground where the chain's current returns

# The register's pin columns (its pins on a 1.27 mm pitch across the spine).
REG = g.at("2x2", 0, g.REGISTER_AT)  # same for every kind: square 0's frame
COL = [REG[0] + (i - 3.5) * 1.27 for i in range(8)]
TOP_VIA = REG[1] + 3.95  # vias above the register's top row (lines from above)

# Spine lines (x, module frame).
X_INTRA = 30.0  # LED chain links within a row (left square -> right square)
X_5V = 32.0
X_3V3, X_GND = COL[0], COL[1]
X_DTOP = {3: COL[2], 2: COL[3], 1: COL[4], 0: COL[5]}  # D0..D3 end on the top row
X_SER = COL[6]
X_D4, X_D5 = 47.0, 46.0  # come down to the register's bottom row
X_INTER = 48.0  # chain links from a row's right square to the next row's left
X_LOAD, X_CLOCK = 49.0, 50.0
X_LED_OUT = 51.0
WIDTH = {"+5V": W_5V, "GND": W_GND, "+3V3": W_3V3}


class Router:
    def __init__(self, board, kind, netmap):
        self.board, self.kind, self.netmap = board, kind, netmap
        self.lines = {}  # (x, net) -> [y, ...] points the line must join
        self.vias = set()

    def pad(self, ref, number):
        """Where a placed footprint's pad lies (the board's own frame)."""
        pos = self.board.FindFootprintByReference(ref).FindPadByNumber(number).GetPosition()
        return frame.to_module(self.kind, (pcbnew.ToMM(pos.x), pcbnew.ToMM(pos.y)))

    def _pt(self, xy):
        x, y = frame.to_kicad(self.kind, xy)
        return pcbnew.VECTOR2I(pcbnew.FromMM(x), pcbnew.FromMM(y))

    def track(self, net, layer, pts, width=None):
        w = width or WIDTH.get(net, W_SIG)
        for a, b in zip(pts, pts[1:]):
            if a == b:
                continue
            t = pcbnew.PCB_TRACK(self.board)
            t.SetStart(self._pt(a))
            t.SetEnd(self._pt(b))
            t.SetLayer(layer)
            t.SetWidth(pcbnew.FromMM(w))
            t.SetNet(self.netmap[net])
            self.board.Add(t)

    def via(self, net, xy, power=False):
        """A via (power: the power class's size, for a supply's current)."""
        key = (round(xy[0], 3), round(xy[1], 3))
        if key in self.vias:  # two lanes of one net meeting on a line
            return
        self.vias.add(key)
        v = pcbnew.PCB_VIA(self.board)
        v.SetPosition(self._pt(xy))
        v.SetViaType(pcbnew.VIATYPE_THROUGH)
        size = rules.POWER if power else rules.SIGNAL
        v.SetWidth(pcbnew.FromMM(size["via"]))
        v.SetDrill(pcbnew.FromMM(size["drill"]))
        v.SetNet(self.netmap[net])
        self.board.Add(v)

    def to_line(self, net, x, pts):
        """A top lane along pts, then on to line x at the last point's height, and a via."""
        end = (x, pts[-1][1])
        self.track(net, F, list(pts) + [end])
        self.via(net, end, power=net == "+5V")
        self.lines.setdefault((x, net), []).append(end[1])

    def join(self, net, x, y):
        """A point of line x reached from the bottom side (no via)."""
        self.lines.setdefault((x, net), []).append(y)

    def draw_lines(self):
        for (x, net), ys in sorted(self.lines.items()):
            if len(ys) > 1:
                self.track(net, B, [(x, min(ys)), (x, max(ys))])


def square(r, kind, k):
    """The lanes of square k: its LED, capacitor, reed switch and pull-up."""
    n = g.squares(kind)
    cx, cy = g.square_centre(kind, k)
    right = g.mirrored(kind, k)
    s = -1 if right else 1

    def p(x, y):
        return (round(cx + s * x, 4), round(cy + y, 4))

    d = "D%d" % k
    # The switch's line: D0..D3 end on the register's top row, D4/D5 come down.
    xd = X_DTOP.get(k, X_D4 if k == 4 else X_D5)
    if right:
        r.track(d, F, [p(-5, 16.12), p(-5, 15.0)])
        r.to_line(d, xd, [p(-8.5, 13.825), p(-8.5, 15.0)])
    else:
        r.to_line(d, xd, [p(-8.5, 13.825), p(-8.5, 16.12)])
    r.to_line("+3V3", X_3V3, [p(-8.5, 12.175)])
    vdd, c5v = decoupling(r, kind, k)
    led_in, led_out = circuit.led_net(kind, k), circuit.led_net(kind, k + 1)
    if not right:
        r.to_line("+5V", X_5V, [vdd])
        r.to_line(led_out, X_INTRA, [p(2.45, 1.65), p(2.45, 3.5)])  # DOUT -> right square
        r.track("GND", F, [p(-5, 1.0), p(-5, 1.65), p(-2.45, 1.65)])  # switch to VSS
        r.to_line("GND", X_GND, [p(-2.45, 1.65), p(-2.45, 6.5)])
        r.via("GND", p(-3.6, 5.2))
        r.track("GND", F, [p(-2.45, 5.2), p(-3.6, 5.2)])
        if k > 0:  # DIN from the row below's right square
            r.to_line(led_in, X_INTER, [p(-2.45, -1.65), p(-2.45, -7.0)])
    else:
        r.to_line("+5V", X_5V, [vdd, c5v])  # VDD, by its capacitor
        r.to_line(led_in, X_INTRA, [p(-2.45, 1.65), p(-2.45, 5.5)])  # DIN from the left
        r.track("GND", F, [p(-5, 1.0), p(-5, -1.65), p(-2.45, -1.65), p(-2.45, -5.275)])
        r.to_line("GND", X_GND, [p(-2.45, -5.275)])
        r.via("GND", p(-5, -3.2))
        r.track("GND", F, [p(-5, -1.65), p(-5, -3.2)])
        if k < n - 1:  # DOUT to the next row's left square
            r.to_line(led_out, X_INTER, [p(2.45, -1.65)])
        else:  # the last LED: through its series resistor, out through OUT
            series = "R%d" % (n + 2)
            r.track(led_out, F, [p(2.45, -1.65), r.pad(series, "1")])
            r.to_line("LED_OUT", X_LED_OUT, [r.pad(series, "2")])


def decoupling(r, kind, k):
    """Square k's 100 nF straight onto its LED's pads, no via between: +5 V
    from the capacitor's pad to VDD beside it, ground in a straight line under
    the LED's body (between its pad rows) to VSS at the opposite corner.
    Returns the VDD and the capacitor's +5 V pad (module frame)."""
    led, cap = "D%d" % (k + 1), "C%d" % (k + 1)
    vdd, vss = r.pad(led, "1"), r.pad(led, "3")
    c5v, cgnd = r.pad(cap, "2"), r.pad(cap, "1")
    r.track("+5V", F, [c5v, vdd])
    r.track("GND", F, [cgnd, vss])
    return vdd, c5v


def register(r, kind):
    """The 74HC165's pins onto the lines, and its neighbours."""
    n = g.squares(kind)
    top, bot = REG[1] + 2.475, REG[1] - 2.475
    for pin, x, net in ((16, COL[0], "+3V3"), (15, COL[1], "GND"), (14, COL[2], "D3"),
                        (13, COL[3], "D2"), (12, COL[4], "D1"), (11, COL[5], "D0"),
                        (10, COL[6], "SER")):
        if net.startswith("D") and int(net[1:]) >= n:
            continue
        if net == "GND":  # straight up, and down to its line
            y = g.square_centre(kind, 0)[1] - 5.275
            r.track(net, F, [(x, top), (x, y)], W_SIG)
            r.via(net, (x, y))
            r.join(net, x, y)
            continue
        r.track(net, F, [(x, top), (x, TOP_VIA)], W_SIG)
        r.via(net, (x, TOP_VIA))
        r.join(net, x, TOP_VIA)
    # Under the body: the unused inputs and pin 16 on 3.3 V, pin 8 to pin 15.
    y33, ygnd = REG[1] - 0.6, REG[1] + 0.6
    tied = [COL[2 + j] for j in range(4) if 4 + j >= n]  # D4..D7 unused -> 3.3 V
    for x in tied:
        r.track("+3V3", F, [(x, bot), (x, y33)], W_SIG)
    r.track("+3V3", F, [(max(tied), y33), (COL[0], y33), (COL[0], top)], W_SIG)
    r.track("GND", F, [(COL[7], bot), (COL[7], ygnd), (COL[1], ygnd), (COL[1], top)], W_SIG)
    # Bottom row from the bottom strip: LOAD, CLOCK (from IN), D4, D5.
    lanes = [("CLOCK", COL[1], 2.3), ("LOAD", COL[0], 3.1)]
    if n > 4:
        lanes += [("D4", COL[2], 3.9), ("D5", COL[3], 4.7)]
    for net, x, y in lanes:
        r.via(net, (x, y))
        r.track(net, F, [(x, y), (x, bot)], W_SIG)
    if n > 4:
        r.track("D4", B, [(COL[2], 3.9), (X_D4, 3.9)])
        r.join("D4", X_D4, 3.9)
        r.track("D5", B, [(COL[3], 4.7), (X_D5, 4.7)])
        r.join("D5", X_D5, 4.7)
    # Its 100 nF (left of it) on the 3.3 V feed of pin 16.
    c = circuit.REGISTER_CAP(kind)
    r.track("+3V3", F, [(c[0], c[1] + 0.775), (34.3, c[1] + 0.775)], W_3V3)
    r.track("GND", F, [(c[0], c[1] - 0.775), (c[0], c[1] - 2.0)], W_GND)
    r.via("GND", (c[0], c[1] - 2.0))


def connector_in(r, kind):
    """IN (J1, turned so that QH is nearest the register): pins 1..8 onto the spine."""
    pins = {1: (8.19, 8.77), 3: (10.73, 8.77), 4: (10.73, 6.23), 5: (13.27, 8.77),
            6: (13.27, 6.23), 7: (15.81, 8.77)}
    # 5 V: up, through the module's bulk capacitor, then along to its line;
    # the capacitor's ground through a via into the pour.
    bulk = "C%d" % (g.squares(kind) + 2)
    c5v, cgnd = r.pad(bulk, "2"), r.pad(bulk, "1")
    r.to_line("+5V", X_5V, [pins[1], (pins[1][0], c5v[1]), c5v])
    r.track("GND", F, [cgnd, (cgnd[0], cgnd[1] + 1.45)], W_GND)
    r.via("GND", (cgnd[0], cgnd[1] + 1.45))
    # 3.3 V: down between the pins, along the bottom, up to the register's pin 16.
    r.track("+3V3", F, [pins[3], (9.46, 7.5), (9.46, 4.9), (34.3, 4.9), (34.3, REG[1] + 2.475),
                        (COL[0], REG[1] + 2.475)], W_3V3)
    # LED data: on the bottom between the pins, up to square 0's LED.
    r.track("LED_IN", B, [pins[4], (12.0, 7.5), (12.0, 16.0)])
    r.via("LED_IN", (12.0, 16.0))
    r.track("LED_IN", F, [(12.0, 16.0), (14.3, 18.35), (17.55, 18.35)])
    # LOAD and CLOCK: on the bottom, along the board's lower edge, to the
    # register's pins and on to their lines.
    r.track("LOAD", B, [pins[5], (14.54, 7.5), (14.54, 3.1), (X_LOAD, 3.1)])
    r.join("LOAD", X_LOAD, 3.1)
    r.track("CLOCK", B, [pins[6], (13.27, 2.3), (X_CLOCK, 2.3)])
    r.join("CLOCK", X_CLOCK, 2.3)
    # QH: on the bottom under the register to its pin 9.
    qy = REG[1]
    r.track("QH", B, [pins[7], (16.5, qy), (45.3, qy)])
    r.via("QH", (45.3, qy))
    r.track("QH", F, [(45.3, qy), (45.3, REG[1] + 2.475), (COL[7], REG[1] + 2.475)])
    # Ground pin 8 sits in a pocket of the pour: a via into the open pour
    # (the chain's ground current may all return through this wire).
    r.track("GND", F, [(15.81, 6.23), (17.3, 7.0), (17.3, 11.4)], W_5V)
    r.via("GND", (17.3, 11.4), power=True)


def connector_out(r, kind):
    """OUT (J2, top right) and the SER pull-down beside it."""
    x0, y0 = g.connectors(kind)["OUT"]
    lo, hi = y0 - 1.27, y0 + 1.27
    xs = [x0 + 3.81, x0 + 1.27, x0 - 1.27, x0 - 3.81]  # pins 1/2, 3/4, 5/6, 7/8
    r.to_line("SER", X_SER, [(xs[3], lo)])
    r.to_line("LOAD", X_LOAD, [(xs[2], lo), (xs[2], lo - 1.33)])
    r.to_line("+3V3", X_3V3, [(xs[1], lo), (xs[1], lo - 2.63)])
    r.to_line("+5V", X_5V, [(xs[0], lo), (xs[0], lo - 3.93)])
    cy = hi + 2.73
    r.track("CLOCK", B, [(xs[2], hi), (xs[2], cy), (X_CLOCK, cy)])
    r.join("CLOCK", X_CLOCK, cy)
    # The last LED's data comes down line X_LED_OUT and across to pin 4.
    ly = hi + 3.73
    r.join("LED_OUT", X_LED_OUT, ly)
    r.via("LED_OUT", (X_LED_OUT, ly))
    r.track("LED_OUT", F, [(X_LED_OUT, ly), (xs[1], ly), (xs[1], hi)])
    rx, ry = g.at(kind, g.squares(kind) - 1, g.SER_PULLDOWN_AT)
    r.track("SER", F, [(rx, lo), (rx, ry - 0.825)])
    r.track("GND", F, [(rx, ry + 0.825), (rx, ry + 1.9)], W_GND)
    r.via("GND", (rx, ry + 1.9))


def pour(board, kind, netmap, layer=B):
    """Ground over the whole board on one side, around the tracks."""
    if kind == "controller":
        x0, y0, (x1, y1) = 0.0, 0.0, circuit.CONTROLLER_SIZE
    else:
        x0, y0, x1, y1 = g.board_outline(kind)
    z = pcbnew.ZONE(board)
    z.SetLayer(layer)
    z.SetNet(netmap["GND"])
    outline = z.Outline()
    outline.NewOutline()
    for xy in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
        kx, ky = frame.to_kicad(kind, xy)
        outline.Append(pcbnew.FromMM(kx), pcbnew.FromMM(ky))
    z.SetLocalClearance(pcbnew.FromMM(0.3))
    z.SetMinThickness(pcbnew.FromMM(0.25))
    z.SetThermalReliefGap(pcbnew.FromMM(0.4))
    z.SetThermalReliefSpokeWidth(pcbnew.FromMM(0.5))
    z.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
    board.Add(z)
    return z


def route(board, name, kind, parts, netmap):
    """A module board's tracks and pour (the controller's: route_ctl.route_board)."""
    r = Router(board, kind, netmap)
    for k in range(g.squares(kind)):
        square(r, kind, k)
    register(r, kind)
    connector_in(r, kind)
    connector_out(r, kind)
    r.draw_lines()
    return pour(board, kind, netmap)
