"""The board controller: the game followed through the pieces, and what to show.

Fed with the debounced occupancy of the squares (a bitmask), button presses
and the time, it follows an attila.rules.Game and paints `frame` (RGB per
square, full scale). What a reading means is attila.reading's (the base
class); the LED frames are attila.frames', the board's own action and hints
attila.plan's, the save attila.keeper's, the words of status()
attila.words'. Every change of the game as the table shows it is kept
(attila.keeper: a journal line) before the board shows it: in the input
call that made it, or in the tick; a power cut after that loses nothing.
Once the squares have been still for CALM_MS after a change, the keeper
settles (a whole save now and then, a finished game archived) and the
board's action (or a hint) is searched, a slice per tick.

Buttons: UNDO takes back the last action (again: further back); in RESUME it
discards the saved game. MENU shows a hint; after the game, in RESUME it
resumes. MENU pressed 3 times within 2 s, or held 1.5 s, starts a new game
(the board is cleared first; UNDO goes back; MENU then switches the coach,
when the board has one); held 5 s, the self-test. A
hold lasts from press() until release(): every caller reports both.
Modes: PLAY, CORRECT, OVER, CLEAR, RESUME, SELFTEST (MODE_NAMES).

For the port (contract C2): `cue` is set to a CUE_* code when something
worth a sound happens (the highest code since the port last reset it to
CUE_NONE wins); `said` grows whenever the status line may have changed;
trouble(text) reports a problem the player must see.

The idle path (tick with nothing to animate, sense with an unchanged mask)
allocates nothing; status() builds its text only when asked.
"""

from attila import frames
from attila.compat import const
from attila.keeper import Keeper
from attila.palette import QUANTUM, SIDE, TROUBLE_MS
from attila.plan import Plan, first_action  # noqa: F401 (first_action: for callers)
from attila.reading import (  # noqa: F401 (the modes and cues: for callers too)
    CLEAR,
    CORRECT,
    CUE_ERROR,
    CUE_ILLEGAL,
    CUE_NONE,
    CUE_OVER,
    CUE_PLACED,
    CUE_TURN,
    MODE_NAMES,
    OVER,
    PLAY,
    RESUME,
    SELFTEST,
    Reading,
)
from attila.rules import OVER as ENDED  # the game's phase; OVER here is a mode
from attila.rules import ROMANS, Game
from attila.ticks import ticks_diff

BUTTON_UNDO = const(0)
BUTTON_MENU = const(1)

CALM_MS = const(500)  # squares still this long after a change: save, plan
NEW_GAME_MS = const(2000)  # MENU pressed 3 times within this time: new game
HOLD_NEW_MS = const(1500)  # MENU held this long: new game
REFUSED_MS = const(300)  # a refused press: the trouble sign this long, two red flashes
HOLD_TEST_MS = const(5000)  # MENU held this long: self-test
COACH_MS = const(600)  # the coach switched: the whole board green (on) or dim white (off)


