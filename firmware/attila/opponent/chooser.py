"""What the board's plan asks of an opponent, and the action it answers with.

An action is one int, packed as the search packs it: a placement is its
square; a turn is TURN | a << 12 | b << 6 | c (the knight on a jumps to b,
then c is scorched); -1 is none. Text only at the edges: action_text().
"""

from attila.compat import const
from attila.game.notation import format_turn

TURN = const(0x40000)  # 1 << 18: a turn, not a placement
_SQUARE = const(63)


def turn(a, b, c):
    """The action of a turn: the knight on a to b, then a tile on c."""
    return TURN | a << 12 | b << 6 | c


def squares(action):
    """(a, b, c) of an action: a placement's square is a (b and c -1)."""
    if action < TURN:
        return action, -1, -1
    return action >> 12 & _SQUARE, action >> 6 & _SQUARE, action & _SQUARE


def action_text(layout, action):
    """'@b1' or 'b1-c3,d4' ('' for no action): the notation of the edges."""
    if action < 0:
        return ""
    a, b, c = squares(action)
    if b < 0:
        return "@" + layout.names[a]
    return format_turn(layout, a, b, c)


class Chooser:
    """An opponent, with defaults that answer nothing (attila.opponent.planner.Planner
    is the real one; attila.opponent.answer.Answer wraps a function fn(game) -> text):

        start(game, now_ms, level)  begin a decision for the side to act (level
                                    None: its own); True when decided already
        step(now_ms) -> bool        one slice of the decision: True once decided
        result() -> action          the decision (-1: none)
        cancel()                    drop a decision under way
        take_note() -> text         why its card was given up, once ('' if not)
        who                         how the status line names the side it plays
                                    ('%s': the side's name)
        words() -> text             what it adds to the status line ('': nothing)
        kept(game) -> int           history entries UNDO may not take back (0: any);
                                    online, the actions both boards have
        refused()                   UNDO was refused for kept(): say why (words())
    """

    who = "The board plays the %s"

    def start(self, game, now_ms, level=None):
        return True

    def step(self, now_ms):
        return True

    def result(self):
        return -1

    def cancel(self):
        pass

    def take_note(self):
        return ""

    def words(self):
        return ""

    def kept(self, game):
        return 0

    def refused(self):
        pass
