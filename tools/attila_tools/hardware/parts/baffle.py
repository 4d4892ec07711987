"""The light baffle: a grid on the board's top, one cell a square around its
LED, so each square's light stays in its square of the top plate.

Walls between squares are CELL_WALL thick, centred on the squares' edges
and running to the board's edge; at the module's outline the tray's own wall
closes the cell, so an outer cell is as wide as an inner one (within 0.2 mm)
and the parts near the board's edge keep their clearance. The tray's wall
holds the walls' ends in place. Underneath, reliefs clear the heads of the
screws that hold the board, and a notch the 74HC165 under the middle wall.
"""

from build123d import Align, Box, Cylinder, Pos

from attila_tools.hardware import catalogue, geometry
from attila_tools.hardware.parts import dims

MIN = (Align.MIN, Align.MIN, Align.MIN)


def cell(kind, k):
    """(x0, y0, x1, y1) of what the baffle leaves open over square k (past the
    board's edge on the module's outline: the tray's wall closes it there)."""
    w, h = geometry.size(kind)
    p = geometry.PITCH
    i, j = k % w, k // w
    outer = -1.0
    inner = dims.CELL_WALL / 2
    return (i * p + (outer if i == 0 else inner), j * p + (outer if j == 0 else inner),
            (i + 1) * p - (outer if i == w - 1 else inner),
            (j + 1) * p - (outer if j == h - 1 else inner))


def baffle(kind, shift=None):
    """The baffle of a module kind, in the module's frame, its underside at z = 0.

    shift: {square: (dx, dy)} moves those cells (a wrong part for the tests).
    """
    x0, y0, x1, y1 = geometry.board_outline(kind)
    part = Pos(x0, y0, 0) * Box(x1 - x0, y1 - y0, dims.BAFFLE_H, align=MIN)
    for k in range(geometry.squares(kind)):
        cx0, cy0, cx1, cy1 = cell(kind, k)
        dx, dy = (shift or {}).get(k, (0.0, 0.0))
        part -= Pos(cx0 + dx, cy0 + dy, -1) * Box(
            cx1 - cx0, cy1 - cy0, dims.BAFFLE_H + 2, align=MIN)
    rx, ry = geometry.register_at(kind)
    c = dims.CLEARANCE + 0.1
    bw, bh = dims.REGISTER_BODY[0] + 2 * c, dims.REGISTER_BODY[1] + 2 * c
    part -= Pos(rx - bw / 2, ry - bh / 2, -1) * Box(
        bw, bh, catalogue.REGISTER.height + c + 1, align=MIN)
    relief_h = dims.SCREW_HEAD_H + dims.RELIEF
    for x, y in geometry.mounting_holes(kind):
        part -= Pos(x, y, relief_h / 2 - 0.5) * Cylinder(
            dims.SCREW_HEAD_D / 2 + dims.RELIEF, relief_h + 1)
    return part
