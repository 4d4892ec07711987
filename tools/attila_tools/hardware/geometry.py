"""Where every part of a module board lies: the one source for the PCBs and the printed parts.

Millimetres, in a module's own frame before it is turned: origin at the
bottom-left corner of its squares, x to the right, y up (KiCad's y runs down:
the PCB generator flips it). A module's squares come from the firmware
(`attila.game.modules.KINDS`, local index k row by row from the bottom-left), so
square k here is the square whose switch the firmware reads on register
input D(k) and whose LED is link k of the module's chain.

Why the board is smaller than its squares: the trays that hold the boards
join edge to edge and keep the pitch across module edges only if each tray's
outline is exactly its squares; the tray's wall and the fit clearance then
take `EDGE` from every side of the board.
"""

from attila.game.modules import KINDS

PITCH = 40.0  # square pitch, centre to centre (the game's own squares)
EDGE = 1.5  # board edge to the squares' outline: tray wall + fit clearance
THICKNESS = 1.6  # board thickness (a fab's default)

# Parts on the top side of each square, relative to the square's centre, as
# they lie in the module's left column; the right column is their mirror image
# (x turned over, see `at`), so that every square's tracks leave towards the
# spine of tracks that runs up the middle of the module (both kinds are 2
# squares wide) and its register.
LED_AT = (0.0, 0.0)  # the WS2812B at the centre, under its baffle cell
# Its 100 nF lies along x beside the LED's 5 V pad (VDD: spine side, below
# the centre in the left column, above it in the right, where the LED turned
# half a turn puts it), its +5 V pad under VDD and its ground pad wired under
# the LED's body to the opposite corner's ground pad (VSS): see `cap_at`.
CAP_AT = (1.675, -3.5)
# The reed switch (Coto CT10, 15 mm between its pads) lies flat along y on
# the side away from the spine, its lower end beside the LED near the centre,
# running towards the square's edge (docs/pages/build/pieces.md: a magnet
# over an end, not the middle): its pads are at y = 1.0 and 16.1.
REED_AT = (-5.0, 8.56)
PULLUP_AT = (-8.5, 13.0)  # the switch's 10 kOhm pull-up, beside its upper end

# One 74HC165 a module, on the spine at the module's bottom edge (its body
# crosses the middle column wall's foot: the baffle leaves a notch there),
# relative to square 0's centre; its pins line up with the spine's tracks.
REGISTER_AT = (20.0, -10.0)
# The IN and OUT cable connectors (2x4 IDC box headers, 2.54 mm) stand on the
# bottom side, so the top stays flat under the baffle; relative to a square's
# centre (mirrored in the right column): IN under square 0, OUT under the
# module's last square (top right), both in the lower part of their square.
CONNECTOR_AT = (-8.0, -12.5)
# The SER pull-down sits by the OUT connector, relative to the last square.
SER_PULLDOWN_AT = (6.0, -12.5)
# The last LED's series resistor on its data-out lane, beside the LED (a
# source termination sits at the driver), relative to the last square.
SERIES_AT = (5.5, -1.65)
# The module's bulk capacitor where the 5 V comes in: on the top side by the
# IN connector's 5 V pin, relative to square 0.
BULK_AT = (-10.0, -5.725)
# A box header's courtyard (18.8 x 9.9 mm, lying along x) and the plug mated
# in it: no mounting hole's post or magnet comes within it (tests/hardware
# hold it to the footprint's courtyard).
CONNECTOR_KEEPOUT = (19.0, 10.0)
MOUNT_CLEAR = 4.0  # a hole's centre to a keep-out: its tray post (7 mm across) and 0.5 mm

MOUNT_DRILL = 3.2  # M3 clearance
MOUNT_INSET = 5.0  # corner holes from the squares' outline

