"""The action the board shows for the side to act: its own turn, or a hint.

The opponent (an attila.opponent.chooser.Chooser: the Planner, a slice of
its search a loop step) answers with an action as squares; the plan keeps
it only when the rules allow it, else the first legal action, so the board
always shows a legal action. A plain function fn(game) -> text is wrapped
in an attila.opponent.answer.Answer: text only at the edges.
"""

from attila.game.geometry import lowest
from attila.game.rules import MOVE, OVER, SCORCH, SETUP
from attila.opponent.chooser import TURN, Chooser, squares, turn
from attila.opponent.levels import STRONG


def first_action(game):
    """The trivial chooser: the first legal action (-1: none)."""
    if game.phase == SETUP:
        legal = game.placements()
        return lowest(legal) if legal else -1
    if game.phase == SCORCH:
        last = game.history[-1]
        return turn(last >> 8 & 0xFF, last & 0xFF, lowest(game.scorchable()))
    if game.phase != MOVE or not game.movable():
        return -1
    a = lowest(game.movable())
    b = lowest(game.destinations(a))
    return turn(a, b, lowest(game.free() & ~(1 << b) | 1 << a))


def legal(game, action):
    """True when `action` is legal for the side to act in `game` (in its
    scorch step: the whole turn, the move already made)."""
    if action < 0 or (action < TURN) != (game.phase == SETUP):
        return False
    a, b, c = squares(action)
    if game.phase == SETUP:
        return bool(game.placements() >> a & 1)
    if game.phase == SCORCH:
        last = game.history[-1]
        return a == last >> 8 & 0xFF and b == last & 0xFF and bool(game.free() >> c & 1)
    if game.phase != MOVE or not game.destinations(a) >> b & 1:
        return False
    return bool((game.free() & ~(1 << b) | 1 << a) >> c & 1)


class Plan:
    """One planned action: the knight on `src` (in setup: the placement on
    `src`) to `dst`, then a tile on `tile` (-1 where a field has no square).

    start() asks for the side to act; a search under way then needs step()
    once a loop step (`searching`); the decision is shown from the step
    after its last slice (`found` meanwhile). opponent: a Chooser (the
    Planner, or attila.online.remote.Remote: the other board's player), a
    function fn(game) -> text, or None (the first legal action).
    """

    def __init__(self, opponent=None):
        if opponent is not None and not isinstance(opponent, Chooser):
            from attila.opponent.answer import Answer  # a test's or a tool's: loaded only then

            opponent = Answer(opponent)
        self.opponent = opponent
        self.hinting = False  # a hint is asked for: the action is the player's
        self.searching = False  # the opponent is deciding, a slice a loop step
        self.found = False  # decided in the last step: to be shown in the next
        self.src = self.dst = self.tile = -1
        self.turn_start = -1  # the game's history length where the planned turn starts; -1: none
        self.note = ""  # why the opponent's card was given up, for the decision just made
        self._game = None  # the game under search
        self._rested = False  # the last step painted instead of searching

    def ready(self):
        """True while there is an action to show (check fits() after a change)."""
        return self.turn_start >= 0 and self.src >= 0

    def told(self):
        """True while the action can be put in words: ready, and no longer
        `found` (the board says it whole in the next step, before the status
        line's steps: attila.play.words.decision)."""
        return not self.found and self.turn_start >= 0 and self.src >= 0

    def hint(self):
        """A hint is asked for: the next action planned is the player's."""
        self.hinting = True

    def forget(self):
        """Forget the plan and the hint asked for."""
        self.drop()
        self.hinting = False

    def wanted(self, game, computer):
        """True while an action to show is wanted for `game` (the board plays
        the side `computer`, -1: none) and not yet there."""
        if (not self.hinting and computer < 0) or game.phase == OVER or self.turn_start >= 0:
            return False
        return self.hinting or game.side == computer

    def drop(self):
        """Forget the plan, and stop a search under way. Its squares go too:
        the last turn's knight square (scorched since, perhaps) must not read
        as the board's knight lifted while it thinks again."""
        self.cancel()
        self.turn_start = -1
        self.src = self.dst = self.tile = -1

    def fits(self, game):
        """True while the plan still is for the game: its position, or its own
        move made and the scorch to come."""
        n = len(game.history)
        at = self.turn_start
        if at < 0:
            return False
        if n == at:
            return game.phase == MOVE or game.phase == SETUP
        return (n == at + 1 and game.phase == SCORCH and game.lifted == self.dst
                and not game.occupied() >> self.src & 1)

    def start(self, game, now_ms, hint=False):
        """Ask for the side to act in `game` (for the player when `hint`: the
        best the opponent knows, at STRONG); True when the plan is ready already."""
        self.drop()
        p = self.opponent
        action = -1
        if p is not None:
            try:
                if not p.start(game, now_ms, STRONG if hint else None):
                    self._game = game
                    self.searching = True
                    return False
                action = p.result()
            except Exception:  # a broken opponent must not stop the game
                action = -1
        self._finish(game, action)
        return True

    def step(self, now_ms, paint=False):
        """The plan's part of one loop step: a slice of the search under way,
        except in a step that paints the frame (`paint`; never two steps
        running, so a slow loop searches too); True in the step after its
        last slice: the decision is shown now. Searching, painting and the
        status line each fit a loop step, not all three."""
        if self.found:
            self.found = False
            return True
        if not self.searching:
            return False
        if paint and not self._rested:
            self._rested = True
            return False
        self._rested = False
        p = self.opponent
        try:
            if not p.step(now_ms):
                return False
            action = p.result()
        except Exception:
            action = -1
        game = self._game
        self.searching = False
        self._game = None
        self._finish(game, action)
        self.found = True
        return False

    def cancel(self):
        """Stop a search under way."""
        p = self.opponent
        if self.searching and p is not None:
            self.searching = False
            self._game = None
            try:
                p.cancel()
            except Exception:
                pass

    def _finish(self, game, action):
        if not legal(game, action):
            action = first_action(game)
        a = b = c = -1
        if legal(game, action):
            a, b, c = squares(action)
        self.src, self.dst, self.tile = a, b, c
        n = len(game.history)
        self.turn_start = n - 1 if game.phase == SCORCH else n
        self.note = self.opponent.take_note() if self.opponent is not None else ""
