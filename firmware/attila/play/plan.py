"""The action the board shows for the side to act: its own turn, or a hint.

The opponent is a Chooser (attila.opponent.chooser): a Planner, which
searches a slice at a time so the board's loop runs on while it thinks, or a
plain function fn(game) -> text ('@b1', 'b1-c3,d4') wrapped in an Answer,
which answers at once. The answer is checked against the rules; when it is
missing, broken or illegal the first legal action stands in, so the board
always shows a legal action. In the scorch step of a turn the plan is the
whole turn, the move already made included. A hint is the best action the
board knows, whatever the opponent's level: in setup from the opponent's
setup book (`opponent.book`, attila.opponent.book) when the book has the
position, otherwise the strong level's search (start()'s level); the
board's own actions are the opponent's to choose, at its level.
"""

from attila.errors import AttilaError
from attila.game.geometry import lowest
from attila.game.notation import format_turn, parse_placement, parse_turn
from attila.game.rules import MOVE, SCORCH, SETUP
from attila.opponent.chooser import Chooser
from attila.opponent.levels import STRONG


class Answer(Chooser):
    """A plain function fn(game) -> text as a Chooser that answers at once."""

    def __init__(self, fn):
        self.fn = fn
        self.text = ""

    def start(self, game, now_ms, level=None):
        self.text = self.fn(game)
        return True

    def result(self):
        return self.text


def first_action(game):
    """The trivial chooser: the first legal action as text ('@b1', 'b1-c3,d4')."""
    names = game.layout.names
    if game.phase == SETUP:
        legal = game.placements()
        return "@" + names[lowest(legal)] if legal else ""
    if game.phase == SCORCH:
        return game.describe(game.history[-1]) + "," + names[lowest(game.scorchable())]
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
    if c < 0:
        return -1, -1, -1
    if game.phase == SCORCH:
        # The move is made: the answer must be that move and a free square.
        made = game.describe(game.history[-1])
        ok = made == layout.names[a] + "-" + layout.names[b] and game.free() >> c & 1
        return (a, b, c) if ok else (-1, -1, -1)
    if game.phase != MOVE or not game.destinations(a) >> b & 1:
        return -1, -1, -1
    game.move(a, b)
    ok = game.free() >> c & 1
    game.undo()
    return (a, b, c) if ok else (-1, -1, -1)


class Plan:
    """One planned action: the knight on `src` (in setup: the placement on
    `src`) to `dst`, then a tile on `tile` (-1 where a field has no square).

    start() asks for the side to act; a Planner then needs step() once per
    loop tick until it answers (busy meanwhile); an Answer answers at once.
    opponent: a Chooser (or an object with its methods: attila.online's
    remote player), a function fn(game) -> text, or None (the first legal
    action).
    """

    def __init__(self, opponent=None):
        if opponent is not None and not hasattr(opponent, "result"):
            opponent = Answer(opponent)  # a function (a Chooser, or one like it, has result())
        self.opponent = opponent
        self._game = None  # the game under search
        self.busy = False  # a Planner is searching
        self.src = self.dst = self.tile = -1
        self.at = -1  # history length at the start of the planned turn; -1: none

    def ready(self):
        """True while there is an action to show (check fits() after a change)."""
        return self.at >= 0 and self.src >= 0

    def drop(self):
        """Forget the plan, and stop a search under way. Its squares go too:
        the last turn's knight square (scorched since, perhaps) must not read
        as the board's knight lifted while it thinks again."""
        self.cancel()
        self.at = -1
        self.src = self.dst = self.tile = -1

    def fits(self, game):
        """True while the plan still is for the game: its position, or its own
        move made and the scorch to come."""
        n = len(game.history)
        at = self.at
        if at < 0:
            return False
        if n == at:
            return game.phase == MOVE or game.phase == SETUP
        return (n == at + 1 and game.phase == SCORCH and game.lifted == self.dst
                and not game.occupied() >> self.src & 1)

    def start(self, game, now_ms, hint=False):
        """Ask for the side to act in `game` (for the player when `hint`); True
        when the plan is ready already."""
        self.drop()
        p = self.opponent
        text = ""
        if p is not None:
            book = p.book if hint and game.phase == SETUP else None
            if book is not None:
                square = book.placement(game)  # -1: not in it, or unreadable
                if square >= 0:
                    self._finish(game, "@" + game.layout.names[square])
                    return True
            try:
                if not p.start(game, now_ms, STRONG if hint else None):
                    self._game = game
                    self.busy = True
                    return False
                text = p.result()
            except Exception:  # a broken opponent must not stop the game
                text = ""
        self._finish(game, text)
        return True

    def step(self, now_ms):
        """One slice of the search; True when the plan became ready."""
        p = self.opponent
        if not self.busy or p is None:
            return False
        try:
            if not p.step(now_ms):
                return False
            text = p.result()
        except Exception:
            text = ""
        game = self._game
        self.busy = False
        self._game = None
        self._finish(game, text)
        return True

    def cancel(self):
        """Stop a search under way."""
        p = self.opponent
        if self.busy and p is not None:
            self.busy = False
            self._game = None
            try:
                p.cancel()
            except Exception:
                pass

    def _finish(self, game, text):
        a, b, c = check(game, text)
        if a < 0:
            a, b, c = check(game, first_action(game))
        self.src, self.dst, self.tile = a, b, c
        n = len(game.history)
        self.at = n - 1 if game.phase == SCORCH else n
