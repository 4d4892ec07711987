"""The controller's case: a box the board is screwed into, and a lid that
presses into its top, with openings in the wall for the Pico's USB socket,
the microSD slot and the module cable, holes in the lid over the two buttons
and a grille over the piezo.

Both are modelled where they sit, in the board's frame (x, y as on the
board, z = 0 under the case's floor); print the lid turned over.
"""

from build123d import Align, Box, Cylinder, Pos

from attila_tools.hardware.parts import dims

MIN = (Align.MIN, Align.MIN, Align.MIN)

SIDE = 2.0  # the case's walls and floor
GAP = 0.5  # board to wall
UNDER = 5.0  # board bottom above the floor: through-hole leads
ABOVE = 11.0  # board top to the lid's underside: the piezo, the buttons' bodies
LID = 2.0
LIP = 3.0  # the lid's lip inside the walls
LIP_FIT = 0.2
LIP_WALL = 1.2
PORT = 1.5  # all round a connector's mouth in the wall
CABLE_SLOT = (16.0, 4.0)  # width, height: the module cable's ribbon, under the board
BUTTON_HOLE = 7.5  # over a tall tact switch's plunger, a fingertip reaches it
GRILLE_HOLE = 1.6
GRILLE_PITCH = 2.4


def outline(lay):
    """(x0, y0, width, depth) of the case around the board."""
    bx, by, bw, bd, _t = lay["board"]
    return bx - GAP - SIDE, by - GAP - SIDE, bw + 2 * (GAP + SIDE), bd + 2 * (GAP + SIDE)


def board_z():
    """The board's bottom above z = 0."""
    return SIDE + UNDER


def height(lay):
    """The box's height: its walls' top, where the lid's top plate rests."""
    return board_z() + lay["board"][4] + ABOVE


def _nearest_side(lay, item):
    x0, y0, w, d = outline(lay)
    x, y, iw, idp, _h = item
    dist = {"left": x - x0, "right": x0 + w - (x + iw),
            "bottom": y - y0, "top": y0 + d - (y + idp)}
    return min(dist, key=dist.get)


def _wall_cut(lay, side, centre, width, z0, z1):
    """A rectangular cut through one wall, centred along it at `centre`."""
    x0, y0, w, d = outline(lay)
    if side in ("left", "right"):
        xs = x0 - 1 if side == "left" else x0 + w - SIDE - 1
        return Pos(xs, centre - width / 2, z0) * Box(SIDE + 2, width, z1 - z0, align=MIN)
    ys = y0 - 1 if side == "bottom" else y0 + d - SIDE - 1
    return Pos(centre - width / 2, ys, z0) * Box(width, SIDE + 2, z1 - z0, align=MIN)


def ports(lay):
    """[(name, side, centre along the wall, width, z0, z1)]: the wall's openings."""
    top = board_z() + lay["board"][4]
    out = []
    for name in ("usb", "sd"):
        x, y, iw, idp, ih = lay[name]
        side = _nearest_side(lay, lay[name])
        across = iw if side in ("bottom", "top") else idp
        centre = x + iw / 2 if side in ("bottom", "top") else y + idp / 2
        out.append((name, side, centre, across + 2 * PORT, top - PORT, top + ih + PORT))
    x, y, iw, idp, _h = lay["chain"]
    side = _nearest_side(lay, lay["chain"])
    centre = x + iw / 2 if side in ("bottom", "top") else y + idp / 2
    out.append(("chain", side, centre, CABLE_SLOT[0], SIDE, SIDE + CABLE_SLOT[1]))
    return out


def box(lay):
    """The case's box."""
    x0, y0, w, d = outline(lay)
    h = height(lay)
    part = Pos(x0, y0, 0) * Box(w, d, h, align=MIN)
    part -= Pos(x0 + SIDE, y0 + SIDE, SIDE) * Box(w - 2 * SIDE, d - 2 * SIDE, h, align=MIN)
    for x, y in lay["holes"]:
        part += Pos(x, y, SIDE + UNDER / 2) * Cylinder(dims.POST_D / 2, UNDER)
        part -= Pos(x, y, SIDE + UNDER / 2 + 0.5) * Cylinder(dims.PILOT_D / 2, UNDER)
    for _name, side, centre, width, z0, z1 in ports(lay):
        part -= _wall_cut(lay, side, centre, width, z0, z1)
    return part


def lid(lay):
    """The case's lid, in place on the box: its plate on the walls' top, its lip inside."""
    x0, y0, w, d = outline(lay)
    h = height(lay)
    part = Pos(x0, y0, h) * Box(w, d, LID, align=MIN)
    inset = SIDE + LIP_FIT
    part += Pos(x0 + inset, y0 + inset, h - LIP) * Box(w - 2 * inset, d - 2 * inset, LIP,
                                                       align=MIN)
    inset += LIP_WALL
    part -= Pos(x0 + inset, y0 + inset, h - LIP - 1) * Box(w - 2 * inset, d - 2 * inset, LIP + 1,
                                                           align=MIN)
    for x, y, bw, bd, _h in lay["buttons"]:
        part -= Pos(x + bw / 2, y + bd / 2, h + LID / 2) * Cylinder(BUTTON_HOLE / 2, LID + 2)
    px, py, pw, pd, _h = lay["piezo"]
    for i in range(-2, 3):
        for j in range(-2, 3):
            if i * i + j * j <= 5:
                part -= Pos(px + pw / 2 + GRILLE_PITCH * i, py + pd / 2 + GRILLE_PITCH * j,
                            h + LID / 2) * Cylinder(GRILLE_HOLE / 2, LID + 2)
    return part