# Tallest point of each part above the board's top (datasheets), for the
# baffle's clearances; connectors below the bottom.
HEIGHT = {
    "led": 1.6,  # WS2812B 5.0 x 5.0 x 1.6
    "cap": 0.9,  # 0603 / 0805 MLCC
    "resistor": 0.55,  # 0603
    "reed": 2.6,  # Coto CT10 body on its leads
    "register": 1.75,  # SOIC-16
}
CONNECTOR_DEPTH = 9.1  # 2x4 IDC box header below the bottom side


def size(kind):
    """(columns, rows) of a module kind, from the firmware's own table."""
    return KINDS[kind]


def squares(kind):
    """Number of squares of a module kind."""
    w, h = KINDS[kind]
    return w * h


def square_centre(kind, k):
    """Centre of local square k (row by row from the bottom-left), in mm."""
    w, h = KINDS[kind]
    if not 0 <= k < w * h:
        raise ValueError("module %s has no square %d" % (kind, k))
    return ((k % w + 0.5) * PITCH, (k // w + 0.5) * PITCH)


def squares_outline(kind):
    """(width, height) of the module's squares: what a tray covers."""
    w, h = KINDS[kind]
    return (w * PITCH, h * PITCH)


def board_outline(kind):
    """(x0, y0, x1, y1) of the module board: its squares less EDGE all round."""
    w, h = squares_outline(kind)
    return (EDGE, EDGE, w - EDGE, h - EDGE)


def mirrored(kind, k):
    """True for a square of the right column, whose parts are the left's mirror image."""
    w = KINDS[kind][0]
    return k % w == w - 1 and w > 1


def at(kind, k, offset):
    """A part's place: square k's centre plus an offset from the tables above
    (x turned over in the right column)."""
    x, y = square_centre(kind, k)
    dx = -offset[0] if mirrored(kind, k) else offset[0]
    return (x + dx, y + offset[1])


def cap_at(kind, k):
    """Square k's LED capacitor: CAP_AT, turned over in the right column where
    the LED's half turn puts its 5 V pad above the centre (see `at`)."""
    x, y = at(kind, k, CAP_AT)
    if mirrored(kind, k):
        y += -2 * CAP_AT[1]
    return (x, y)


def connectors(kind):
    """{"IN": (x, y), "OUT": (x, y)}: the cable connectors' centres (bottom side)."""
    return {"IN": at(kind, 0, CONNECTOR_AT), "OUT": at(kind, squares(kind) - 1, CONNECTOR_AT)}


def keepouts(kind):
    """(x0, y0, x1, y1) around each cable connector and its plug."""
    hx, hy = CONNECTOR_KEEPOUT[0] / 2, CONNECTOR_KEEPOUT[1] / 2
    return [(x - hx, y - hy, x + hx, y + hy) for x, y in connectors(kind).values()]


def mounting_holes(kind):
    """M3 holes: the four corners (inset) and, on the long sides, one at every
    row boundary (the middle column boundary carries the tracks' spine). A
    hole that would fall by a connector moves along the side to the nearer
    end of its keep-out, so that every hole keeps its tray post."""
    w, h = KINDS[kind]
    x1, y1 = w * PITCH, h * PITCH
    out = [(MOUNT_INSET, MOUNT_INSET), (x1 - MOUNT_INSET, MOUNT_INSET),
           (MOUNT_INSET, y1 - MOUNT_INSET), (x1 - MOUNT_INSET, y1 - MOUNT_INSET)]
    for j in range(1, h):
        out += [(MOUNT_INSET, j * PITCH), (x1 - MOUNT_INSET, j * PITCH)]
    for i, (x, y) in enumerate(out):
        for kx0, ky0, kx1, ky1 in keepouts(kind):
            c = MOUNT_CLEAR
            if kx0 - c < x < kx1 + c and ky0 - c < y < ky1 + c:
                ends = [e for e in (ky0 - c, ky1 + c)
                        if MOUNT_INSET <= e <= y1 - MOUNT_INSET]
                y = min(ends, key=lambda e: abs(e - y))
        out[i] = (x, y)
    return out
