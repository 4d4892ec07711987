"""The controller's tracks, from its parts' pads (see route.py; the modules'
are route_cell.py and route_spine.py).

The Pico stands on the left, USB up. Its right-hand pins' signals leave on
the top side straight to their parts, which lie level with them
(place_controller.py); its left-hand pins' signals cross under it on the
bottom side, each in the lane half a pin pitch below (or above) its pin,
between two right-hand pins, to the series resistors and the microSD socket.
The cable connector (J1) takes its lanes nested: the even pins' from above,
the odd pins' from below, one ENTRY apart. Ground is poured on both sides.
"""

from attila_tools.hardware import footprints
from attila_tools.hardware.geometry import LANE
from attila_tools.hardware.route import B, F

STUB = 1.5  # a pad to the via that takes it to the other side or the pour
ENTRY = 1.5  # the cable connector's lanes, one below (or above) the other
# The lane of each left-hand pin crossing under the Pico: -1 half a pitch
# below the pin, +1 above (where the lane below is a neighbour's, or under the
# Pico W's antenna keep-out at its lower end).
UNDER = {"CLOCK_GP": -1, "LOAD_GP": 1, "SHIFT": 1, "SD_SCK": -1, "SD_MOSI": -1,
         "SD_MISO": -1, "SD_CS": -1}


class Controller:
    def __init__(self, r):
        self.r = r
        pico = r.parts["U1"]
        pads = footprints.pads_of(pico)
        self.pin = {net: pads[p] for p, net in sorted(pico["pins"].items(),
                                                       key=lambda kv: int(kv[0])) if net}
        fp = footprints.load(pico["footprint"])
        self.half = abs(fp.pads["2"][1] - fp.pads["1"][1]) / 2
        self.left = pads["1"][0]

    def under(self, net, x_end):
        """From a left-hand pin across under the Pico on the bottom side to x_end,
        a via there; the lane's height."""
        x, y = self.pin[net]
        lane = round(y + UNDER[net] * self.half, 4)
        self.r.track(net, B, [(x, y), (x + self.half, lane), (x_end, lane)])
        self.r.via(net, (x_end, lane))
        return lane

    def stub(self, net, pad, dx, dy):
        """A pad to a via STUB away (dx, dy: the direction)."""
        via = (pad[0] + dx * STUB, pad[1] + dy * STUB)
        self.r.track(net, F, [pad, via])
        self.r.via(net, via)
        return via


def buttons_and_buffer(c):
    r, pin, pad = c.r, c.pin, c.r.pad
    for ref, net in (("SW1", "UNDO"), ("SW2", "MENU")):
        far = max(footprints.all_pads_of(r.parts[ref])["1"])  # through both pads 1
        r.track(net, F, [pin[net], far])
    bz = pad("BZ1", "1")
    r.track("BUZZER", F, [pin["BUZZER"], (bz[0], pin["BUZZER"][1]), bz])
    r.track("LED_GP", F, [pin["LED_GP"], r.pin("U2", "A")])
    r.track("VSYS", F, [pin["VSYS"], r.pin("D1", "K")])
    for role in ("OE", "GND"):
        c.stub("GND", r.pin("U2", role), -1, 0)
    r.track("LED_5V", F, [r.pin("U2", "Y"), pad("R1", "1")])
    vcc, c5 = r.pin("U2", "VCC"), pad("C1", "2")
    r.track("+5V", F, [vcc, (vcc[0], c5[1]), c5])
    c.stub("GND", pad("C1", "1"), 0, -1)


