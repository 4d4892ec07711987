"""A plain function fn(game) -> text as an opponent: a test's or a tool's, loaded only for them."""

from attila.errors import NotationError
from attila.game.notation import parse_placement, parse_turn
from attila.opponent.chooser import Chooser, turn


def parse_action(layout, text):
    """The action a text names ('@b1', 'b1-c3,d4'); NotationError if none."""
    if text.startswith("@"):
        return parse_placement(layout, text)
    a, b, c = parse_turn(layout, text)
    if c < 0:
        raise NotationError("turn %r: a whole turn names its scorch, like b1-c3,d4" % text)
    return turn(a, b, c)


class Answer(Chooser):
    """fn(game) -> text ('@b1', 'b1-c3,d4') as a Chooser that answers at once."""

    def __init__(self, fn):
        self.fn = fn
        self.action = -1

    def start(self, game, now_ms, level=None):
        self.action = parse_action(game.layout, self.fn(game))
        return True

    def result(self):
        return self.action
