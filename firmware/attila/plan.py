"""The action the board shows for the side to act: its own turn, or a hint.

The opponent (attila.opponent, or any callable fn(game) -> text such as
'@b1' or 'b1-c3,d4') is asked for it. The answer is checked against the
rules; when it is missing, broken or illegal the first legal action stands
in, so the board always shows a legal action. In the scorch step of a turn
the plan is the whole turn, the move already made included.
"""

from attila.errors import AttilaError
from attila.geometry import lowest
from attila.notation import format_turn, parse_placement, parse_turn
from attila.rules import MOVE, SCORCH, SETUP


def first_action(game):
    """The trivial chooser: the first legal action as text ('@b1', 'b1-c3,d4')."""
    names = game.layout.names
    if game.phase == SETUP:
        legal = game.placements()
        return "@" + names[lowest(legal)] if legal else ""
    if game.phase != MOVE or not game.movable():
        return ""
    a = lowest(game.movable())
    b = lowest(game.destinations(a))
    free = game.free() & ~(1 << b) | 1 << a
    return format_turn(game.layout, a, b, lowest(free))


def check(game, text):
    """(a, b, c) of a legal action text for the game, (-1, -1, -1) if not."""
    layout = game.layout
    if not text:
        return -1, -1, -1
    try:
        if game.phase == SETUP:
            a = parse_placement(layout, text)
            if game.placements() >> a & 1:
                return a, -1, -1
            return -1, -1, -1
        a, b, c = parse_turn(layout, text)
    except AttilaError:
        return -1, -1, -1
    if not game.destinations(a) >> b & 1:
        return -1, -1, -1
    game.move(a, b)
    ok = c >= 0 and game.free() >> c & 1
    game.undo()
    return (a, b, c) if ok else (-1, -1, -1)


class Plan:
    """One planned action: knight a (or the placement a) to b, then scorch c."""

    def __init__(self, opponent=None):
        self.opponent = opponent
        self.a = self.b = self.c = -1
        self.at = -1  # history length at the start of the planned turn; -1: none

    def ready(self):
        """True while there is a plan (check fits() after the game changed)."""
        return self.at >= 0

    def drop(self):
        self.at = -1

    def fits(self, game):
        """True while the plan still is for the game: its position, or its own
        move made and the scorch to come."""
        n = len(game.history)
        at = self.at
        if at < 0:
            return False
        if n == at:
            return game.phase == MOVE
        return (n == at + 1 and game.phase == SCORCH and game.lifted == self.b
                and not game.occupied() >> self.a & 1)

    def make(self, game):
        """Ask the opponent (or the trivial chooser) for the side to act."""
        moved = -1
        if game.phase == SCORCH:
            # Decide from the start of the turn, then keep what still fits.
            moved = game.lifted
            entry = game.undo()
            start = entry >> 8 & 0xFF
        text = ""
        if self.opponent is not None:
            try:
                text = self.opponent(game)
            except Exception:  # a broken opponent must not stop the game
                text = ""
        a, b, c = check(game, text)
        if a < 0:
            a, b, c = check(game, first_action(game))
        if moved >= 0:
            game.move(start, moved)
            if (a, b) != (start, moved) or not game.free() >> c & 1:
                a, b = start, moved
                c = lowest(game.free())
        self.a, self.b, self.c = a, b, c
        # No legal action at all: the game is over.
        self.at = -1 if a < 0 else len(game.history) - (1 if moved >= 0 else 0)
