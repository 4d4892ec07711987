"""The board controller: the inputs and the buttons, on top of the game followed.

Fed with the debounced occupancy of the squares (a bitmask), button presses
and the time, it follows an attila.rules.Game and keeps `frame` (RGB per
square, full scale) for the LEDs. The work is split by job; imports go
down only (the controller imports the others, none of them imports it):

- controller (here): sense(), press(), release(), tick(); the buttons and
  what they ask for (undo, hint, resume, a new game, the coach, the self-test);
- attila.settling: what a change of the game sets off (kept at once, saved
  and planned once the squares settle; trouble(), busy(), thinking());
- attila.reading: what a reading of the squares means for the game;
- attila.painter: the LED frame for the mode (attila.frames paints it);
  attila.words: the words of status().

Buttons: UNDO takes back the last action (again: further back); in RESUME it
discards the saved game. MENU shows a hint; after the game, in RESUME it
resumes. MENU pressed 3 times within 2 s, or held 1.5 s, starts a new game
(the board is cleared first; UNDO goes back; MENU then switches the coach,
when the board has one); held 5 s, the self-test. A
hold lasts from press() until release(): every caller reports both.
Modes: PLAY, CORRECT, OVER, CLEAR, RESUME, SELFTEST (MODE_NAMES).

A module of the sensor chain that does not answer (chain()) keeps the
trouble sign on and its words in the status line until it answers again.

For the port (contract C2): `cue` is set to a CUE_* code when something
worth a sound happens (the highest code since the port last reset it to
CUE_NONE wins); `said` grows whenever the status line may have changed;
trouble(text) reports a problem the player must see.

The idle path (tick with nothing to animate, sense with an unchanged mask)
allocates nothing; status() builds its text only when asked.
"""

from attila.compat import const
from attila.painter import COACH_MS, Painter  # noqa: F401 (COACH_MS: for callers)
from attila.palette import QUANTUM
from attila.plan import first_action  # noqa: F401 (for callers)
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
)
from attila.rules import OVER as ENDED  # the game's phase; OVER here is a mode
from attila.rules import ROMANS, Game
from attila.settling import CALM_MS, Settling  # noqa: F401 (CALM_MS: for callers)
from attila.ticks import ticks_diff

BUTTON_UNDO = const(0)
BUTTON_MENU = const(1)

NEW_GAME_MS = const(2000)  # MENU pressed 3 times within this time: new game
HOLD_NEW_MS = const(1500)  # MENU held this long: new game
REFUSED_MS = const(300)  # a refused press: the trouble sign this long, two red flashes
HOLD_TEST_MS = const(5000)  # MENU held this long: self-test


class Controller(Settling):
    """Follows one game on one layout through sensor readings and buttons."""

    def __init__(self, layout, store=None, first=ROMANS, tiles=None, computer=-1,
                 opponent=None, coach=None):
        Settling.__init__(self, layout, store, first, tiles, computer, opponent, coach)
        self.painter = painter = Painter(layout.size)
        self.frame = painter.frame  # what the LEDs show, painted in place
        self._menu1 = self._menu2 = 0  # times of the last two MENU presses ...
        self._menus = 0  # ... of which this many are recent (within NEW_GAME_MS)
        self._down = -1  # button held down since _down_t, until release()
        self._down_t = 0
        self._held = 0  # 1: the hold started a new game, 2: also the self-test
        self._test = None  # the attila.selftest.SelfTest while mode == SELFTEST
        self._before_test = PLAY
        self._emptied = 0
        painter.paint(self, 0)

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

    def chain(self, module, now_ms):
        """Module `module` of the sensor chain does not answer (0: every module
        answers again; attila.chain, told by attila.board). The trouble sign
        stays and the status line names the module while the game waits: no
        reading reaches sense() meanwhile."""
        self.now = now_ms
        self.missing = module
        if module:
            self._sign = 1
            self._cue(CUE_ERROR)
        else:
            self._sign = 0
        self.said += 1
        self._dirty = True

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
            elif not self.missing and ticks_diff(now_ms, self._sign_t) >= self._sign_ms:
                self._sign = 0
                self._dirty = True
        if self._unkept:
            self._keep()  # before the frame that shows the change goes out
        # A tick that paints the frame thinks no slice: both in one loop step
        # would not fit the RP2040's 10 ms loop (docs/pages/inside/opponent.md, time on the board).
        painter = self.painter  # (a moving frame again in each new time slot)
        paint = self._dirty or (painter.anim and now_ms // QUANTUM != painter.slot)
        self._work(now_ms, paint)
        if not paint and not self._dirty:  # (_work may only make it dirty)
            return False
        self._dirty = False
        return painter.paint(self, now_ms)

    def _show(self, now):
        """Paint the frame now (an input changed it); tick() does the rest."""
        self._dirty = False
        self.painter.paint(self, now)

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
            self.painter.switched(self.coach.switch(), now_ms)
            self._cue(CUE_TURN)
            self._dirty = True

    def hint(self, now_ms=0):
        """Show the best action for the side to move the way the board shows its
        own (once the squares are still and the search is done)."""
        if self.mode in (PLAY, CORRECT) and self.game.phase != ENDED:
            self._hint = True
            self._dirty = True

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
