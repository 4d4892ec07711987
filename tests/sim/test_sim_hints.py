"""Following the board's hints (MENU) against its strong level: the side that should win wins.

The simulator as a flashed 4x5 board: its setup book and opening table
(boards/solved), the board playing the Romans at the strong level and
placing first. The player, the Huns, presses MENU at every turn of theirs
and plays the hint. The Huns placing second win 4x5 with perfect play, and
the hints place them from the book; in play the hints are the strong
level's own turns. The search alone throws the win at the Huns' second turn
of play (action 10, 11 free squares: b2-d3,b1, where b2-d3,a3 is the only
winning turn); the opening table's corrections hold that position, since
it lies where the strong level meets its own hints
(attila_tools.solve.corrections' lines).
"""

import os

from attila.game.notation import log
from attila.game.rules import SETUP
from attila.opponent import book as books
from attila.opponent.opening import Opening
from attila_sim import actions
from attila_sim.rig import Rig

import simkit

OPENING = os.path.join(simkit.ROOT, "boards", "solved", "4x5.opening")
# The game as the hints and the board play it (the retrograde tables: the
# Huns win from the setup on, and keep it at every turn).
GAME = ("@c2 @b3 @d3 @b2 @b1 @a2 b1-c3,d2 b3-d4,e3 d3-c1,b4 b2-d3,a3 c2-e1,b2 d4-b3,c2 "
        "c3-b1,c3 b3-d4,a1 c1-e2,c1 d4-b3,d4")


def _hands(status):
    """The line of text that moves a piece as the board's status line says."""
    what = status.split(": ", 1)[1]
    square = what.split()[-1]
    if what.startswith("lift"):
        return "lift " + square
    if what.startswith("put a knight"):
        return "put %s R" % square
    if what.startswith("put a tile"):
        return "put %s x" % square
    return "put " + square


def test_the_hints_as_the_huns_beat_the_strong_level():
    layout, modules, tiles = simkit.load()
    book = books.open(simkit.BOOK_4X5, layout)
    with open(OPENING, "rb") as f:
        rig = Rig(layout, modules, tiles, computer=0, level=3, book=book,
                  card=Opening(f, layout, OPENING))
        c = rig.controller
        for _ in range(300):
            rig.think()
            status = rig.status()
            if rig.mode_name() == "over":
                break
            if status.startswith("The board plays the Romans: "):
                rig.do(actions.parse(layout, _hands(status)))
                continue
            if not (c.plan.hinting and c.plan.ready()):
                rig.do(actions.parse(layout, "menu"))
                continue
            names = layout.names
            plan = c.plan
            if c.game.phase == SETUP:
                line = "put %s H" % names[plan.src]
                rig.do(actions.parse(layout, line))
            else:
                for line in ("lift " + names[plan.src], "put " + names[plan.dst],
                             "put %s x" % names[plan.tile]):
                    rig.do(actions.parse(layout, line))
    book.close()
    assert rig.mode_name() == "over"
    assert c.game.winner == 1, log(c.game)
    assert log(c.game) == GAME
