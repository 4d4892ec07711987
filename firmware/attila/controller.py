"""The board controller: what a change of occupancy means, and what to show.

Fed with the debounced occupancy of the squares (a bitmask), button presses
and the time, it follows an attila.rules.Game and paints `frame` (RGB per
square, full scale) through attila.frames. The sensors cannot tell a knight
from a tile, so every reading is compared with the occupancy the game
expects:

- the same: nothing to do;
- one knight of the side to move missing: it is lifted, its jumps light;
- that knight down on a lit square: the move; a tile on a free square after
  it: the scorch; a knight on a lit setup square: the placement;
- the piece of the last action lifted again (the knight just placed or
  moved, the tile just put down): that action is taken back, so a piece
  slid across the squares or a change of mind ends as a legal action;
- anything else: a correction. Nothing is read as an action until the
  pieces match the game again.

Only the legal actions of attila.rules ever change the game. After UNDO,
RESUME or the self-test the pieces must first match the game exactly (the
LEDs show how, one take-back step at a time) before a new action is read.
The board's own action and hints come from attila.plan, the save from
attila.keeper, the words of status() from attila.words.

Buttons: UNDO takes back the last action (again: further back); in RESUME it
discards the saved game. MENU shows a hint; after the game, in RESUME it
resumes. MENU pressed 3 times within 2 s, or held 1.5 s, starts a new game
(the board is cleared first; UNDO goes back); held 5 s, the self-test. A
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
from attila.geometry import lowest
from attila.keeper import Keeper
from attila.palette import QUANTUM, SIDE, TROUBLE_MS
from attila.plan import Plan, first_action  # noqa: F401 (first_action: for callers)
from attila.rules import MOVE, ROMANS, SCORCH, SETUP, Game
from attila.rules import OVER as ENDED  # the game's phase; OVER here is a mode
from attila.ticks import ticks_diff

BUTTON_UNDO = const(0)
BUTTON_MENU = const(1)

PLAY = const(0)  # following the game; the board agrees with it
CORRECT = const(1)  # the board disagrees: the LEDs show what to fix
OVER = const(2)  # game over: the winner's colour breathes over the board
CLEAR = const(3)  # new game: take every piece off the board
RESUME = const(4)  # a saved game was found at boot: MENU resume, UNDO discard
SELFTEST = const(5)
MODE_NAMES = ("play", "correct", "over", "clear", "resume", "selftest")

CUE_NONE = const(0)
CUE_PLACED = const(1)  # a legal action accepted
CUE_ILLEGAL = const(2)  # the board went from agreeing to a correction
CUE_TURN = const(3)  # the board's own action is ready and shown
CUE_OVER = const(4)  # game over
CUE_ERROR = const(5)  # trouble(): a save failed, a damaged save, saving off

CALM_MS = const(500)  # squares still this long after a change: save, plan
NEW_GAME_MS = const(2000)  # MENU pressed 3 times within this time: new game
HOLD_NEW_MS = const(1500)  # MENU held this long: new game
HOLD_TEST_MS = const(5000)  # MENU held this long: self-test


def _single(mask):
    return mask and not mask & (mask - 1)


class Controller:
    """Follows one game on one layout through sensor readings and buttons."""

    def __init__(self, layout, store=None, first=ROMANS, tiles=None, computer=-1,
                 opponent=None):
        self.layout = layout
        self.store = store
        self.first = first
        self.tiles = tiles
        self.computer = computer
        self.plan = Plan(opponent)  # the board's own action, or a hint
        self.game = Game(layout, first, tiles)
        n = layout.size
        self.frame = bytearray(3 * n)
        self._back = bytearray(3 * n)
        self.mask = -1  # unknown until the first reading
        self.lifted = -1  # square of the knight in the player's hand (PLAY)
        # Squares whose piece the board cannot vouch for: it lay where the game
        # (or the next take-back step) wants none, so it may be any piece. It
        # stays stray until its square reads empty, and no square holding one
        # ever counts as matching the game.
        self.stray = 0
        self.mode = CLEAR
        self.now = 0
        self.error = ""  # the last trouble(), for status()
        self.cue = CUE_NONE  # see CUE_*; the port resets it once it has sounded
        self.said = 0  # grows whenever the status line may have changed
        self._save_failed = False  # self.error is the last save's failure
        self._sign = 0  # the trouble sign: 1 to start on the next tick, 2 shown
        self._sign_t = 0  # ... since then
        self._strict = False  # the board must match the game before any action
        # Take-back steps still to do by hand after UNDO, oldest first: the
        # occupancy, the Roman and Hun knights after each undone action, and
        # its notation. Followed one at a time: on the way back a tile may
        # stand where a knight returns, and the sensors cannot tell them apart.
        self._steps = []
        self._hint = False  # a hint is asked for (shown once the plan is ready)
        self._still = 0  # time of the last change of the squares or the game
        self._unsettled = False  # the game changed since the squares last settled
        self._agreed = False  # OVER: the pieces matched the game at the last reading
        self._menu1 = self._menu2 = 0  # times of the last two MENU presses ...
        self._menus = 0  # ... of which this many are recent (within NEW_GAME_MS)
        self._down = -1  # button held down since _down_t, until release()
        self._down_t = 0
        self._held = 0  # 1: the hold started a new game, 2: also the self-test
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
        self._show(now_ms)

    def press(self, button, now_ms):
        """A button went down: BUTTON_UNDO or BUTTON_MENU."""
        self.now = now_ms
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
                self.mode = PLAY
                self._strict = True
                self._follow()
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
        elif mode != CLEAR:
            if self._menus == 2 and ticks_diff(now_ms, self._menu2) <= NEW_GAME_MS:
                self._clear()
            else:
                self._menu2 = self._menu1
                self._menu1 = now_ms
                self._menus = 2 if self._menus else 1
                self.hint(now_ms)
        self._strays()
        self._show(now_ms)

    def release(self, button, now_ms):
        """A button came up: a hold of it ends."""
        if button == self._down:
            self._down = -1

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
        if self._test is not None and self._test.tick(now_ms):
            self._dirty = True
            self.said += 1
        if self._sign:
            if self._sign == 1:
                self._sign = 2
                self._sign_t = now_ms
                self._dirty = True
            elif ticks_diff(now_ms, self._sign_t) >= TROUBLE_MS:
                self._sign = 0
                self._dirty = True
        self._work(now_ms)
        slot = now_ms // QUANTUM
        if not self._dirty and (not self._anim or slot == self._slot):
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

    def hint(self, now_ms=0):
        """Show the best action for the side to move the way the board shows its
        own (once the squares are still and the search is done)."""
        if self.mode in (PLAY, CORRECT) and self.game.phase != ENDED:
            self._hint = True
            self._dirty = True

    def busy(self):
        """True while work waits for the squares to settle (a save, a plan) or a
        search is under way."""
        return self._unsettled or self.plan.busy or self._wants_plan()

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
        self._cue(CUE_ERROR)
        self.said += 1
        self._dirty = True

    def _cue(self, code):
        if code > self.cue:
            self.cue = code

    def expected(self):
        """Occupancy the game expects on the squares right now."""
        if self.mode == CLEAR:
            return 0
        if self.mode == SELFTEST:
            return self.mask if self.mask >= 0 else 0
        return self._want()

    def _want(self):
        """Occupancy of the game as the table should show it, whatever the mode."""
        if self._steps:
            return self._steps[0][0]  # the next take-back step after UNDO
        occ = self.game.occupied()
        if self.lifted >= 0:
            occ &= ~(1 << self.lifted)
        return occ

    # -- following the game -------------------------------------------------------

    def own(self):
        """True while the board plays the side to act."""
        game = self.game
        return game.side == self.computer and game.phase != ENDED

    def _follow(self):
        """Read the occupancy against the game; carry out what it means.

        Actions are read only from agreement: in PLAY the pieces matched the
        game before this reading. Out of a correction (and after UNDO, RESUME
        or the self-test) the board only waits for the pieces to match the
        game again, or for one knight of the side to move to be in a hand:
        the sensors cannot tell a knight from a tile, so an occupancy reached
        through a correction is never read as an action.
        """
        mode = self.mode
        if mode == RESUME or mode == SELFTEST:
            return
        if mode == CLEAR:
            if self.mask == 0:
                self._new_game()
            return
        if self.mask < 0:
            return
        self.lifted = -1
        if self._strict:
            self._agree()
        elif mode == PLAY or (mode == OVER and self._agreed and self._unsettled):
            self._read()  # (game over: the last piece may still be sliding)
            if self.mode == CORRECT:
                self._cue(CUE_ILLEGAL)
        else:
            self._agree()

    def _ended(self, agreed):
        """Game over: OVER, whatever lies on the board."""
        if self.mode != OVER:
            self._cue(CUE_OVER)
        self.mode = OVER
        self._agreed = agreed
        self._strict = False
        self._steps = []

    def _agree(self):
        """Back to PLAY once the pieces match the game (or a knight is lifted)."""
        game = self.game
        m = self.mask
        occ = game.occupied()
        if game.phase == ENDED:
            self._ended(m == occ and not self.stray)
            return
        if self.stray:
            self.mode = CORRECT
            return
        if self._strict:
            steps = self._steps
            n = len(steps)
            while steps and m == steps[0][0]:
                steps.pop(0)
            if len(steps) < n:
                self._changed()  # those take-backs are on the table now: save
            if steps or m != occ:
                self.mode = CORRECT
                return
            self._strict = False
        missing = occ & ~m
        if m == occ:
            self.mode = PLAY
        elif not m & ~occ and self._liftable(missing):
            self.lifted = lowest(missing)
            self.mode = PLAY
        else:
            self.mode = CORRECT

    def _strays(self):
        """Every piece where the game wants none is stray from now on (see stray)."""
        mode = self.mode
        if mode == PLAY or mode == SELFTEST or self.mask < 0:
            return
        # While the board is cleared, pieces of the old game may stay (UNDO
        # brings it back); only pieces put down meanwhile are stray.
        self.stray |= self.mask & ~self._want()

    def _liftable(self, missing):
        """True when `missing` is one knight the side to move may lift now."""
        if self.game.phase != MOVE or not _single(missing):
            return False
        if self.own():
            return self.plan.ready() and missing == 1 << self.plan.a
        return bool(self.game.movable() & missing)

    def _read(self):
        """From agreement: the action (or take-back) the reading shows, if any.

        After the game ends, only the last piece put down lifted again before
        the squares settled (a tile slid on over the board) takes the action
        back; after that the pieces no longer matter.
        """
        game = self.game
        for _ in range(8):  # an action, a take-back and an action at most
            occ = game.occupied()
            m = self.mask
            extra = m & ~occ
            missing = occ & ~m
            if game.phase == ENDED:
                if not extra and not missing:
                    self._ended(True)
                    return
                if not (self._unsettled and self._take_back(missing)):
                    self._ended(False)
                    return
                continue
            if not extra and not missing:
                self.mode = PLAY
                return
            self.mode = CORRECT
            if not self._take_back(missing) and not self._act(extra, missing):
                return

    def _take_back(self, missing):
        """The knight just placed or the tile just put down lifted again (a piece
        slid on across the board, a change of mind): its action is taken back."""
        game = self.game
        if not _single(missing) or not game.history or game.phase == SCORCH:
            return False
        text = game.describe(game.history[-1])
        if text[0] in "@," and missing == 1 << self.layout.index(text[1:]):
            game.undo()
            self._changed()
            return True
        return False

    def _act(self, extra, missing):
        """Carry out the one legal action the difference shows; True if done."""
        game = self.game
        own = self.own()
        plan = self.plan
        phase = game.phase
        if phase == SETUP:
            if missing or not _single(extra):
                return False
            legal = (1 << plan.a if plan.a >= 0 else 0) if own else game.placements()
            if not extra & legal:
                return False
            game.place(lowest(extra))
        elif phase == MOVE:
            if not _single(missing):
                return False
            a = lowest(missing)
            if own:
                if a != plan.a:
                    return False
            elif not game.movable() >> a & 1:
                return False
            if not extra:
                self.lifted = a
                self.mode = PLAY
                return False
            if not _single(extra):
                return False
            b = lowest(extra)
            if own:
                if b != plan.b:
                    return False
            elif not game.destinations(a) >> b & 1:
                return False
            game.move(a, b)
        else:
            if missing:
                if missing == 1 << game.lifted:
                    # The knight that just moved is in a hand again: take the
                    # move back, so it can go elsewhere (or home).
                    game.undo()
                    self._changed()
                    return True
                return False
            if not _single(extra):
                return False
            legal = (1 << plan.c if plan.c >= 0 else 0) if own else game.scorchable()
            if not extra & legal:
                return False
            game.scorch(lowest(extra))
        self._changed()
        self._cue(CUE_PLACED)
        return True

    def _changed(self):
        """After every change of the game: keep or drop the plan. The save and a
        new plan wait until the squares settle (_work)."""
        if not self.plan.fits(self.game):
            self.plan.drop()
            self._hint = False
        self._unsettled = True
        self._still = self.now

    def _wants_plan(self):
        """True while an action to show is wanted and not yet there."""
        if not self._hint and self.computer < 0:
            return False
        mode = self.mode
        game = self.game
        if (mode != PLAY and mode != CORRECT) or game.phase == ENDED or self.plan.at >= 0:
            return False
        return self._hint or game.side == self.computer

    def _work(self, now):
        """What waits for the squares to settle: once they have been still for
        CALM_MS after a change, save the game, then start the plan. A search
        under way goes on, one slice a tick."""
        plan = self.plan
        calm = -1
        if self._unsettled:
            calm = ticks_diff(now, self._still) >= CALM_MS
            if calm:
                self._unsettled = False
                self._save()
        if plan.busy:
            if plan.step(now):
                self._planned()
        elif self._wants_plan():
            if calm < 0:
                calm = ticks_diff(now, self._still) >= CALM_MS
            if calm and plan.start(self.game, now):
                self._planned()

    def _planned(self):
        """The plan is ready: show it."""
        self._dirty = True
        self.said += 1
        if self.own() and self.plan.ready():
            self._cue(CUE_TURN)

    def _save(self):
        """Save the game as the table shows it: the take-backs still to do redone."""
        keeper = self._keeper
        if keeper is not None:
            later = []  # (no comprehension: its closure would allocate on every call)
            for step in self._steps:
                later.insert(0, step[3])
            error = keeper.save(self.game, later)
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
        self.game = Game(self.layout, self.first, self.tiles)
        self.mode = PLAY
        self._steps = []
        self._strict = False
        self.plan.drop()
        self._hint = False
        self._changed()

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
        if self.error:
            text += " [" + self.error + "]"
        return text
