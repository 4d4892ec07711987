"""The controller's tracks, laid by the generator (see route.py for the modules).

The Pico stands on the left, USB up. Its right-hand pins' signals leave on
the top side straight to their parts; its left-hand pins' signals cross under
it on the bottom side, each between two right-hand pins, to the cable
connector (right), the series resistors and the microSD socket (top right).
Ground is a pour on both sides. Points are the board's own frame (mm, y up);
the part places are circuit.controller's.
"""

from attila_tools.hardware.route import B, F, Router, W_3V3, W_5V, pour

LEFT, RIGHT = 11.11, 28.89  # the Pico's pin columns


def lane(pin_y):
    """The bottom-side lane of a left-hand pin: between two right-hand pins."""
    return round(pin_y - 1.27, 2)


def route(board, netmap):
    r = Router(board, "controller", netmap)
    t, v = r.track, r.via

    def under(net, pin_y, x_end, width=None, up=False):
        """From a left-hand pin under the Pico to x_end on the bottom side (the
        lane below the pin, or above it: the Pico's antenna keep-out is below pin 17)."""
        y = round(pin_y + 1.27, 2) if up else lane(pin_y)
        t(net, B, [(LEFT, pin_y), (LEFT + 1.27, y), (x_end, y)], width)
        return y

    # Right-hand pins, on top.
    t("UNDO", F, [(RIGHT, 9.87), (40.5, 9.87)])  # both of the button's pads 1
    t("MENU", F, [(RIGHT, 12.41), (52.5, 12.41)])
    t("BUZZER", F, [(RIGHT, 17.49), (59.0, 17.49), (59.0, 7.0)])
    t("LED_GP", F, [(RIGHT, 30.19), (35.8625, 30.19)])
    t("VSYS", F, [(RIGHT, 55.59), (35.0, 55.59)], W_5V)
    # The buffer: OE and GND to ground, Y through the 330 Ohm, its 100 nF.
    for y_pad, y_via in ((31.14, 32.0), (29.24, 28.4)):
        t("GND", F, [(35.8625, y_pad), (34.4, y_via)])
        v("GND", (34.4, y_via))
    t("LED_5V", F, [(38.1375, 29.24), (40.175, 29.24)])
    t("+5V", F, [(38.1375, 31.14), (38.1375, 33.0), (39.725, 33.0)], W_5V)
    t("GND", F, [(41.275, 33.0), (41.275, 31.6)])
    v("GND", (41.275, 31.6))
    # LED data: bottom side over to the cable's pin 4 (from above).
    t("LED", F, [(41.825, 29.24), (43.0, 29.24)])
    v("LED", (43.0, 29.24))
    t("LED", B, [(43.0, 29.24), (43.0, 35.0), (84.73, 35.0), (84.73, 31.27)])
    # CLOCK: under the Pico, up through its 33 Ohm, then over to pin 6 (from above).
    y = under("CLOCK_GP", 25.11, 46.0)
    v("CLOCK_GP", (46.0, y))
    t("CLOCK_GP", F, [(46.0, y), (47.175, y)])
    t("CLOCK", F, [(48.825, y), (50.5, y), (50.5, 36.2)])
    v("CLOCK", (50.5, 36.2))
    t("CLOCK", B, [(50.5, 36.2), (87.27, 36.2), (87.27, 31.27)])
    # LOAD: under the Pico, through its 33 Ohm, along to pin 5 (from below).
    y = under("LOAD_GP", 17.49, 52.0, up=True)
    v("LOAD_GP", (52.0, y))
    t("LOAD_GP", F, [(52.0, y), (53.175, y)])
    t("LOAD", F, [(54.825, y), (56.5, y), (56.5, 23.0), (87.27, 23.0), (87.27, 28.73)])
    # Shift data: under the Pico, up at x 70, to pin 7 (from below).
    y = under("SHIFT", 20.03, 70.0, up=True)
    v("SHIFT", (70.0, y))
    t("SHIFT", F, [(70.0, y), (89.81, y), (89.81, 28.73)])
    # its pull-up above LOAD's track: up on the bottom, to the 3.3 V rail on top
    t("SHIFT", B, [(70.0, y), (70.0, 27.0)])
    v("SHIFT", (70.0, 27.0))
    t("SHIFT", F, [(70.0, 27.0), (70.0, 29.175)])
    t("+3V3", F, [(70.0, 30.825), (70.0, 40.0)])
    # 5 V: the diode's anode down to the buffer, across on the bottom to the
    # cable's pin 1 (the input joins pin 1 from below: power_input).
    t("+5V", F, [(39.0, 55.59), (44.0, 55.59), (44.0, 34.5), (39.725, 34.5), (39.725, 33.0)],
      W_5V)
    v("+5V", (44.0, 38.0))
    t("+5V", B, [(44.0, 38.0), (79.0, 38.0)], W_5V)
    v("+5V", (79.0, 38.0))
    t("+5V", F, [(79.0, 38.0), (79.0, 26.5), (82.19, 26.5), (82.19, 28.73)], W_5V)
    # The microSD card: four lanes under the Pico, each up to its pad.
    for net, pin_y, x in (("SD_SCK", 50.51, 60.705), ("SD_MOSI", 47.97, 62.905),
                          ("SD_MISO", 45.43, 58.505), ("SD_CS", 42.89, 64.005)):
        y = under(net, pin_y, x)
        v(net, (x, y))
        t(net, F, [(x, y), (x, 50.55)])
    # 3.3 V: from pin 36 on the bottom to the card's VDD, down to a rail for
    # the pull-ups, and on to the cable's pin 3 (from below).
    t("+3V3", B, [(RIGHT, 47.97), (61.805, 47.97)], W_3V3)
    v("+3V3", (61.805, 47.97))
    t("+3V3", F, [(61.805, 50.55), (61.805, 40.0)], W_3V3)
    t("+3V3", F, [(55.0, 40.0), (76.0, 40.0), (76.0, 25.0), (84.73, 25.0), (84.73, 28.73)],
      W_3V3)
    t("GND", F, [(59.605, 50.55), (59.605, 45.43)], W_3V3)
    v("GND", (59.605, 45.43))
    # Pull-ups (rail below) and the card's 100 nF.
    t("SD_MISO", F, [(57.0, 43.025), (58.505, 44.16)])
    t("+3V3", F, [(57.0, 41.375), (57.0, 40.0)])
    t("SD_DAT1", F, [(55.0, 46.825), (55.0, 48.0), (57.455, 49.4), (57.455, 50.55)])
    t("+3V3", F, [(55.0, 45.175), (55.0, 40.0)])
    t("SD_DAT2", F, [(68.0, 47.325), (65.105, 47.325), (65.105, 50.55)])
    t("+3V3", F, [(68.0, 45.675), (68.0, 40.0)])
    t("SD_CS", F, [(66.0, 45.325), (64.005, 45.325)])
    t("+3V3", F, [(66.0, 43.675), (66.0, 40.0)])
    t("+3V3", F, [(60.975, 42.6), (61.805, 42.6)])
    t("GND", F, [(59.425, 42.6), (59.425, 43.6)])
    v("GND", (59.425, 43.6))