class Controller(Reading):
    """Follows one game on one layout through sensor readings and buttons."""

    def __init__(self, layout, store=None, first=ROMANS, tiles=None, computer=-1,
                 opponent=None, coach=None):
        Reading.__init__(self, layout, Game(layout, first, tiles), computer, Plan(opponent))
        self.store = store
        self.coach = coach  # an attila.coach.Coach (the player's turns judged), or None
        self.first = first
        self.tiles = tiles
        n = layout.size
        self.frame = bytearray(3 * n)
        self._back = bytearray(3 * n)
        self.now = 0
        self.error = ""  # the last trouble(), for status()
        self.said = 0  # grows whenever the status line may have changed
        self._save_failed = False  # self.error is the last save's failure
        self._sign = 0  # the trouble sign: 1 to start on the next tick, 2 shown
        self._sign_t = 0  # ... since then
        self._sign_ms = TROUBLE_MS  # ... for this long
        self._hint = False  # a hint is asked for (shown once the plan is ready)
        self._rested = False  # the last tick painted instead of thinking
        self._found = False  # the search ended in the last tick: show it now
        self._still = 0  # time of the last change of the squares or the game
        self._unkept = False  # the game changed since the keeper last kept it
        self._took = False  # a button was taken in this loop step (no save at rest in it)
        self._menu1 = self._menu2 = 0  # times of the last two MENU presses ...
        self._menus = 0  # ... of which this many are recent (within NEW_GAME_MS)
        self._down = -1  # button held down since _down_t, until release()
        self._down_t = 0
        self._held = 0  # 1: the hold started a new game, 2: also the self-test
        self._switched = 0  # the coach just switched: 1 on, 2 off (shown COACH_MS from _switched_t)
        self._switched_t = 0
        self._test = None
        self._before_test = PLAY
        self._emptied = 0
        self._dirty = True
        self._anim = False
        self._slot = -1
        self._keeper = None
        if store is not None:
            self._keeper = keeper = Keeper(store)
            game, error = keeper.load(layout)
            if error:
                self.trouble(error)
            if game is not None:
                self.game = game
                self.mode = RESUME
        self._render(0)

    # -- inputs -------------------------------------------------------------

    def sense(self, mask, now_ms):
        """A new debounced occupancy (bitmask in square order)."""
        if mask == self.mask:
            return
        arrived = mask & ~self.mask  # nothing before the first reading (-1)
        self.mask = mask
        self.now = now_ms
        self._still = now_ms
        self.stray &= mask
        self.said += 1
        mode = self.mode
        if mode == SELFTEST:
            self._emptied |= ~mask
            self._test.sense(mask, now_ms)
        else:
            self._follow()
            if mode == OVER or mode == CLEAR:
                # The LEDs showed no piece to put here: it may be any piece.
                self.stray |= arrived
            self._strays()
        if self._unkept:
            self._keep()
        self._show(now_ms)

    def press(self, button, now_ms):
        """A button went down: BUTTON_UNDO or BUTTON_MENU."""
        self.now = now_ms
        self._took = True
        self._down = button
        self._down_t = now_ms
        self._held = 0
        self.said += 1
        mode = self.mode
        if mode == SELFTEST:
            if self._test.press(now_ms):
                self._test = None
                # A square that read empty during the test may hold any piece now.
                self.stray |= self.mask & self._emptied & self.layout.all
                self.mode = self._before_test
                if self.mode == CLEAR:
                    self._follow()
                elif self.mode != RESUME:
                    self.mode = PLAY
                    self._strict = True
                    self._follow()
        elif mode == RESUME:
            if button == BUTTON_UNDO:
                self._discard()
            else:
                self.resume()
        elif button == BUTTON_UNDO:
            if mode == CLEAR:
                # Changed our mind about the new game: back to the old one.
                self.mode = PLAY
                self._strict = True
                self._follow()
            else:
                self.undo()
        elif mode == OVER:
            self._clear()
        elif mode == CLEAR:
            self._switch_coach(now_ms)
        else:
            if self._menus == 2 and ticks_diff(now_ms, self._menu2) <= NEW_GAME_MS:
                self._clear()
            else:
                self._menu2 = self._menu1
                self._menu1 = now_ms
                self._menus = 2 if self._menus else 1
                self.hint(now_ms)
        self._strays()
        if self._unkept:
            self._keep()
        self._show(now_ms)

    def release(self, button, now_ms):
        """A button came up: a hold of it ends (a hold that reached its time
        just now counts, whether or not a tick came between)."""
        if button == self._down:
            if button == BUTTON_MENU:
                self._hold(now_ms)  # painted by the next tick
            self._down = -1

    def _hold(self, now_ms):
        """MENU held: HOLD_NEW_MS or more is a new game, HOLD_TEST_MS the self-test."""
        held = ticks_diff(now_ms, self._down_t)
        if self._held == 0 and held >= HOLD_NEW_MS:
            self._held = 1
            if self.mode != SELFTEST and self.mode != CLEAR:
                self._clear()
                self._dirty = True
                self.said += 1
        elif self._held == 1 and held >= HOLD_TEST_MS:
            self._held = 2
            self.self_test(now_ms)

    def tick(self, now_ms):
        """Advance animations; True when `frame` changed."""
        self.now = now_ms
        if self._menus:
            # Presses older than NEW_GAME_MS no longer count (checked on every
            # tick, so an old time never aliases a new one after a wrap).
            if ticks_diff(now_ms, self._menu1) > NEW_GAME_MS:
                self._menus = 0
            elif ticks_diff(now_ms, self._menu2) > NEW_GAME_MS:
                self._menus = 1
        if self._down == BUTTON_MENU:
            self._hold(now_ms)
        if self._test is not None and self._test.tick(now_ms):
            self._dirty = True
            self.said += 1
        if self._sign:
            if self._sign == 1:
                self._sign = 2
                self._sign_t = now_ms
                self._dirty = True
            elif ticks_diff(now_ms, self._sign_t) >= self._sign_ms:
                self._sign = 0
                self._dirty = True
        if self._unkept:
            self._keep()  # before the frame that shows the change goes out
        slot = now_ms // QUANTUM
        # A tick that paints the frame thinks no slice: both in one loop step
        # would not fit the RP2040's 10 ms loop (docs/pages/inside/opponent.md, time on the board).
        paint = self._dirty or (self._anim and slot != self._slot)
        self._work(now_ms, paint)
        if not paint and not self._dirty:  # (_work may only make it dirty)
            return False
        self._slot = slot
        self._dirty = False
        return self._render(now_ms)

    def _show(self, now):
        """Paint the frame now (an input changed it); tick() does the rest."""
        self._slot = now // QUANTUM
        self._dirty = False
        self._render(now)

    # -- requests -------------------------------------------------------------

    def undo(self):
        """Take back the last action; the LEDs then guide the pieces back."""
        game = self.game
        if self.mode in (RESUME, SELFTEST, CLEAR) or not game.history:
            return False
        if self._steps:
            # A take-back still to do on the table: a second press is most
            # likely the first one again. Refused, and said: one at a time.
            self.again = True
            if not self._sign:  # two short red flashes (the trouble sign's first 0.3 s)
                self._sign = 1
                self._sign_ms = REFUSED_MS
            self._cue(CUE_ILLEGAL)
            self.said += 1
            self._dirty = True
            return False
        text = game.describe(game.history[-1])
        game.undo()
        self._steps.append((game.occupied(), game.knights[0], game.knights[1], text))
        self._strict = True
        self.plan.drop()
        self._hint = False
        self._changed()
        self._follow()
        self._strays()
        self._dirty = True
        return True

    def resume(self):
        """Take the saved game back (MENU in RESUME; the port at boot when a tool
        restarted the board mid-game): the LEDs then guide the pieces to it."""
        if self.mode == RESUME:
            self.mode = PLAY
            self._strict = True
            self._follow()
            self._dirty = True
            self.said += 1

    def _switch_coach(self, now_ms):
        """MENU while the board is cleared for a new game: the coach on or off
        (a board without the card has none: the press does nothing)."""
        if self.coach is not None:
            self._switched = 1 if self.coach.switch() else 2
            self._switched_t = now_ms
            self._cue(CUE_TURN)
            self._dirty = True

    def hint(self, now_ms=0):
        """Show the best action for the side to move the way the board shows its
        own (once the squares are still and the search is done)."""
        if self.mode in (PLAY, CORRECT) and self.game.phase != ENDED:
            self._hint = True
            self._dirty = True

    def busy(self):
        """True while work waits for the squares to settle (a save, a plan), a
        search is under way or its decision waits for the next tick to be shown."""
        return self._unsettled or self.plan.busy or self._found or self._wants_plan()

    def thinking(self):
        """True while the board works out its own action or a hint (PLAY)."""
        return self.mode == PLAY and self._wants_plan()

    def self_test(self, now_ms):
        """Enter the self-test (the port calls this when MENU is held at boot)."""
        if self.mode != SELFTEST:
            from attila.selftest import SelfTest  # loaded only when needed

            self._before_test = self.mode
            self._emptied = ~self.mask  # squares that have read empty since
            self._test = SelfTest(self.layout, self.mask, now_ms)
            self.mode = SELFTEST
            self._dirty = True
            self.said += 1

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
        plan = self.plan
        calm = -1
        took = self._took
        self._took = False
        if self._unsettled:
            calm = ticks_diff(now, self._still) >= CALM_MS
            if calm and not took:  # (a step that took a button shows it first)
                self._unsettled = False
                self._save()
        if plan.busy:
            if paint and not self._rested:
                self._rested = True
            else:
                self._rested = False
                self._found = plan.step(now)
        elif self._found:
            self._found = False
            self._planned()
        elif self._wants_plan():
            if calm < 0:
                calm = ticks_diff(now, self._still) >= CALM_MS
            if calm and plan.start(self.game, now, not self.own()):  # not its own: a hint
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

    def _later(self):
        """The take-backs still to do by hand, as actions redone (oldest first)."""
        later = []  # type: list  # (a comprehension's closure would allocate on every call)
        for step in self._steps:
            later.insert(0, step[3])
        return later

    def _keep(self):
        """Keep the game as the table shows it, now (before it is shown)."""
        self._unkept = False
        self._saved(self._keeper.keep(self.game, self._later()))

    def _save(self):
        """The squares settled: the keeper's whole save, archive of a finished
        game; one write a loop step (the next one, still settled, goes on)."""
        keeper = self._keeper
        if keeper is not None:
            self._saved(keeper.settle(self.game, self._later()))
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

    def _clear(self):
        """Start a new game: first the board must be emptied (UNDO: back to
        the old game and its take-back steps)."""
        self.mode = CLEAR
        self.lifted = -1
        self._strict = False
        self.plan.drop()
        self._hint = False
        self._menus = 0
        self._follow()

    def _discard(self):
        """RESUME declined: forget the saved game."""
        if self._keeper is not None:
            self._keeper.clear()
        self.game = Game(self.layout, self.first, self.tiles)
        self._clear()

    def _new_game(self):
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

    # -- the LEDs -------------------------------------------------------------------

    def _render(self, now):
        """Paint the frame for the mode and time; True when a byte changed."""
        back = self._back
        frames.blank(back)
        mode = self.mode
        game = self.game
        if mode == PLAY:
            plan = self.plan
            own = self.own()
            anim = frames.play(back, game, self.lifted, own, plan.ready() and (own or self._hint),
                               plan.a, plan.b, plan.c, now)
            if self._wants_plan():
                anim = frames.thinking(back, SIDE[game.side], now)
            if self.coach is not None and self.coach.paint(back, now):
                anim = True
        elif mode == CORRECT or mode == RESUME:
            if self._steps:
                step = self._steps[0]
                want = step[0]
                romans = step[1]
                huns = step[2]
            else:
                want = game.occupied()
                romans = game.knights[0]
                huns = game.knights[1]
            m = self.mask if self.mask >= 0 else want
            anim = frames.fix(back, m & ~want | self.stray, want & ~m,
                              want if mode == RESUME else 0, romans, huns, now)
        elif mode == OVER:
            anim = frames.over(back, game.winner, now)
        elif mode == CLEAR:
            anim = frames.clearing(back, self.mask, now)
            if self._switched:
                if ticks_diff(now, self._switched_t) < COACH_MS:
                    frames.switched(back, self._switched == 1)
                    anim = True
                else:
                    self._switched = 0
        else:
            anim = self._test.draw(back, now)
        if self._sign == 2 and mode != SELFTEST:
            anim = frames.trouble(back, ticks_diff(now, self._sign_t))
        self._anim = anim
        frame = self.frame
        changed = False
        for k in range(len(back)):
            if frame[k] != back[k]:
                frame[k] = back[k]
                changed = True
        return changed

    # -- words ------------------------------------------------------------------------

    def status(self):
        """One line for the player: whose turn, what to do, what is wrong.

        The words live in attila.words, imported on the first call: a board
        that never prints a status line never loads them.
        """
        from attila.words import status

        text = status(self)
        if self.coach is not None and self.coach.verdict and self.mode == PLAY:
            text += " (" + self.coach.words() + ")"
        if self.error:
            text += " [" + self.error + "]"
        return text
