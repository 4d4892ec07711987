"""Where each module's tray lies in a layout file (boards/*.json): the same
placing as the firmware's (attila.game.layoutfile), in millimetres."""

from build123d import Location, Pos, Rot

from attila.game.layoutfile import load
from attila_tools.hardware import geometry


def module_location(kind, file, rank, turn):
    """The Location that takes a module's own frame to the layout's (mm).

    A module at (file, rank) turned clockwise by `turn` covers the squares
    from that corner up and to the right, as attila.game.modules.place_module has it.
    """
    w, h = geometry.squares_outline(kind)
    corner = {0: (0.0, 0.0), 90: (0.0, w), 180: (w, h), 270: (h, 0.0)}[turn]
    p = geometry.PITCH
    return Pos(file * p + corner[0], rank * p + corner[1], 0) * Rot(0, 0, -turn)


def placements(path):
    """[(kind, Location)] for every module of a layout file, in chain order."""
    _layout, modules, _tiles = load(path)
    return [(m.kind, module_location(m.kind, m.file, m.rank, m.turn)) for m in modules]


def to_layout(loc, point):
    """A point (x, y) of a module's frame, in the layout's frame."""
    v = (loc * Location((point[0], point[1], 0))).position
    return (v.X, v.Y)
