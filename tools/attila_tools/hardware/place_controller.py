"""Where the controller's parts lie (its frame: mm, origin at the board's
bottom-left corner, y up).

The Pico stands at the left edge, USB up. A part a straight track joins to
one of its pins lies level with that pin (the pin comes from the profile, its
place from the Pico's footprint): the buttons, the buffer and the VSYS diode
at their pins' heights, the series resistors of CLOCK and LOAD on the lanes
under the Pico. The x of each block is a layout choice, written once below.
The USB-C input's "PCB Edge" mark (its footprint's) lies on the bottom edge.
"""

from attila_tools.hardware import footprints, pinout
from attila_tools.hardware.place import offset, put

SIZE = (104.0, 64.0)
PICO_AT = (20.0, 34.0)  # its pads' middle
HOLE_INSET = 3.5  # the corner holes from the edges
# name: (x, turn): blocks whose height follows a pin's.
BUFFER = (37.0, 0.0)
VSYS_DIODE = (37.0, 0.0)
LED_SERIES = (41.0, 0.0)
CLOCK_SERIES = (48.0, 0.0)
LOAD_SERIES = (54.0, 0.0)
BUTTONS = (34.0, 46.0)
# ref: ((x, y), turn) of the parts a layout places freely.
FREE = {
    "C1": ((40.5, 33.0), 180.0), "R8": ((70.0, 30.0), 90.0), "J1": ((86.0, 30.0), 90.0),
    "BZ1": ((59.0, 7.0), 0.0), "J3": ((62.0, 56.0), 180.0),
    "R4": ((57.0, 42.2), 270.0), "R5": ((55.0, 46.0), 270.0), "R6": ((68.0, 46.5), 270.0),
    "R7": ((66.0, 44.5), 270.0), "C3": ((60.2, 42.6), 0.0),
    "R10": ((84.0, 10.6), 180.0), "R11": ((90.0, 10.6), 0.0), "F1": ((79.0, 11.5), 90.0),
    "D2": ((73.4, 14.85), 180.0), "Q1": ((79.0, 17.0), 270.0), "C2": ((74.0, 7.0), 180.0),
}
USB_X = 87.0
GATE_RESISTOR_X = 82.3


def pico_pins(pico):
    """{net: (x, y)} of the Pico's pins that carry a signal."""
    pads = footprints.pads_of(pico)
    return {net: pads[pad] for pad, net in pico["pins"].items() if net}


def level(part, pad, x, y, rot):
    """Place `part` turned by rot with its pad `pad` at height y, its origin at x."""
    put(part, (x, y - offset(part, pad, rot)[1]), rot)


def edge_mark(part):
    """The y (footprint frame) of a footprint's horizontal "PCB Edge" mark."""
    rows = [a[1] for a, b in footprints.load(part["footprint"]).marks if a[1] == b[1]]
    if len(rows) != 1:
        raise ValueError("%s: %s has %d edge marks" % (part["ref"], part["footprint"], len(rows)))
    return rows[0]


def place(parts):
    by = {p["ref"]: p for p in parts}
    put(by["U1"], PICO_AT, 0.0)
    pin = pico_pins(by["U1"])
    half = abs(footprints.load(by["U1"]["footprint"]).pads["2"][1]
               - footprints.load(by["U1"]["footprint"]).pads["1"][1]) / 2
    buf = by["U2"]
    level(buf, buf["choice"].pin("A"), BUFFER[0], pin["LED_GP"][1], BUFFER[1])
    y_out = footprints.pads_of(buf)[buf["choice"].pin("Y")][1]
    level(by["R1"], "1", LED_SERIES[0], y_out, LED_SERIES[1])
    level(by["R3"], "1", CLOCK_SERIES[0], pin["CLOCK_GP"][1] - half, CLOCK_SERIES[1])
    level(by["R2"], "1", LOAD_SERIES[0], pin["LOAD_GP"][1] + half, LOAD_SERIES[1])
    level(by["D1"], by["D1"]["choice"].pin("K"), VSYS_DIODE[0], pin["VSYS"][1], VSYS_DIODE[1])
    for ref, net, x in (("SW1", "UNDO", BUTTONS[0]), ("SW2", "MENU", BUTTONS[1])):
        level(by[ref], "1", x, pin[net][1], 0.0)
    for ref, (xy, rot) in FREE.items():
        put(by[ref], xy, rot)
    usb = by["J2"]
    put(usb, (USB_X, edge_mark(usb)), 0.0)
    q1 = by["Q1"]
    gate = footprints.pads_of(q1)[q1["choice"].pin("G")][1]
    level(by["R9"], "1", GATE_RESISTOR_X, gate, 0.0)
    w, h = SIZE
    holes = ((HOLE_INSET, HOLE_INSET), (w - HOLE_INSET, HOLE_INSET), (HOLE_INSET, h - HOLE_INSET),
             (w - HOLE_INSET, h - HOLE_INSET))
    for i, xy in enumerate(holes):
        put(by["H%d" % (i + 1)], xy, 0.0)
    return parts
