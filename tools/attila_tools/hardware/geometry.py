"""A module board's shape: its squares, outline, cable connectors, mounting
holes and the spine of tracks up its middle. The one source for the boards
(place.py lays the parts from it) and the printed parts (trays, baffles).

Millimetres, in a module's own frame before it is turned: origin at the
bottom-left corner of its squares, x to the right, y up (KiCad's y runs down:
frame.py turns it). A module's kind names its size as the firmware does,
columns x rows ("2x3": 2 squares wide, 3 high); its squares are numbered row
by row from the bottom-left (`attila.game.modules`), so square k here is the
square whose switch the firmware reads on register input D(k) and whose LED
is link k of the module's chain.

The pitch (the squares' size) is the game's 40 mm unless `attila hardware
--pitch` makes boards for other pieces (use_pitch).

Why the board is smaller than its squares: the trays that hold the boards
join edge to edge and keep the pitch across module edges only if each tray's
outline is exactly its squares; the tray's wall and the fit clearance then
take `EDGE` from every side of the board.
"""

import re

from attila.game.modules import KINDS

from attila_tools.errors import ToolError

PITCH = 40.0  # square pitch, centre to centre: the game's squares (use_pitch for others)
PITCHES = (30.0, 60.0)  # what the boards are laid out for
EDGE = 1.5  # board edge to the squares' outline: tray wall + fit clearance
THICKNESS = 1.6  # board thickness (a fab's default)
MOST_SQUARES = 8  # one 74HC165 a module reads eight switches

# The IN and OUT cable connectors (2x4 IDC box headers, 2.54 mm) stand on the
# bottom side, so the top stays flat under the baffle. Their courtyard (18.8 x
# 9.9 mm, lying along x) and the plug mated in it keep out mounting holes'
# posts and magnets (tests/hardware hold it to the footprint's courtyard).
CONNECTOR_KEEPOUT = (19.0, 10.0)
CONNECTOR_INSET = 1.0  # the keep-out to the board's edge
# IN lies in the bottom-left corner; OUT under the module's last square, at
# the board's outer edge, in the square's lower part (its switch runs up the
# upper part): its centre this far below the square's centre (in a one-row
# module, in the bottom-right corner, level with IN).
CONNECTOR_BELOW = 12.5
CONNECTOR_DEPTH = 9.1  # 2x4 IDC box header below the bottom side

MOUNT_DRILL = 3.2  # M3 clearance
MOUNT_INSET = 5.0  # corner holes from the squares' outline
MOUNT_CLEAR = 4.0  # a hole's centre to a keep-out: its tray post (7 mm across) and 0.5 mm

# The spine: one 74HC165 a module at the foot of a run of tracks on the bottom
# side (route_spine.py). Its centre is this far above the board's bottom edge
# (room for the six lanes of the bottom strip under its pins); the spine's
# lines stand SPINE_FIRST, SPINE_FIRST + LINE, ... either side of its middle.
REGISTER_ABOVE_EDGE = 8.75
SPINE_FIRST = 6.0
LINE = 1.0
LANE = 1.0  # parallel lanes' pitch on the top side: a power via and a power track pass between


class SizeError(ToolError):
    """A pitch or module size the boards cannot be laid out for (the message says why)."""


def use_pitch(mm):
    """Lay the boards out for squares of `mm` (30 to 60 mm)."""
    global PITCH
    mm = float(mm)
    if not PITCHES[0] <= mm <= PITCHES[1]:
        raise SizeError("pitch %g mm: the boards are laid out for %g to %g mm squares"
                        % ((mm,) + PITCHES))
    PITCH = mm


def size(kind):
    """(columns, rows) of a module kind ("2x3" -> (2, 3)); SizeError for one the
    boards cannot be: one register reads eight squares, and the spine runs up
    the middle of at most two columns (a wider module is a taller one turned)."""
    m = re.fullmatch(r"(\d)x(\d)", kind or "")
    if not m:
        raise SizeError("module %r: a size is columns x rows, such as 2x3" % (kind,))
    w, h = int(m.group(1)), int(m.group(2))
    if kind in KINDS and KINDS[kind] != (w, h):
        raise SizeError("module %s: the firmware says %s" % (kind, KINDS[kind]))
    if w * h > MOST_SQUARES:
        raise SizeError("module %s: %d squares; one 74HC165 reads at most %d"
                        % (kind, w * h, MOST_SQUARES))
    if w != 2:
        hint = (" (make it %dx%d and turn it a quarter in the layout)" % (h, w)
                if h == 2 else "")
        raise SizeError("module %s: the board runs its tracks up the middle of two columns%s"
                        % (kind, hint))
    return (w, h)


