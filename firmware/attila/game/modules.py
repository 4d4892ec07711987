"""Layouts made of modules: the game's four, or one custom DIY piece.

A module is a small rectangle of squares with its own LEDs and sensors. Its
squares have local indices in the module's own frame (row by row from its
bottom-left corner, before turning); the layout places each module at a
square and turns it, which tells which local index lies on which square.
"""

from attila.errors import LayoutError
from attila.game.geometry import bounded, square_name

# Module kinds: name -> (width, height) before turning.
KINDS = {"2x2": (2, 2), "2x3": (2, 3)}
# The game's set: two small and two large modules.
GAME_SET = ("2x2", "2x2", "2x3", "2x3")
TURNS = (0, 90, 180, 270)


def local_places(width, height, turn):
    """(file, rank) offsets of local indices 0..n-1 after a clockwise turn."""
    out = []
    for i in range(width * height):
        x, y = i % width, i // width
        if turn == 0:
            p = (x, y)
        elif turn == 90:
            p = (y, width - 1 - x)
        elif turn == 180:
            p = (width - 1 - x, height - 1 - y)
        else:
            p = (height - 1 - y, x)
        out.append(p)
    return out


class Module:
    """One module of a layout: kind, place in the chain, and its squares."""

    def __init__(self, number, kind, file, rank, turn, places):
        self.number = number  # 1-based place in the cable chain
        self.kind = kind
        self.file = file
        self.rank = rank
        self.turn = turn
        self.places = places  # (file, rank) of local index 0..n-1

    def describe(self):
        return "module %d (%s at %s)" % (
            self.number,
            self.kind,
            square_name(self.file, self.rank),
        )


def place_module(number, kind, file, rank, turn):
    """A module of the game's set placed with its lower-left corner at (file, rank)."""
    if kind not in KINDS:
        raise LayoutError(
            "module %d: kind %r is not one of %s"
            % (number, kind, ", ".join(sorted(KINDS)))
        )
    if turn not in TURNS:
        raise LayoutError(
            "module %d: turn %r must be 0, 90, 180 or 270" % (number, turn)
        )
    w, h = KINDS[kind]
    places = [(file + x, rank + y) for x, y in local_places(w, h, turn)]
    return Module(number, kind, file, rank, turn, places)


def _touch(a, b):
    """'side' if two modules share an edge, 'corner' if only a corner, else ''."""
    seen = ""
    bset = set(b.places)
    for f, r in a.places:
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if (f + df, r + dr) in bset:
                return "side"
        for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            if (f + df, r + dr) in bset:
                seen = "corner"
    return seen


def compose(modules, name="", custom=False):
    """Check the modules against the rules and return (Layout, modules).

    The game's boards need exactly its four modules, without overlap, joined
    side to side into one piece. A custom DIY board skips the set check.
    """
    owner = {}  # type: dict
    for m in modules:
        for p in m.places:
            if p in owner:
                raise LayoutError(
                    "%s overlaps %s at %s"
                    % (m.describe(), owner[p].describe(), square_name(p[0], p[1]))
                )
            owner[p] = m
    if not custom:
        kinds = sorted(m.kind for m in modules)
        if tuple(kinds) != GAME_SET:
            raise LayoutError(
                "modules are %s; the game's set is two 2x2 and two 2x3 "
                "(declare a DIY board with \"custom\": true)"
                % (", ".join(kinds) or "none")
            )
    # Every module must reach the first one through shared edges.
    joined = [modules[0]] if modules else []
    rest = list(modules[1:])
    grew = True
    while rest and grew:
        grew = False
        for m in list(rest):
            if any(_touch(m, j) == "side" for j in joined):
                joined.append(m)
                rest.remove(m)
                grew = True
    for m in rest:
        corner = any(_touch(m, j) == "corner" for j in joined)
        raise LayoutError(
            "%s %s" % (
                m.describe(),
                "touches the others only at a corner"
                if corner
                else "does not touch the others",
            )
        )
    layout = bounded(owner, name)
    return layout, modules


def chain(layout, modules):
    """Square index of each LED/sensor in cable order (module 1 local 0, 1, ...).

    Modules are cabled one after another in the order of their numbers, and
    each carries its LEDs and sensors in local index order.
    """
    out = bytearray()
    for m in sorted(modules, key=lambda m: m.number):
        for f, r in m.places:
            out.append(layout.at(f, r))
    return bytes(out)
