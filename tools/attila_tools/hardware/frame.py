"""Between a board's own frame (mm, y up, origin at its bottom-left: a module's
squares, the controller's edge) and KiCad's page (mm, y down): where the
generator puts things and the readers find them. `height` is the frame's
(boards.Board.height: a module's squares, the controller's outline).
"""

ORIGIN = (100.0, 100.0)  # KiCad position of the frame's top-left corner


def to_kicad(height, xy):
    """A board-frame point on KiCad's page."""
    return (round(ORIGIN[0] + xy[0], 4), round(ORIGIN[1] + height - xy[1], 4))


def to_board(height, xy):
    """A KiCad page point in the board's frame."""
    return (round(xy[0] - ORIGIN[0], 4), round(ORIGIN[1] + height - xy[1], 4))


def module_height(kind):
    """The frame's height of a module kind: its squares'."""
    from attila_tools.hardware import geometry as g

    return g.squares_outline(kind)[1]


def to_module(kind, xy):
    """A KiCad page point in a module's frame."""
    return to_board(module_height(kind), xy)
