"""What a change of the game sets off: kept at once, saved and planned once the squares settle.

A Settling is the part of an attila.play.controller.Controller that keeps, saves
and plans: the controller owns it, tells it of every change of the game
(changed()) and runs its work() in every tick; it reads the controller's
public state (game, mode, plan, hinting) and reports through the
controller's trouble(), touch() and sound().

Every change of the game as the table shows it is kept (attila.saves.keeper: a
journal line) before the board shows it: in the input call that made it,
or in the tick; a power cut after that loses nothing. Once the squares have
been still for CALM_MS after a change, the keeper settles (a whole save now
and then, a finished game archived) and the board's action (or a hint) is
searched (attila.play.plan), a slice per tick.
"""

from attila.compat import const
from attila.saves.keeper import Keeper
from attila.play.reading import CORRECT, CUE_TURN, PLAY
from attila.game.rules import OVER as ENDED  # the game's phase; OVER is a mode
from attila.ticks import ticks_diff

CALM_MS = const(500)  # squares still this long after a change: save, plan


class Settling:
    """The game of a controller kept, saved and planned."""

    def __init__(self, controller, store):
        self.c = controller
        self.keeper = Keeper(store) if store is not None else None
        self.unsettled = False  # the game changed since the squares last settled
        self.unkept = False  # the game changed since the keeper last kept it
        self.took = False  # a button was taken in this loop step (no save at rest in it)
        self.save_failed = False  # the controller's error is the last save's failure
        self._rested = False  # the last tick painted instead of thinking
        self._found = False  # the search ended in the last tick: show it now
        self._still = 0  # time of the last change of the squares or the game

    def restore(self, layout):
        """The saved game (None: none); a damaged save is the controller's trouble."""
        if self.keeper is None:
            return None
        game, error = self.keeper.load(layout)
        if error:
            self.c.trouble(error)
        return game

    def stir(self, now):
        """The squares changed: the calm starts again."""
        self._still = now

    def busy(self):
        """True while work waits for the squares to settle (a save, a plan), a
        search is under way or its decision waits for the next tick to be shown."""
        return self.unsettled or self.c.plan.busy or self._found or self.wanted()

    def changed(self):
        """After every change of the game: keep or drop the plan. The save and a
        new plan wait until the squares settle (work)."""
        c = self.c
        if not c.plan.fits(c.game):
            c.plan.drop()
            c.hinting = False
        self.unsettled = True
        self.unkept = self.keeper is not None
        self._still = c.now
        if c.coach is not None:
            c.coach.after(c.game, c.now, c.computer)

    # -- the plan -----------------------------------------------------------------

    def wanted(self):
        """True while an action to show is wanted and not yet there."""
        c = self.c
        if not c.hinting and c.computer < 0:
            return False
        mode = c.mode
        game = c.game
        if (mode != PLAY and mode != CORRECT) or game.phase == ENDED or c.plan.at >= 0:
            return False
        return c.hinting or game.side == c.computer

    def work(self, now, paint=False):
        """What waits for the squares to settle: once they have been still for
        CALM_MS after a change, save the game, then start the plan. A search
        under way goes on, one slice a tick, except in a tick that paints the
        frame (`paint`; never two ticks running, so a slow loop thinks too).
        A decision is shown from the tick after its last slice: searching,
        painting and the status line each fit a loop step, not all three."""
        # (self.c.plan each time, not a local: 11 slots of locals and stack at
        # most keep this frame off MicroPython's heap, see Board.step)
        calm = -1
        took = self.took
        self.took = False
        if self.unsettled:
            calm = ticks_diff(now, self._still) >= CALM_MS
            if calm and not took:  # (a step that took a button shows it first)
                self.unsettled = False
                self._save()
        if self.c.plan.busy:
            if paint and not self._rested:
                self._rested = True
            else:
                self._rested = False
                self._found = self.c.plan.step(now)
        elif self._found:
            self._found = False
            self._planned()
        elif self.wanted():
            if calm < 0:
                calm = ticks_diff(now, self._still) >= CALM_MS
            if calm and self._start(now):
                self._planned()

    def _start(self, now):
        """Start the plan (a hint when the side to act is not the board's);
        True when it is ready already."""
        c = self.c
        return c.plan.start(c.game, now, not c.own())

    def _planned(self):
        """The plan is ready: show it (and why the card was given up, once)."""
        c = self.c
        opponent = c.plan.opponent
        note = opponent.note if opponent is not None else ""
        if note:
            opponent.note = ""
            c.trouble(note)
        c.touch()
        if c.own() and c.plan.ready():
            c.sound(CUE_TURN)
            c.decided += 1  # said once as a whole (attila.play.words.decision)

    # -- the save -----------------------------------------------------------------

    def _later(self):
        """The take-backs still to do by hand, as actions redone (oldest first)."""
        later = []  # type: list  # (a comprehension's closure would allocate on every call)
        for step in self.c.steps:
            later.insert(0, step[3])
        return later

    def keep(self):
        """Keep the game as the table shows it, now (before it is shown)."""
        self.unkept = False
        keeper = self.keeper
        if keeper is not None:  # (always: changed() sets unkept only with a keeper)
            self._saved(keeper.keep(self.c.game, self._later()))

    def _save(self):
        """The squares settled: the keeper's whole save, archive of a finished
        game; one write a loop step (the next one, still settled, goes on)."""
        keeper = self.keeper
        if keeper is not None:
            error = keeper.settle(self.c.game, self._later())
            # The same failure again (a whole save tried again after the
            # action's own failed): shown already, one sign for an action.
            if not (error and self.save_failed and error == self.c.error):
                self._saved(error)
            if keeper.busy:
                self.unsettled = True

    def _saved(self, error):
        """After a write of the keeper: its trouble, or saving works again."""
        if error:
            self.c.trouble(error)
            self.save_failed = True
        elif self.save_failed:
            self.save_failed = False
            self.c.saving_works()

    def archive(self, game):
        """A finished game cleared before the squares settled: kept now."""
        if self.keeper is not None and game.phase == ENDED:
            self._saved(self.keeper.archive(game))

    def forget(self):
        """The saved game declined: gone from the store."""
        if self.keeper is not None:
            self.keeper.clear()
