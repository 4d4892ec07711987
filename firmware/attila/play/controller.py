"""The board controller: the inputs and the buttons, on top of the game followed.

Fed with the debounced occupancy of the squares (a bitmask), button presses
and the time, it follows an attila.game.rules.Game and keeps `frame` (RGB per
square, full scale) for the LEDs. The work is split by job; imports go
down only (the controller imports the others, none of them imports it):

- controller (here): sense(), press(), release(), tick(); the buttons and
  what they ask for (undo, hint, resume, a new game, the coach, the
  self-test); it holds the state below and owns the parts that do the rest:
- `pieces`, an attila.play.reading.Reading: what a reading of the squares means
  for the game;
- `settling`, an attila.play.settling.Settling: what a change of the game sets
  off (kept at once, saved and planned once the squares settle);
- `painter`, an attila.play.painter.Painter: the LED frame for the state
  (attila.leds.frames paints it); attila.play.words: the words of status().

The state, read by the parts, the painter, the words and the callers, and
changed only by the controller and its parts: mode (MODE_NAMES), game,
mask (the last occupancy, -1 before the first), lifted (the square of the
knight in the player's hand in PLAY, -1), stray (squares whose piece the
board cannot vouch for: it lay where the game wanted none, so it may be any
piece; no square holding one counts as matching until it reads empty),
steps (the take-backs still to do by hand after UNDO, oldest first: the
occupancy, the Roman and Hun knights after each undone action, and its
notation; followed one at a time, as a tile may stand where a knight
returns), again (UNDO pressed again before the take-back was done), plan
(attila.play.plan.Plan: the board's own action, or a hint), hinting (a hint is
asked for), sign and sign_t (the trouble sign: 1 to start on the next tick,
2 shown since sign_t), test (the attila.play.selftest.SelfTest in SELFTEST),
missing, error, said, decided, cue; thinking(), own(), expected(), busy().

Buttons: UNDO takes back the last action (again: further back); in RESUME it
discards the saved game. MENU shows a hint; after the game, in RESUME it
resumes. MENU pressed 3 times within 2 s, or held 1.5 s, starts a new game
(the board is cleared first; UNDO goes back; MENU then switches the coach,
when the board has one); held 5 s, the self-test. A
hold lasts from press() until release(): every caller reports both.
Modes: PLAY, CORRECT, OVER, CLEAR, RESUME, SELFTEST (MODE_NAMES).

A module of the sensor chain that does not answer (chain()) keeps the
trouble sign on and its words in the status line until it answers again.

For the port: `cue` is set to a CUE_* code when something
worth a sound happens (the highest code since the port last reset it to
CUE_NONE wins); `said` grows whenever the status line may have changed;
trouble(text) reports a problem the player must see.

The idle path (tick with nothing to animate, sense with an unchanged mask)
allocates nothing; status() builds its text only when asked.
"""