def squares(kind):
    """Number of squares of a module kind."""
    w, h = size(kind)
    return w * h


def square_centre(kind, k):
    """Centre of local square k (row by row from the bottom-left), in mm."""
    w, h = size(kind)
    if not 0 <= k < w * h:
        raise ValueError("module %s has no square %d" % (kind, k))
    return ((k % w + 0.5) * PITCH, (k // w + 0.5) * PITCH)


def squares_outline(kind):
    """(width, height) of the module's squares: what a tray covers."""
    w, h = size(kind)
    return (w * PITCH, h * PITCH)


def board_outline(kind):
    """(x0, y0, x1, y1) of the module board: its squares less EDGE all round."""
    w, h = squares_outline(kind)
    return (EDGE, EDGE, w - EDGE, h - EDGE)


def mirrored(kind, k):
    """True for a square of the right column, whose parts are the left's mirror
    image (its tracks leave to the left, towards the spine)."""
    w = size(kind)[0]
    return w == 2 and k % 2 == 1


def toward_spine(kind, k):
    """+1 where square k's spine lies to its right, -1 to its left."""
    return -1 if mirrored(kind, k) else 1


def connectors(kind):
    """{"IN": (x, y), "OUT": (x, y)}: the cable connectors' centres (bottom side)."""
    w, h = squares_outline(kind)
    kx, ky = CONNECTOR_KEEPOUT
    x_in = EDGE + CONNECTOR_INSET + kx / 2
    last = squares(kind) - 1
    x_out = w - x_in if mirrored(kind, last) else x_in
    y_in = EDGE + CONNECTOR_INSET + ky / 2
    y_out = square_centre(kind, last)[1] - CONNECTOR_BELOW if size(kind)[1] > 1 else y_in
    return {"IN": (x_in, y_in), "OUT": (x_out, y_out)}


def keepouts(kind):
    """(x0, y0, x1, y1) around each cable connector and its plug."""
    hx, hy = CONNECTOR_KEEPOUT[0] / 2, CONNECTOR_KEEPOUT[1] / 2
    return [(x - hx, y - hy, x + hx, y + hy) for x, y in connectors(kind).values()]


def register_at(kind):
    """The 74HC165's centre: the spine's foot."""
    return (spine_middle(kind), EDGE + REGISTER_ABOVE_EDGE)


def spine_middle(kind):
    """x of the spine's middle: between the module's two columns."""
    size(kind)
    return PITCH


def spine_lines(kind):
    """(left, right): the spine's lines either side of the register, nearest
    first (their x: spine_x): the LEDs' 5 V, the chain's links (within a row,
    left to right; up from a row's right square to the next row's left), the
    switches of squares 4..7 (down past the register to its lower pin row),
    LOAD and CLOCK from IN to OUT. The register's own pin columns carry
    3.3 V, D0..D3 and SER (route_spine.py)."""
    n = squares(kind)
    left = ["+5V", "LINK_ROW"]
    right = ["D%d" % k for k in range(n - 1, 3, -1)] + ["LINK_UP", "LOAD", "CLOCK"]
    return left, right


def spine_x(kind, line):
    """x of a spine line by its name (see spine_lines)."""
    left, right = spine_lines(kind)
    mid = spine_middle(kind)
    if line in left:
        return mid - SPINE_FIRST - left.index(line) * LINE
    if line in right:
        return mid + SPINE_FIRST + right.index(line) * LINE
    raise KeyError("module %s has no spine line %s" % (kind, line))


def mounting_holes(kind):
    """M3 holes: the four corners (inset) and, on the long sides, one at every
    row boundary (the middle column boundary carries the tracks' spine). A
    hole that would fall by a connector moves along the side to the nearer
    end of its keep-out, so that every hole keeps its tray post."""
    w, h = size(kind)
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
