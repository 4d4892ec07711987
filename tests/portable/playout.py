"""A whole game played out, the lowest choice every time: a long, fixed game
for the tests and benches of the saves (its save text's size is what they
need, not its play). Portable: tests/portable run it under MicroPython."""

from attila.game.geometry import lowest
from attila.game.rules import MOVE, OVER, SETUP


def play_lowest(g):
    """Play `g` (an attila.game.rules.Game) to its end; returns it."""
    while g.phase != OVER:
        if g.phase == SETUP:
            g.place(lowest(g.placements()))
        elif g.phase == MOVE:
            start = lowest(g.movable())
            g.move(start, lowest(g.destinations(start)))
        else:
            g.scorch(lowest(g.scorchable()))
    return g