def power_input(r):
    """USB-C (bottom edge) -> fuse -> clamp -> reverse-polarity FET -> 5 V,
    up the board on the bottom side to the cable's pin 1 (from below), the
    1000 uF on the way. Pads are read from the placed footprints."""
    t, v, pad = r.track, r.via, r.pad
    w = W_5V
    # VBUS: both pads through vias, joined on the bottom, up into the fuse.
    a9, b9, f_in = pad("J2", "A9"), pad("J2", "B9"), pad("F1", "1")
    y = round(a9[1] + 1.42, 2)
    for p in (a9, b9):
        t("VIN", F, [p, (p[0], y)], w)
        v("VIN", (p[0], y), power=True)
    t("VIN", B, [(a9[0], y), (f_in[0], y)], w)
    v("VIN", (f_in[0], y), power=True)
    t("VIN", F, [(f_in[0], y), f_in], w)
    # CC1 and CC2 up between the VBUS vias, out to their 5.1 kOhm.
    for cc, ref, side in (("A5", "R10", -1), ("B5", "R11", 1)):
        p, q = pad("J2", cc), pad(ref, "1")
        turn = round(q[1] - abs(q[0] - p[0]), 3)
        t("CC%d" % (1 if cc == "A5" else 2), F, [p, (p[0], turn), q])
        gnd = pad(ref, "2")
        t("GND", F, [gnd, (gnd[0], gnd[1] + 1.4)])
        v("GND", (gnd[0], gnd[1] + 1.4))
    # The shell's ground pads beside the ground pins.
    for pin, shell in (("B12", -1), ("A12", 1)):
        p = pad("J2", pin)
        t("GND", F, [p, (round(p[0] + shell * 1.57, 3), p[1])], w)
    # Fuse -> FET's drain, the clamp's cathode joining on the way.
    f_out, drain = pad("F1", "2"), pad("Q1", "3")
    k = pad("D2", "1")
    t("VIN_FUSED", F, [f_out, (f_out[0], k[1]), drain], w)
    t("VIN_FUSED", F, [k, (f_out[0], k[1])], w)
    a = pad("D2", "2")
    t("GND", F, [a, (round(a[0] - 1.8, 3), a[1])], w)
    v("GND", (round(a[0] - 1.8, 3), a[1]), power=True)
    # The gate to ground through R9.
    gate, rg, rgnd = pad("Q1", "1"), pad("R9", "1"), pad("R9", "2")
    t("Q1_GATE", F, [gate, rg])
    t("GND", F, [rgnd, (rgnd[0], rgnd[1] + 1.46)])
    v("GND", (rgnd[0], rgnd[1] + 1.46))
    # The source: 5 V, down through a via, to the 1000 uF and up to the cable's pin 1.
    src, cap, pin1 = pad("Q1", "2"), pad("C2", "1"), pad("J1", "1")
    sv = (src[0], round(src[1] + 1.46, 2))
    t("+5V", F, [src, sv], w)
    v("+5V", sv, power=True)
    t("+5V", B, [sv, (sv[0], 25.5), (pin1[0] - 0.9, 27.83), pin1], w)
    t("+5V", B, [sv, (cap[0] + 3.5, sv[1] - 3.5), (cap[0] + 3.5, cap[1] + 1.5),
                 (cap[0] + 2.0, cap[1]), cap], w)


def route_board(board, netmap):
    """The controller's tracks, then its ground poured on both sides."""
    route(board, netmap)
    power_input(Router(board, "controller", netmap))
    pour(board, "controller", netmap, F)
    return pour(board, "controller", netmap, B)