from attila.compat import const
from attila.play.painter import COACH_MS, Painter  # noqa: F401 (COACH_MS: for callers)
from attila.leds.palette import QUANTUM, TROUBLE_MS
from attila.play.plan import Plan, first_action  # noqa: F401 (first_action: for callers)
from attila.play.reading import (  # noqa: F401 (the modes and cues: for callers too)
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
from attila.game.rules import OVER as ENDED  # the game's phase; OVER here is a mode
from attila.game.rules import ROMANS, Game
from attila.play.settling import CALM_MS, Settling  # noqa: F401 (CALM_MS: for callers)
from attila.ticks import ticks_diff

BUTTON_UNDO = const(0)
BUTTON_MENU = const(1)

NEW_GAME_MS = const(2000)  # MENU pressed 3 times within this time: new game
HOLD_NEW_MS = const(1500)  # MENU held this long: new game
REFUSED_MS = const(300)  # a refused press: the trouble sign this long, two red flashes
HOLD_TEST_MS = const(5000)  # MENU held this long: self-test


class Controller:
    """Follows one game on one layout through sensor readings and buttons."""

    def __init__(self, layout, store=None, first=ROMANS, tiles=None, computer=-1,
                 opponent=None, coach=None):
        self.layout = layout
        self.first = first
        self.tiles = tiles
        self.computer = computer
        self.coach = coach  # an attila.play.coach.Coach (the player's turns judged), or None
        self.store = store  # where the game is saved (attila.saves.store), or None
        self.game = Game(layout, first, tiles)
        self.plan = Plan(opponent)
        self.mode = CLEAR
        self.mask = -1
        self.lifted = -1
        self.stray = 0
        self.steps = []  # type: list
        self.again = False
        self.hinting = False
        self.cue = CUE_NONE  # see CUE_*; the port resets it once it has sounded
        self.now = 0
        self.error = ""  # the last trouble(), for status()
        self.said = 0  # grows whenever the status line may have changed
        self.decided = 0  # grows whenever the board decides its own action (decision())
        self.missing = 0  # a module of the sensor chain not answering: the sign stays
        self.sign = 0
        self.sign_t = 0
        self.test = None
        self._sign_ms = TROUBLE_MS  # the trouble sign lasts this long
        self._dirty = True  # the frame must be painted again
        self._menu1 = self._menu2 = 0  # times of the last two MENU presses ...
        self._menus = 0  # ... of which this many are recent (within NEW_GAME_MS)
        self._down = -1  # button held down since _down_t, until release()
        self._down_t = 0
        self._held = 0  # 1: the hold started a new game, 2: also the self-test
        self._before_test = PLAY
        self._emptied = 0
        self.pieces = Reading(self)
        self.settling = Settling(self, store)
        game = self.settling.restore(layout)
        if game is not None:
            self.game = game
            self.mode = RESUME
        self.painter = painter = Painter(layout.size)
        self.frame = painter.frame  # what the LEDs show, painted in place
        painter.paint(self, 0)

    # -- the state ----------------------------------------------------------

    def own(self):
        """True while the board plays the side to act."""
        game = self.game
        return game.side == self.computer and game.phase != ENDED

    def expected(self):
        """Occupancy the game expects on the squares right now."""
        return self.pieces.expected()

    def thinking(self):
        """True while the board works out its own action or a hint (PLAY)."""
        return self.mode == PLAY and self.settling.wanted()

    def busy(self):
        """True while work waits for the squares to settle (a save, a plan), a
        search is under way or its decision waits for the next tick to be shown."""
        return self.settling.busy()

    # -- what the parts report ----------------------------------------------

    def changed(self):
        """After every change of the game (the parts and undo() call it)."""
        self.settling.changed()

    def sound(self, code):
        """A CUE_* worth a sound: the highest since the port reset `cue` wins."""
        if code > self.cue:
            self.cue = code

    def touch(self):
        """The frame and the status line may have changed."""
        self._dirty = True
        self.said += 1

    def trouble(self, text):
        """A problem the player must see: saving is off, a save failed, a
        damaged save was kept aside. The status line carries `text`, the LEDs
        show the trouble sign for TROUBLE_MS, the cue is CUE_ERROR."""
        self.error = text
        self.settling.save_failed = False
        self.sign = 1  # from the next tick on
        self._sign_ms = TROUBLE_MS
        self.sound(CUE_ERROR)
        self.said += 1
        self._dirty = True

    def saving_works(self):
        """A save went through after one failed: its trouble is over."""
        self.error = ""
        self.said += 1

    def new_game(self):
        """The board is empty in CLEAR: a new game starts (a finished one is archived first)."""
        self.settling.archive(self.game)
        self.game = Game(self.layout, self.first, self.tiles)
        self.mode = PLAY
        del self.steps[:]
        self.again = False
        self.pieces.strict = False
        self.plan.drop()
        self.hinting = False
        self.changed()
        if self.game.phase == ENDED:  # a layout where the first knight has no square
            self.pieces.ended(True)

    # -- inputs -------------------------------------------------------------

    def sense(self, mask, now_ms):
        """A new debounced occupancy (bitmask in square order)."""
        if mask == self.mask:
            return
        arrived = mask & ~self.mask  # nothing before the first reading (-1)
        self.mask = mask
        self.now = now_ms
        settling = self.settling
        settling.stir(now_ms)
        self.stray &= mask
        self.said += 1
        mode = self.mode
        if mode == SELFTEST:
            self._emptied |= ~mask
            self.test.sense(mask, now_ms)
        else:
            self.pieces.follow()
            if mode == OVER or mode == CLEAR:
                # The LEDs showed no piece to put here: it may be any piece.
                self.stray |= arrived
            self.pieces.strays()
        if settling.unkept:
            settling.keep()
        self._show(now_ms)

    def chain(self, module, now_ms):
        """Module `module` of the sensor chain does not answer (0: every module
        answers again; attila.sensing.chain, told by attila.board). The trouble sign
        stays and the status line names the module while the game waits: no
        reading reaches sense() meanwhile."""
        self.now = now_ms
        self.missing = module
        if module:
            self.sign = 1
            self.sound(CUE_ERROR)
        else:
            self.sign = 0
        self.said += 1
        self._dirty = True

    def press(self, button, now_ms):
        """A button went down: BUTTON_UNDO or BUTTON_MENU."""
        self.now = now_ms
        self.settling.took = True
        self._down = button
        self._down_t = now_ms
        self._held = 0
        self.said += 1
        mode = self.mode
        if mode == SELFTEST:
            if self.test.press(now_ms):
                self.test = None
                # A square that read empty during the test may hold any piece now.
                self.stray |= self.mask & self._emptied & self.layout.all
                self.mode = self._before_test
                if self.mode == CLEAR:
                    self.pieces.follow()
                elif self.mode != RESUME:
                    self._recheck()
        elif mode == RESUME:
            if button == BUTTON_UNDO:
                self._discard()
            else:
                self.resume()
        elif button == BUTTON_UNDO:
            if mode == CLEAR:
                # Changed our mind about the new game: back to the old one.
                self._recheck()
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
        self.pieces.strays()
        if self.settling.unkept:
            self.settling.keep()
        self._show(now_ms)

    def _recheck(self):
        """Back to the game: the pieces must match it before an action is read."""
        self.mode = PLAY
        self.pieces.strict = True
        self.pieces.follow()

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
        if self.test is not None and self.test.tick(now_ms):
            self._dirty = True
            self.said += 1
        if self.sign:
            self._signed(now_ms)
        settling = self.settling
        if settling.unkept:
            settling.keep()  # before the frame that shows the change goes out
        # A tick that paints the frame thinks no slice: both in one loop step
        # would not fit the RP2040's 10 ms loop (docs/pages/inside/opponent.md, time on the board).
        painter = self.painter  # (a moving frame again in each new time slot)
        paint = self._dirty or (painter.anim and now_ms // QUANTUM != painter.slot)
        settling.work(now_ms, paint)
        if not paint and not self._dirty:  # (work may only make it dirty)
            return False
        self._dirty = False
        return painter.paint(self, now_ms)

    def _signed(self, now_ms):
        """The trouble sign: on from this tick, off once its time is over."""
        if self.sign == 1:
            self.sign = 2
            self.sign_t = now_ms
            self._dirty = True
        elif not self.missing and ticks_diff(now_ms, self.sign_t) >= self._sign_ms:
            self.sign = 0
            self._dirty = True

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
        opponent = self.plan.opponent
        if self.steps or (opponent is not None and len(game.history) <= opponent.kept(game)):
            # A take-back still to do on the table: a second press is most
            # likely the first one again. Refused, and said: one at a time.
            # (Online, an action both boards have is refused the same way.)
            self.again = len(self.steps) > 0
            if not self.again:
                opponent.refused()  # online: it says why in words
            if not self.sign:  # two short red flashes (the trouble sign's first 0.3 s)
                self.sign = 1
                self._sign_ms = REFUSED_MS
            self.sound(CUE_ILLEGAL)
            self.said += 1
            self._dirty = True
            return False
        text = game.describe(game.history[-1])
        game.undo()
        self.steps.append((game.occupied(), game.knights[0], game.knights[1], text))
        self.pieces.strict = True
        self.plan.drop()
        self.hinting = False
        self.changed()
        self.pieces.follow()
        self.pieces.strays()
        self._dirty = True
        return True

    def resume(self):
        """Take the saved game back (MENU in RESUME; the port at boot when a tool
        restarted the board mid-game): the LEDs then guide the pieces to it."""
        if self.mode == RESUME:
            self._recheck()
            self._dirty = True
            self.said += 1

    def _switch_coach(self, now_ms):
        """MENU while the board is cleared for a new game: the coach on or off
        (a board without the card has none: the press does nothing)."""
        if self.coach is not None:
            self.painter.switched(self.coach.switch(), now_ms)
            self.sound(CUE_TURN)
            self._dirty = True

    def hint(self, now_ms=0):
        """Show the best action for the side to move the way the board shows its
        own (once the squares are still and the search is done)."""
        if self.mode in (PLAY, CORRECT) and self.game.phase != ENDED:
            self.hinting = True
            self._dirty = True

    def self_test(self, now_ms):
        """Enter the self-test (the port calls this when MENU is held at boot)."""
        if self.mode != SELFTEST:
            from attila.play.selftest import SelfTest  # loaded only when needed

            self._before_test = self.mode
            self._emptied = ~self.mask  # squares that have read empty since
            self.test = SelfTest(self.layout, self.mask, now_ms)
            self.mode = SELFTEST
            self._dirty = True
            self.said += 1

    def _clear(self):
        """Start a new game: first the board must be emptied (UNDO: back to
        the old game and its take-back steps)."""
        self.mode = CLEAR
        self.lifted = -1
        self.pieces.strict = False
        self.plan.drop()
        self.hinting = False
        self._menus = 0
        self.pieces.follow()

    def _discard(self):
        """RESUME declined: forget the saved game."""
        self.settling.forget()
        self.game = Game(self.layout, self.first, self.tiles)
        self._clear()

    # -- words ------------------------------------------------------------------------

    def decision(self):
        """The board's own action, as a whole, in notation and in words: said
        once when `decided` grows, before the status lines that guide the hands."""
        from attila.play.words import decision

        return decision(self)

    def status(self):
        """One line for the player: whose turn, what to do, what is wrong.

        The words live in attila.play.words, imported on the first call: a board
        that never prints a status line never loads them.
        """
        from attila.play.words import status

        text = status(self)
        if self.coach is not None and self.coach.verdict and self.mode == PLAY:
            text += " (" + self.coach.words() + ")"
        if self.error:
            text += " [" + self.error + "]"
        more = self.plan.opponent.words() if self.plan.opponent is not None else ""
        return text + " (" + more + ")" if more else text
