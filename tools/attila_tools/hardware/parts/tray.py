"""The tray that holds a module board, its baffle and its top plate, and
locks edge to edge to its neighbours with magnets.

Why magnets, two to a square's edge: a layout turns modules by quarter turns
and lets any side touch any side at any whole-square offset, so every square
edge on a tray's outline must lock to every other. Going round the outline
anticlockwise, each square edge carries a magnet MAGNET_AT from its start
with its north pole out and one MAGNET_AT from its end with its south pole
out. Two trays that touch run along their shared edge in opposite
directions, so each magnet meets one of the other kind: north faces south on
every square of contact, for every turn and offset. Pins or dovetails
would stick out of the layout's outline and need the trays slid together
in one direction; magnets leave each tray's outline exactly its squares
(the pitch holds across module edges) and let a player rearrange the
modules by hand.
"""

from build123d import Align, Box, Cylinder, Pos, Rot

from attila_tools.hardware import geometry
from attila_tools.hardware.parts import dims

MIN = (Align.MIN, Align.MIN, Align.MIN)


def outline_edges(kind):
    """Square edges on the module's outline, anticlockwise:
    [(start (x, y), direction (dx, dy), outward normal (nx, ny))]."""
    w, h = geometry.size(kind)
    p = geometry.PITCH
    out = []
    out += [((i * p, 0.0), (1, 0), (0, -1)) for i in range(w)]
    out += [((w * p, j * p), (0, 1), (1, 0)) for j in range(h)]
    out += [(((w - i) * p, h * p), (-1, 0), (0, 1)) for i in range(w)]
    out += [((0.0, (h - j) * p), (0, -1), (-1, 0)) for j in range(h)]
    return out


def magnets(kind):
    """[(x, y, (nx, ny), pole)]: each magnet's centre on the tray's outer face,
    its outward normal and the pole that faces out (+1 north, -1 south).

    A magnet whose block would meet a cable connector's plug is left out: the
    magnet it would have met then faces plastic, which neither holds nor
    repels, and the square edge keeps its other magnet.
    """
    out = []
    for (x, y), (dx, dy), n in outline_edges(kind):
        for t, pole in ((dims.MAGNET_AT, 1), (geometry.PITCH - dims.MAGNET_AT, -1)):
            mx, my = x + dx * t, y + dy * t
            if not any(_near(_block_box(mx, my, n), k) for k in keepouts(kind)):
                out.append((mx, my, n, pole))
    return out


def keepouts(kind):
    """(x0, y0, x1, y1) around each cable connector and its plug."""
    return geometry.keepouts(kind)


def posts(kind):
    """[(x, y)]: a post under every mounting hole (geometry keeps the holes
    clear of the connectors' plugs)."""
    return list(geometry.mounting_holes(kind))


def _block_box(x, y, n):
    """(x0, y0, x1, y1) of a magnet's block, inside the tray's face at (x, y)."""
    along, inward = dims.BLOCK_L / 2, dims.BLOCK_W
    if n[0]:
        return (x - inward if n[0] > 0 else x, y - along, x if n[0] > 0 else x + inward, y + along)
    return (x - along, y - inward if n[1] > 0 else y, x + along, y if n[1] > 0 else y + inward)


def _near(a, b, gap=dims.CLEARANCE):
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def notches(kind):
    """[(x, y, (nx, ny))]: the cable notches, mid-edge of every square on the outline."""
    half = geometry.PITCH / 2
    return [(x + dx * half, y + dy * half, n) for (x, y), (dx, dy), n in outline_edges(kind)]


def _along(n):
    """The turn (degrees about z) that takes +y to the outward normal n."""
    return {(0, -1): 180, (1, 0): -90, (0, 1): 0, (-1, 0): 90}[tuple(n)]


def shortened(part, kind, short):
    """A tray made `short` mm too short along x (a wrong part for the tests):
    its right half moved left."""
    w, h = geometry.squares_outline(kind)
    cut = Pos(w / 2, -1, -1) * Box(w, h + 2, dims.TOP_Z + 2, align=MIN)
    return (part - cut) + Pos(-short, 0, 0) * (part & cut)


def tray(kind):
    """The tray of a module kind, in the module's frame (z = 0 on the table)."""
    w, h = geometry.squares_outline(kind)
    top = dims.TOP_Z
    part = Box(w, h, top, align=MIN)
    part -= Pos(dims.WALL, dims.WALL, dims.FLOOR) * Box(
        w - 2 * dims.WALL, h - 2 * dims.WALL, top, align=MIN)
    post_h = dims.BOARD_Z - dims.FLOOR
    for x, y in posts(kind):
        part += Pos(x, y, dims.FLOOR + post_h / 2) * Cylinder(dims.POST_D / 2, post_h)
    for x, y, n, _pole in magnets(kind):
        # the block is drawn for the +y side, then turned to face n
        block = Pos(0, -dims.BLOCK_W / 2, dims.BLOCK_H / 2) * Box(
            dims.BLOCK_L, dims.BLOCK_W, dims.BLOCK_H)
        part += Pos(x, y, 0) * Rot(0, 0, _along(n)) * block
    for x, y in posts(kind):
        part -= Pos(x, y, dims.BOARD_Z / 2 + 0.5) * Cylinder(dims.PILOT_D / 2, dims.BOARD_Z)
    depth = dims.MAGNET_T + dims.MAGNET_FIT
    pocket = Pos(0, -depth / 2 + 0.01, dims.MAGNET_Z) * Rot(90, 0, 0) * Cylinder(
        dims.MAGNET_D / 2 + dims.MAGNET_FIT, depth + 0.02)
    for x, y, n, _pole in magnets(kind):
        part -= Pos(x, y, 0) * Rot(0, 0, _along(n)) * pocket
    notch = Pos(0, 0, dims.FLOOR + dims.NOTCH_H / 2) * Box(
        dims.NOTCH_W, 4 * dims.WALL, dims.NOTCH_H)
    for x, y, n in notches(kind):
        part -= Pos(x, y, 0) * Rot(0, 0, _along(n)) * notch
    return part


def plate_size(kind):
    """(width, height) of the top plate: it fits inside the tray's wall."""
    w, h = geometry.squares_outline(kind)
    inset = 2 * (dims.WALL + dims.PLATE_GAP)
    return (w - inset, h - inset)