def cable(c):
    """LED data, CLOCK, LOAD and the shift data to the cable connector J1."""
    r, pad = c.r, c.r.pad
    up, down = pad("J1", "2")[1], pad("J1", "1")[1]  # its even and odd pins' rows
    led_lane, clock_lane = up + 2 * LANE, up + 3 * LANE
    via = (pad("R1", "2")[0] + STUB, pad("R1", "2")[1])
    r.track("LED", F, [pad("R1", "2"), via])
    r.via("LED", via)
    j = pad("J1", "4")
    r.track("LED", B, [via, (via[0], led_lane), (j[0], led_lane), j])
    # CLOCK: under the Pico, up through its series resistor, over to pin 6 from above.
    lane = c.under("CLOCK_GP", pad("R3", "1")[0] - STUB)
    r.track("CLOCK_GP", F, [(pad("R3", "1")[0] - STUB, lane), pad("R3", "1")])
    out = pad("R3", "2")
    turn = (out[0] + STUB, out[1])
    r.track("CLOCK", F, [out, turn, (turn[0], clock_lane)])
    r.via("CLOCK", (turn[0], clock_lane))
    j = pad("J1", "6")
    r.track("CLOCK", B, [(turn[0], clock_lane), (j[0], clock_lane), j])
    # LOAD: under the Pico, through its series resistor, along below J1 to pin 5.
    lane = c.under("LOAD_GP", pad("R2", "1")[0] - STUB)
    r.track("LOAD_GP", F, [(pad("R2", "1")[0] - STUB, lane), pad("R2", "1")])
    out, j = pad("R2", "2"), pad("J1", "5")
    entry = down - 3 * ENTRY
    r.track("LOAD", F, [out, (out[0] + STUB, out[1]), (out[0] + STUB, entry), (j[0], entry), j])
    # Shift data: under the Pico to its pull-up's column, along to pin 7; up
    # on the bottom side past LOAD's lane to the pull-up.
    pull = pad("R8", "1")
    lane = c.under("SHIFT", pull[0])
    j = pad("J1", "7")
    r.track("SHIFT", F, [(pull[0], lane), (j[0], lane), j])
    rise = (pull[0], pull[1] - STUB)
    r.track("SHIFT", B, [(pull[0], lane), rise])
    r.via("SHIFT", rise)
    r.track("SHIFT", F, [rise, pull])
    return led_lane, clock_lane


def supply(c, clock_lane):
    """5 V from the VSYS diode's anode down to the buffer's capacitor and across
    to the cable's pin 1; 3.3 V from the Pico to the card and the cable's pin 3."""
    r, pad = c.r, c.r.pad
    down = pad("J1", "1")[1]
    anode, c5 = r.pin("D1", "A"), pad("C1", "2")
    r.track("+5V", F, [anode, (anode[0], c5[1]), c5])
    sd_lowest = min(c.pin[n][1] for n in UNDER if n.startswith("SD_")) - c.half
    cross = (clock_lane + sd_lowest) / 2
    p1, p3 = pad("J1", "1"), pad("J1", "3")
    drop5, drop3 = p1[0] - 2 * ENTRY, p1[0] - 4 * ENTRY
    r.via("+5V", (anode[0], cross))
    r.track("+5V", B, [(anode[0], cross), (drop5, cross)])
    r.via("+5V", (drop5, cross))
    r.track("+5V", F, [(drop5, cross), (drop5, down - ENTRY), (p1[0], down - ENTRY), p1])
    vdd = r.pin("J3", "VDD")
    r.track("+3V3", B, [c.pin["+3V3"], (vdd[0], c.pin["+3V3"][1])])
    r.via("+3V3", (vdd[0], c.pin["+3V3"][1]))
    pulls = [p for p in r.parts.values() if p["job"] == "card_pullup"]
    rail = min(pad(p["ref"], "2")[1] for p in pulls) - STUB
    r.track("+3V3", F, [vdd, (vdd[0], rail)])
    west = min(pad(p["ref"], "2")[0] for p in pulls)
    r.track("+3V3", F, [(west, rail), (drop3, rail), (drop3, down - 2 * ENTRY),
                        (p3[0], down - 2 * ENTRY), p3])
    for p in pulls:
        plus = pad(p["ref"], "2")
        r.track("+3V3", F, [plus, (plus[0], rail)])
    r.track("+3V3", F, [pad("R8", "2"), (pad("R8", "2")[0], rail)])
    return rail


