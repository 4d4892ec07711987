"""The boards the generator makes, each as one object: its placed parts, its
outline and frame, its router and its silkscreen's words. The one place where
a module board and the controller differ.

    b = boards.Board("module-2x4")      # at geometry.PITCH
    b.parts, b.outline, b.height        # boards.parts(name): the placed parts alone
    b.route()                           # route.Route: tracks, vias, pours
"""

from attila_tools.hardware import (circuit, circuit_controller, geometry as g, place,
                                   place_controller)
from attila_tools.hardware.route import Route

GAME = ("controller", "module-2x2", "module-2x3")  # what boards/pcb holds


def parts(name):
    """The placed parts of a board by its name ("module-2x4", "controller")."""
    kind = circuit.board_kind(name)
    if kind is None:
        if name != "controller":
            raise KeyError("no board %r (module-CxR or controller)" % name)
        return place_controller.place(circuit_controller.controller())
    return place.module(circuit.module(kind), kind)


# The game's boards: name -> its placed parts.
BOARDS = {name: (lambda name=name: parts(name)) for name in GAME}


class Board:
    def __init__(self, name):
        self.name = name
        self.kind = circuit.board_kind(name)  # a module's kind, None for the controller
        self.parts = parts(name)
        if self.kind:
            self.outline = g.board_outline(self.kind)
            self.height = g.squares_outline(self.kind)[1]
        else:
            w, h = place_controller.SIZE
            self.outline = (0.0, 0.0, w, h)
            self.height = h

    def route(self):
        """Its tracks, vias and pours."""
        from attila_tools.hardware import route_controller, route_spine

        r = Route(self.parts)
        if self.kind:
            return route_spine.route(r, self.kind)
        return route_controller.route(r, self.outline)

    def title(self):
        """Its name as the silkscreen and the schematic print it."""
        words = self.name.replace("-", " ")
        if self.kind and g.PITCH != 40.0:
            words += " (%g mm squares)" % g.PITCH
        return words


def module_names(kinds):
    return [circuit.module_name(k) for k in kinds]
