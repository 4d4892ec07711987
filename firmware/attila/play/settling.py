"""What waits for the squares to settle: the game kept, saved, and the board's action planned.

Every change of the game as the table shows it is kept at once (a journal
line, attila.saves.keeper) before the board shows it. Once the squares have
been still for CALM_MS the whole save follows, then the plan's search, a
slice a loop step (attila.play.plan). A write returns what came of it
(FAILED, RECOVERED); the controller shows it (attila.play.controller).
"""

from attila.compat import const
from attila.saves.keeper import Keeper
from attila.ticks import ticks_diff

CALM_MS = const(500)  # squares still this long after a change: save, plan
FAILED = const(1)  # what came of a write: it failed (`error` says why) ...
RECOVERED = const(2)  # ... or it went through after one failed
OWN = const(0)  # what think() is asked to plan: the board's own action ...
HINT = const(1)  # ... or a hint (-1: nothing)


class Settling:
    """The keeper of one board's game, its calm clock and its plan's pace."""

    def __init__(self, store, plan):
        self.keeper = Keeper(store) if store is not None else None
        self.plan = plan
        self.unsettled = False  # the game changed since the squares last settled
        self.keep_due = False  # the game changed since the keeper last kept it
        self.error = ""  # why the last write failed
        self._failing = False  # the last write failed, and no other trouble was shown since
        self._still = 0  # time of the last change of the squares or the game

    def restore(self, layout):
        """(the saved game or None, what went wrong or "")."""
        if self.keeper is None:
            return None, ""
        return self.keeper.load(layout)

    def squares_changed(self, now):
        """The squares changed: the calm starts again."""
        self._still = now

    def game_changed(self, now):
        """The game changed: it is to be kept, and saved once the squares settle."""
        self.unsettled = True
        self.keep_due = self.keeper is not None
        self._still = now

    def busy(self, ask):
        """True while a save or a plan (`ask`: OWN, HINT, -1) waits for the
        squares, or a search is under way or to be shown."""
        plan = self.plan
        return self.unsettled or plan.searching or plan.found or ask >= 0

    def save(self, now, game, steps):
        """Once the squares have been still for CALM_MS: the keeper's next
        write at rest (a whole save, the journal's folder anew, a finished
        game archived), one a loop step, unsettled until the last; what came
        of it. The same failure again (a whole save tried again after the
        action's own failed) is shown already."""
        keeper = self.keeper
        if not self.calm(now):
            return 0
        self.unsettled = False
        if keeper is None:
            return 0
        error = keeper.settle(game, _later(game, steps))
        if keeper.busy:
            self.unsettled = True
        if error and self._failing and error == self.error:
            return 0
        return self._written(error)

    def think(self, now, paint, game, ask):
        """The plan's part of a loop step: a slice of the search under way,
        or, once the squares are still, the plan asked for (`ask`: OWN or
        HINT); True when its decision is to be shown now."""
        plan = self.plan
        if plan.searching or plan.found:
            return plan.step(now, paint)
        return ask >= 0 and self.calm(now) and plan.start(game, now, ask)

    def calm(self, now):
        """True once the squares have been still for CALM_MS."""
        return ticks_diff(now, self._still) >= CALM_MS

    def keep(self, game, steps):
        """Keep the game as the table shows it (UNDO's take-back `steps` still
        to do by hand redone), now; what came of it."""
        self.keep_due = False
        if self.keeper is None:  # (never: game_changed() makes it due only with a keeper)
            return 0
        return self._written(self.keeper.keep(game, _later(game, steps)))

    def archive(self, game):
        """A finished game cleared before the squares settled: kept now; what came of it."""
        if self.keeper is None:
            return 0
        return self._written(self.keeper.archive(game))

    def forget(self):
        """The saved game declined: gone from the store."""
        if self.keeper is not None:
            self.keeper.clear()

    def troubled(self):
        """Another trouble is shown: writes that go through again leave it."""
        self._failing = False

    def _written(self, error):
        if error:
            self.error = error
            self._failing = True
            return FAILED
        if self._failing:
            self._failing = False
            return RECOVERED
        return 0


def _later(game, steps):
    """The take-back steps still to do by hand, as actions redone (text, oldest first)."""
    later = []  # type: list  # (a comprehension's closure would allocate on every call)
    for step in steps:
        later.insert(0, game.describe(step[3]))
    return later