def card(c):
    """The microSD socket: its SPI lanes under the Pico, each up to its pad;
    the pull-ups, the 100 nF, VSS to the 100 nF's ground via."""
    r, pad = c.r, c.r.pad
    sd = {net: r.pin("J3", role) for net, role in (("SD_SCK", "SCK"), ("SD_MOSI", "MOSI"),
                                                    ("SD_MISO", "MISO"), ("SD_CS", "CS"))}
    vias = {}
    for net, p in sd.items():
        vias[net] = (p[0], c.under(net, p[0]))
        r.track(net, F, [vias[net], p])
    for p in (x for x in r.parts.values() if x["job"] == "card_pullup"):
        net, top = p["pins"]["1"], pad(p["ref"], "1")
        if net in vias:  # a signal's: onto its lane's via, or across to its line
            target = vias[net] if net == "SD_MISO" else (sd[net][0], top[1])
            r.track(net, F, [top, target])
        else:  # an unused data line's: straight to its pad
            end = r.pin("J3", net[3:])
            r.track(net, F, [top, (end[0], top[1]), end])
    vdd = r.pin("J3", "VDD")
    plus, minus = pad("C3", "2"), pad("C3", "1")
    r.track("+3V3", F, [plus, (vdd[0], plus[1])])
    # its ground to a via, and the socket's VSS down onto that via
    r.track("GND", F, [r.pin("J3", "VSS"), c.stub("GND", minus, 0, 1)])


def power_input(c):
    """USB-C (bottom edge) -> fuse -> clamp -> reverse-polarity FET -> 5 V, up
    the board on the bottom side to the cable's pin 1, the 1000 uF on the way."""
    r, pad, pin = c.r, c.r.pad, c.r.pin
    a, b, f_in = pin("J2", "VBUS_A"), pin("J2", "VBUS_B"), pad("F1", "1")
    y = a[1] + STUB
    for p in (a, b):
        r.track("VIN", F, [p, (p[0], y)])
        r.via("VIN", (p[0], y))
    r.track("VIN", B, [(max(a[0], b[0]), y), (f_in[0], y)])
    r.via("VIN", (f_in[0], y))
    r.track("VIN", F, [(f_in[0], y), f_in])
    # CC1 and CC2 up between the VBUS vias, out at 45 degrees to their 5.1 kOhm.
    for role, ref in (("CC1", "R10"), ("CC2", "R11")):
        p, q = pin("J2", role), pad(ref, "1")
        r.track(role, F, [p, (p[0], q[1] - abs(q[0] - p[0])), q])
        c.stub("GND", pad(ref, "2"), 0, 1)
    shell = footprints.all_pads_of(r.parts["J2"])[r.parts["J2"]["choice"].pin("SHIELD")]
    for role in ("GND_A", "GND_B"):
        g = pin("J2", role)
        s = min(shell, key=lambda q: abs(q[0] - g[0]) + abs(q[1] - g[1]))
        r.track("GND", F, [g, (s[0], g[1])])
    # Fuse -> FET's drain, the clamp's cathode joining on the way.
    f_out, drain, k = pad("F1", "2"), pin("Q1", "D"), pin("D2", "K")
    r.track("VIN_FUSED", F, [f_out, (f_out[0], k[1]), drain])
    r.track("VIN_FUSED", F, [k, (f_out[0], k[1])])
    c.stub("GND", pin("D2", "A"), -1, 0)
    r.track("Q1_GATE", F, [pin("Q1", "G"), pad("R9", "1")])
    c.stub("GND", pad("R9", "2"), 0, 1)
    # The source: 5 V through a via, up the bottom side to the cable's pin 1;
    # down to the 1000 uF, passing the fuse on the side away from the input.
    src, cap, p1 = pin("Q1", "S"), pin("C2", "+"), pad("J1", "1")
    sv = c.stub("+5V", src, 0, 1)
    r.track("+5V", B, [sv, (sv[0], p1[1] - ENTRY - STUB), (p1[0], p1[1] - ENTRY), p1])
    side = f_in[0] - STUB
    r.track("+5V", B, [sv, (side, sv[1] - (sv[0] - side)), (side, cap[1] + STUB),
                       (cap[0] + STUB, cap[1]), cap])


def route(r, outline):
    """The controller's tracks, then its ground poured on both sides."""
    c = Controller(r)
    buttons_and_buffer(c)
    _led, clock_lane = cable(c)
    supply(c, clock_lane)
    card(c)
    power_input(c)
    r.pour("GND", F, outline)
    r.pour("GND", B, outline)
    return r
