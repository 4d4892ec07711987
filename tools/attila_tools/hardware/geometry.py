"""Where every part of a module board lies: the one source for the PCBs and the printed parts.

Millimetres, in a module's own frame before it is turned: origin at the
bottom-left corner of its squares, x to the right, y up (KiCad's y runs down:
the PCB generator flips it). A module's squares come from the firmware
(`attila.modules.KINDS`, local index k row by row from the bottom-left), so
square k here is the square whose switch the firmware reads on register
input D(k) and whose LED is link k of the module's chain.

Why the board is smaller than its squares: the trays that hold the boards
join edge to edge and keep the pitch across module edges only if each tray's
outline is exactly its squares; the tray's wall and the fit clearance then
take `EDGE` from every side of the board.
"""

from attila.modules import KINDS

PITCH = 40.0  # square pitch, centre to centre (the game's own squares)
EDGE = 1.5  # board edge to the squares' outline: tray wall + fit clearance
THICKNESS = 1.6  # board thickness (a fab's default)

# Parts on the top side of each square, relative to the square's centre.
LED_AT = (0.0, 0.0)  # the WS2812B at the centre, under its baffle cell
CAP_AT = (0.0, -5.5)  # its 100 nF, just below the LED
# The reed switch lies flat along x with one end near the centre, beside the
# LED (docs/pages/build/pieces.md: a magnet over an end, not the middle).
REED_AT = (11.0, 0.0)  # body centre: its inner end about 4 mm right of the LED
PULLUP_AT = (11.0, -5.0)  # the switch's 10 kOhm pull-up, under its body

# One 74HC165 a module, in square 0's upper-left quarter (clear of the cell's
# walls, the LED and the IN connector's pins), and its SER pull-down beside it.
REGISTER_AT = (-10.0, 9.0)  # relative to square 0's centre
SER_PULLDOWN_AT = (-10.0, 16.0)

# The IN and OUT cable connectors (2x4 IDC box headers, 2.54 mm) stand on the
# bottom side, so the top stays flat under the baffle; relative to a square's
# centre: IN under square 0, OUT under the module's last square.
CONNECTOR_AT = (0.0, -12.0)

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


def at(kind, k, offset):
    """A part's place: square k's centre plus an offset from the tables above."""
    x, y = square_centre(kind, k)
    return (x + offset[0], y + offset[1])


def connectors(kind):
    """{"IN": (x, y), "OUT": (x, y)}: the cable connectors' centres (bottom side)."""
    return {"IN": at(kind, 0, CONNECTOR_AT), "OUT": at(kind, squares(kind) - 1, CONNECTOR_AT)}


def mounting_holes(kind):
    """M3 holes: the four corners (inset) and every inner crossing of the squares."""
    w, h = KINDS[kind]
    x1, y1 = w * PITCH, h * PITCH
    out = [(MOUNT_INSET, MOUNT_INSET), (x1 - MOUNT_INSET, MOUNT_INSET),
           (MOUNT_INSET, y1 - MOUNT_INSET), (x1 - MOUNT_INSET, y1 - MOUNT_INSET)]
    for i in range(1, w):
        for j in range(1, h):
            out.append((i * PITCH, j * PITCH))
    return out
