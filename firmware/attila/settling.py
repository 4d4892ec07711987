"""What a change of the game sets off: kept at once, saved and planned once the squares settle.

Settling is the middle of attila.controller.Controller: attila.reading's
Reading (below it) follows the pieces and calls _changed() after every
change of the game and _new_game() once the board is empty for a new one;
the Controller (above it) adds the inputs, the buttons and the LEDs.

Every change of the game as the table shows it is kept (attila.keeper: a
journal line) before the board shows it: in the input call that made it,
or in the tick; a power cut after that loses nothing. Once the squares have
been still for CALM_MS after a change, the keeper settles (a whole save now
and then, a finished game archived) and the board's action (or a hint) is
searched (attila.plan), a slice per tick. trouble(text) reports a problem
the player must see; `said` grows whenever the status line may have changed.
"""

from attila.compat import const
from attila.keeper import Keeper
from attila.palette import TROUBLE_MS
from attila.plan import Plan
from attila.reading import CORRECT, CUE_ERROR, CUE_TURN, PLAY, RESUME, Reading
from attila.rules import OVER as ENDED  # the game's phase; OVER is a mode
from attila.rules import Game
from attila.ticks import ticks_diff

CALM_MS = const(500)  # squares still this long after a change: save, plan


class Settling(Reading):
    """The game followed, kept, saved and planned (no inputs, no LEDs)."""

    def __init__(self, layout, store, first, tiles, computer, opponent, coach):
        Reading.__init__(self, layout, Game(layout, first, tiles), computer, Plan(opponent))
        self.store = store
        self.coach = coach  # an attila.coach.Coach (the player's turns judged), or None
        self.first = first
        self.tiles = tiles
        self.now = 0
        self.error = ""  # the last trouble(), for status()
        self.said = 0  # grows whenever the status line may have changed
        self._dirty = True  # the frame must be painted again
        self._save_failed = False  # self.error is the last save's failure
        self._sign = 0  # the trouble sign: 1 to start on the next tick, 2 shown
        self._sign_t = 0  # ... since then
        self._sign_ms = TROUBLE_MS  # ... for this long
        self.missing = 0  # a module of the sensor chain not answering: the sign stays
        self._hint = False  # a hint is asked for (shown once the plan is ready)
        self._rested = False  # the last tick painted instead of thinking
        self._found = False  # the search ended in the last tick: show it now
        self._still = 0  # time of the last change of the squares or the game
        self._unkept = False  # the game changed since the keeper last kept it
        self._took = False  # a button was taken in this loop step (no save at rest in it)
        self._keeper = None
        if store is not None:
            self._keeper = keeper = Keeper(store)
            game, error = keeper.load(layout)
            if error:
                self.trouble(error)
            if game is not None:
                self.game = game
                self.mode = RESUME

    def busy(self):
        """True while work waits for the squares to settle (a save, a plan), a
        search is under way or its decision waits for the next tick to be shown."""
        return self._unsettled or self.plan.busy or self._found or self._wants_plan()

    def thinking(self):
        """True while the board works out its own action or a hint (PLAY)."""
        return self.mode == PLAY and self._wants_plan()

    def trouble(self, text):
        """A problem the player must see: saving is off, a save failed, a
        damaged save was kept aside. The status line carries `text`, the LEDs
        show the trouble sign for TROUBLE_MS, the cue is CUE_ERROR."""
        self.error = text
        self._save_failed = False
        self._sign = 1  # from the next tick on
        self._sign_ms = TROUBLE_MS
        self._cue(CUE_ERROR)
        self.said += 1
        self._dirty = True

    def _changed(self):
        """After every change of the game: keep or drop the plan. The save and a
        new plan wait until the squares settle (_work)."""
        if not self.plan.fits(self.game):
            self.plan.drop()
            self._hint = False
        self._unsettled = True
        self._unkept = self._keeper is not None
        self._still = self.now
        if self.coach is not None:
            self.coach.after(self.game, self.now, self.computer)

    # -- the plan -----------------------------------------------------------------

    def _wants_plan(self):
        """True while an action to show is wanted and not yet there."""
        if not self._hint and self.computer < 0:
            return False
        mode = self.mode
        game = self.game
        if (mode != PLAY and mode != CORRECT) or game.phase == ENDED or self.plan.at >= 0:
            return False
        return self._hint or game.side == self.computer

    def _work(self, now, paint=False):
        """What waits for the squares to settle: once they have been still for
        CALM_MS after a change, save the game, then start the plan. A search
        under way goes on, one slice a tick, except in a tick that paints the
        frame (`paint`; never two ticks running, so a slow loop thinks too).
        A decision is shown from the tick after its last slice: searching,
        painting and the status line each fit a loop step, not all three."""
        # (self.plan each time, not a local: 11 slots of locals and stack at
        # most keep this frame off MicroPython's heap, see Board.step)
        calm = -1
        took = self._took
        self._took = False
        if self._unsettled:
            calm = ticks_diff(now, self._still) >= CALM_MS
            if calm and not took:  # (a step that took a button shows it first)
                self._unsettled = False
                self._save()
        if self.plan.busy:
            if paint and not self._rested:
                self._rested = True
            else:
                self._rested = False
                self._found = self.plan.step(now)
        elif self._found:
            self._found = False
            self._planned()
        elif self._wants_plan():
            if calm < 0:
                calm = ticks_diff(now, self._still) >= CALM_MS
            if calm and self.plan.start(self.game, now, not self.own()):  # not its own: a hint
                self._planned()

    def _planned(self):
        """The plan is ready: show it (and why the card was given up, once)."""
        opponent = self.plan.opponent
        note = getattr(opponent, "note", "")
        if note:
            opponent.note = ""
            self.trouble(note)
        self._dirty = True
        self.said += 1
        if self.own() and self.plan.ready():
            self._cue(CUE_TURN)

    # -- the save -----------------------------------------------------------------

    def _later(self):
        """The take-backs still to do by hand, as actions redone (oldest first)."""
        later = []  # type: list  # (a comprehension's closure would allocate on every call)
        for step in self._steps:
            later.insert(0, step[3])
        return later

    def _keep(self):
        """Keep the game as the table shows it, now (before it is shown)."""
        self._unkept = False
        keeper = self._keeper
        if keeper is not None:  # (always: _changed sets _unkept only with a keeper)
            self._saved(keeper.keep(self.game, self._later()))

    def _save(self):
        """The squares settled: the keeper's whole save, archive of a finished
        game; one write a loop step (the next one, still settled, goes on)."""
        keeper = self._keeper
        if keeper is not None:
            error = keeper.settle(self.game, self._later())
            # The same failure again (a whole save tried again after the
            # action's own failed): shown already, one sign for an action.
            if not (error and self._save_failed and error == self.error):
                self._saved(error)
            if keeper.busy:
                self._unsettled = True

    def _saved(self, error):
        """After a write of the keeper: its trouble, or saving works again."""
        if error:
            self.trouble(error)
            self._save_failed = True
        elif self._save_failed:
            self.error = ""  # saving works again
            self._save_failed = False
            self.said += 1

    # -- a new game ---------------------------------------------------------------

    def _new_game(self):
        """The board is empty in CLEAR: a new game starts (a finished one is archived first)."""
        if self._keeper is not None and self.game.phase == ENDED:
            # Cleared before the squares settled: the finished game is kept now.
            self._saved(self._keeper.archive(self.game))
        self.game = Game(self.layout, self.first, self.tiles)
        self.mode = PLAY
        self._steps = []
        self.again = False
        self._strict = False
        self.plan.drop()
        self._hint = False
        self._changed()
        if self.game.phase == ENDED:  # a layout where the first knight has no square
            self._ended(True)
