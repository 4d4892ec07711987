"""The controller's case: a box the board is screwed into, a lid that
presses into its top, and a key for each button.

The box's wall opens in front of every connector that reaches the board's
edge, on the side its plug comes from (the Pico's USB socket, the microSD
slot, the USB-C 5 V input, the module cable); the lid has a grille over
the piezo and a hole over each button, where a printed key, held by its
flange under the lid, reaches down to the switch. Modelled where they sit,
in the board's frame (x, y as on the board, z = 0 under the case's floor);
the lid and keys print turned over.
"""

from build123d import Align, Box, Cone, Cylinder, Pos

from attila_tools.hardware.parts import dims

MIN = (Align.MIN, Align.MIN, Align.MIN)

SIDE = 2.0  # the case's walls and floor
GAP = 0.5  # board to wall
UNDER = 5.0  # board bottom above the floor: through-hole leads
HEADROOM = 1.0  # above the tallest part (a header counts with its plug)
PLUG = 4.0
LID = 2.0
LIP = 3.0  # the lid's lip inside the walls
LIP_FIT = 0.2
LIP_WALL = 1.2
PORT = 1.5  # all round a connector's mouth in the wall
CABLE_W = 16.0  # the module cable's ribbon and plug
BUTTON_HOLE = 7.0
KEY_FIT = 0.3  # key to its hole, all round
KEY_GAP = 0.3  # key above its switch's plunger
KEY_FLANGE = BUTTON_HOLE + 3.0  # under the lid, a cone: it prints standing, no support
KEY_OUT = 2.0  # a key stands this far out of the lid
GRILLE_HOLE = 1.6
GRILLE_PITCH = 2.4


def outline(lay):
    """(x0, y0, width, depth) of the case around the board."""
    bx, by, bw, bd, _t = lay["board"]
    return bx - GAP - SIDE, by - GAP - SIDE, bw + 2 * (GAP + SIDE), bd + 2 * (GAP + SIDE)


def board_z():
    """The board's bottom above z = 0."""
    return SIDE + UNDER


def above(lay):
    """Board top to the lid's underside: the tallest part, a header with its plug."""
    tallest = [lay[name][4] for name in ("usb", "sd", "piezo", "power") if name in lay]
    tallest += [b[4] for b in lay["buttons"]]
    if lay.get("chain_side", "top") == "top":
        tallest.append(lay["chain"][4] + PLUG)
    return max(tallest) + HEADROOM


def height(lay):
    """The box's height: its walls' top, where the lid's top plate rests."""
    return board_z() + lay["board"][4] + above(lay)


def _nearest_side(lay, item):
    bx, by, bw, bd, _t = lay["board"]
    x, y, iw, idp, _h = item
    dist = {"left": x - bx, "right": bx + bw - (x + iw), "bottom": y - by,
            "top": by + bd - (y + idp)}
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
    for name in lay["ports"]:
        x, y, iw, idp, ih = lay[name]
        # the side the plug comes from (its footprint's turn), else the nearest wall
        side = lay.get("entry", {}).get(name) or _nearest_side(lay, lay[name])
        across = iw if side in ("bottom", "top") else idp
        centre = x + iw / 2 if side in ("bottom", "top") else y + idp / 2
        if name == "chain":
            # the ribbon leaves its plug and the case beside the board, to the lid
            z0, z1 = (SIDE, height(lay) + 1) if lay.get("chain_side", "top") == "top" \
                else (SIDE, board_z())
            out.append((name, side, centre, max(CABLE_W, across + 2 * PORT), z0, z1))
        else:
            out.append((name, side, centre, across + 2 * PORT, top - PORT, top + ih + PORT))
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
    for _name, side, centre, width, _z0, z1 in ports(lay):
        if z1 > h:  # the cable's notch runs up the wall, through the lid's lip
            part -= _lip_cut(lay, side, centre, width)
    for x, y, bw, bd, _h in lay["buttons"]:
        part -= Pos(x + bw / 2, y + bd / 2, h + LID / 2) * Cylinder(BUTTON_HOLE / 2, LID + 2)
    px, py, pw, pd, _h = lay["piezo"]
    for i in range(-2, 3):
        for j in range(-2, 3):
            if i * i + j * j <= 5:
                part -= Pos(px + pw / 2 + GRILLE_PITCH * i, py + pd / 2 + GRILLE_PITCH * j,
                            h + LID / 2) * Cylinder(GRILLE_HOLE / 2, LID + 2)
    return part


def _lip_cut(lay, side, centre, width):
    x0, y0, w, d = outline(lay)
    h = height(lay)
    reach = SIDE + LIP_FIT + LIP_WALL + 1
    if side in ("left", "right"):
        xs = x0 - 1 if side == "left" else x0 + w - reach
        return Pos(xs, centre - width / 2, h - LIP - 1) * Box(reach + 1, width, LIP + 1, align=MIN)
    ys = y0 - 1 if side == "bottom" else y0 + d - reach
    return Pos(centre - width / 2, ys, h - LIP - 1) * Box(width, reach + 1, LIP + 1, align=MIN)


def key(lay, button=0):
    """A button's key, in place: its flange under the lid, its top KEY_OUT above it."""
    x, y, bw, bd, bh = lay["buttons"][button]
    cx, cy = x + bw / 2, y + bd / 2
    h = height(lay)
    bottom = board_z() + lay["board"][4] + bh + KEY_GAP
    shaft = h + LID + KEY_OUT - bottom
    r = BUTTON_HOLE / 2 - KEY_FIT
    part = Pos(cx, cy, bottom + shaft / 2) * Cylinder(r, shaft)
    rise = KEY_FLANGE / 2 - r
    part += Pos(cx, cy, h - 0.2 - rise / 2) * Cone(r, KEY_FLANGE / 2, rise)
    return part


MOUTH = 2.0  # a socket's mouth at most this far inside the board's edge it faces


def entry_problems(lay, part):
    """Each socket with a direction of entry (lay["entry"]): its mouth at the
    board's edge it faces, and the case's wall open in front of it, across
    the mouth and the plug's height, along the plug's own path."""
    out = []
    bx, by, bw, bd, t = lay["board"]
    x0, y0, w, d = outline(lay)
    top = board_z() + t
    for name, side in sorted(lay.get("entry", {}).items()):
        x, y, iw, idp, ih = lay[name]
        inside = {"left": x - bx, "right": bx + bw - (x + iw), "bottom": y - by,
                  "top": by + bd - (y + idp)}[side]
        if inside > MOUTH:
            out.append("%s: the plug enters from the %s, %.1f mm inside the board's edge"
                       % (name, side, inside))
        z0, z1 = top + 0.3, top + ih - 0.3
        path = {"left": (x0 - 1, y + 0.5, x + 1, y + idp - 0.5),
                "right": (x + iw - 1, y + 0.5, x0 + w + 1, y + idp - 0.5),
                "bottom": (x + 0.5, y0 - 1, x + iw - 0.5, y + 1),
                "top": (x + 0.5, y + idp - 1, x + iw - 0.5, y0 + d + 1)}[side]
        common = part & (Pos(path[0], path[1], z0) * Box(path[2] - path[0], path[3] - path[1],
                                                          z1 - z0, align=MIN))
        if common and sum(s.volume for s in common.solids()) > 1e-3:
            out.append("%s: the plug enters from the %s, the case's %s wall is closed in front "
                       "of it" % (name, side, side))
    return out
