"""Between a board's own frame (mm, y up, origin at its squares' bottom-left)
and KiCad's page (mm, y down): where the generator puts things and the
readers find them.
"""

from attila_tools.hardware import geometry as g

ORIGIN = (100.0, 100.0)  # KiCad position of the squares' top-left corner


def height(kind):
    if kind == "controller":
        from attila_tools.hardware.circuit import CONTROLLER_SIZE

        return CONTROLLER_SIZE[1]
    return g.squares_outline(kind)[1]


def to_kicad(kind, xy):
    """A module-frame point on KiCad's page."""
    return (round(ORIGIN[0] + xy[0], 4), round(ORIGIN[1] + height(kind) - xy[1], 4))


def to_module(kind, xy):
    """A KiCad page point in the module's frame."""
    return (round(xy[0] - ORIGIN[0], 4), round(ORIGIN[1] + height(kind) - xy[1], 4))
