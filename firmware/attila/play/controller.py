"""The board controller: the one writer of the game followed and of what the board shows.

Fed with the debounced occupancy of the squares (a bitmask), button presses
and the time, it follows an attila.game.rules.Game, and paints `frame` (RGB
per square) in tick(). Its parts decide and return what they decided:
attila.play.reading what a reading means, attila.play.presses what the
buttons ask for, attila.play.settling what a write did, attila.play.plan the
board's action; the controller applies it. The parts and the words:
docs/pages/inside/architecture.md and docs/pages/inside/vocabulary.md.
"""

from attila.compat import const
from attila.game.rules import OVER, ROMANS, Game
from attila.leds.palette import QUANTUM
from attila.play.modes import (CLEAR, CORRECT, CUE_ERROR, CUE_ILLEGAL, CUE_NONE, CUE_OVER,
                               CUE_PLACED, CUE_TURN, GAME_OVER, PLAY, RESUME, SELFTEST)
from attila.play.painter import Painter
from attila.play.plan import Plan
from attila.play.presses import BUTTON_UNDO, NEW_GAME, SELF_TEST, Presses
from attila.play.reading import (JUMP, KIND, LIFTED, MATCH, PLACE, TAKE_BACK, UNDONE, WRONG,
                                 act, agree, second, square, want)
from attila.play.settling import FAILED, HINT, OWN, RECOVERED, Settling

REFUSED_MS = const(300)  # a refused press: the trouble sign this long, two red flashes


class Controller:
    """Follows one game on one layout through sensor readings and buttons;
    its state is public and read-only for everyone else."""

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
        self.steps = []  # type: list  # (occupancy, Romans, Huns, history entry) per take-back
        self.again = False
        self.strict = False
        self.cue = CUE_NONE  # the highest cue since the port took the last one (take_cue())
        self.now = 0
        self.error = ""  # the last trouble(), for status()
        self.status_count = 0  # grows whenever the status line may have changed
        self.decided = 0  # grows whenever the board decides its own action (decision())
        self.searching = False  # a search was under way at the last tick: the port steps at once
        self.missing = 0  # a module of the sensor chain not answering: the sign stays
        self.test = None
        self._dirty = True  # the frame must be painted again (a tick's own change)
        self._fresh = False  # an input changed it: painted first thing in the tick
        self._agreed = False  # GAME_OVER: the pieces matched the game at the last reading
        self._pressed = False  # a button went down in this loop step: the save at rest waits
        self.presses = Presses()
        self.painter = painter = Painter(layout.size)
        self.frame = painter.frame  # what the LEDs show, painted in place
        self.settling = Settling(store, self.plan)
        game, error = self.settling.restore(layout)
        if error:
            self.trouble(error)
        if game is not None:
            self.game = game
            self.mode = RESUME
        painter.paint(self, 0, self.own(), False)

    def own(self):
        """True while the board plays the side to act."""
        game = self.game
        return game.side == self.computer and game.phase != OVER

    def expected(self):
        """Occupancy the game expects on the squares right now."""
        if self.mode == CLEAR:
            return 0
        if self.mode == SELFTEST:
            return self.mask if self.mask >= 0 else 0
        return want(self.game, self.lifted, self.steps)

    def thinking(self):
        """True while the board works out its own action or a hint (PLAY)."""
        return self.mode == PLAY and self._ask() >= 0

    def busy(self):
        """True while a save or a plan waits for the squares, or a search runs or is to be shown."""
        return self.settling.busy(self._ask())

    def take_cue(self):
        """The cue to sound (attila.play.modes CUE_*), once: then CUE_NONE."""
        cue = self.cue
        self.cue = CUE_NONE
        return cue

    def status(self):
        """One line for the player: whose turn, what to do, what is wrong (the
        words, attila.play.words, load on the first call)."""
        from attila.play.words import status

        return status(self, self.own())

    def decision(self):
        """The board's own action, as a whole, in notation and in words: said
        once when `decided` grows, before the status lines that guide the hands."""
        from attila.play.words import decision

        return decision(self)

    def sense(self, mask, now_ms):
        """A new debounced occupancy (bitmask in square order)."""
        if mask == self.mask:
            return
        arrived = mask & ~self.mask  # nothing before the first reading (-1)
        mode = self.mode
        self.mask = mask
        self.now = now_ms
        self.settling.squares_changed(now_ms)
        self.stray &= mask
        self.status_count += 1
        if mode == SELFTEST:
            self.test.sense(mask, now_ms)
        else:
            self._follow()
            if mode == GAME_OVER or mode == CLEAR:
                # The LEDs showed no piece to put here: it may be any piece.
                self.stray |= arrived
            self._strays()
        self._taken()

    def chain(self, module, now_ms):
        """Module `module` of the sensor chain does not answer (0: all answer
        again; attila.sensing.chain): the trouble sign stays meanwhile."""
        self.now = now_ms
        self.missing = module
        if module:
            self.painter.warn()
            self._sound(CUE_ERROR)
        else:
            self.painter.unwarn()
        self.status_count += 1
        self._dirty = True

    def press(self, button, now_ms):
        """A button went down: BUTTON_UNDO or BUTTON_MENU (attila.play.presses)."""
        self.now = now_ms
        self._pressed = True
        self.presses.down(button, now_ms)
        self.status_count += 1
        mode = self.mode
        if mode == SELFTEST:
            self._test_pressed(now_ms)
        elif mode == RESUME:
            if button == BUTTON_UNDO:
                self._discard()
            else:
                self.resume()
        elif button == BUTTON_UNDO:
            if mode == CLEAR:
                self._recheck()  # changed our mind about the new game: back to the old one
            else:
                self.undo()
        elif mode == GAME_OVER:
            self._clear()
        elif mode == CLEAR:
            self._switch_coach(now_ms)
        elif self.presses.menu(now_ms) == NEW_GAME:
            self._clear()
        else:
            self.hint(now_ms)
        self._strays()
        self._taken()

    def release(self, button, now_ms):
        """A button came up: a hold of it ends (painted by the next tick)."""
        self._asked(self.presses.up(button, now_ms), now_ms)

    def tick(self, now_ms):
        """The time: holds, the self-test, the trouble sign, the work at rest,
        and the frame painted; True when it changed."""
        self.now = now_ms
        changed = False
        if self._fresh:  # the inputs of this loop step: the frame as they left it
            self._fresh = False
            changed = self._paint(now_ms)
        if self.presses.timing:  # (an idle tick calls nothing it need not)
            asked = self.presses.tick(now_ms)
            if asked:
                self._asked(asked, now_ms)
        if self.test is not None and self.test.tick(now_ms):
            self._dirty = True
            self.status_count += 1
        if self.painter.sign and self.painter.signed(now_ms, self.missing):
            self._dirty = True
        if self.settling.keep_due:
            self._keep()  # before the frame that shows the change goes out
        # A tick that paints the frame searches no slice: both in one loop step
        # would not fit the 10 ms loop (docs/pages/inside/opponent.md).
        painter = self.painter  # (a moving frame again in each new time slot)
        paint = self._dirty or (painter.anim and now_ms // QUANTUM != painter.slot)
        self._work(now_ms, paint)
        if not paint and not self._dirty:  # (the work may only make it dirty)
            return changed
        self._dirty = False
        return self._paint(now_ms) or changed

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
            if not self.painter.sign:  # two short red flashes (the trouble sign's first moments)
                self.painter.warn(REFUSED_MS)
            self._sound(CUE_ILLEGAL)
            self.touch()
            return False
        entry = game.undo()
        self.steps.append((game.occupied(), game.knights[0], game.knights[1], entry))
        self.strict = True
        self.plan.forget()
        self._changed()
        self._follow()
        self._strays()
        self._dirty = True
        return True

    def resume(self):
        """Take the saved game back (MENU in RESUME, or the port at boot when a
        tool restarted the board): the LEDs then guide the pieces to it."""
        if self.mode == RESUME:
            self._recheck()
            self.touch()

    def hint(self, now_ms=0):
        """Show the best action for the side to move, as the board shows its own."""
        if (self.mode == PLAY or self.mode == CORRECT) and self.game.phase != OVER:
            self.plan.hint()
            self._dirty = True

    def self_test(self, now_ms):
        """Enter the self-test (the port calls this when MENU is held at boot)."""
        if self.mode != SELFTEST:
            from attila.play.selftest import SelfTest  # loaded only when needed

            self.test = SelfTest(self.layout, self.mask, now_ms, self.mode)
            self.mode = SELFTEST
            self.touch()

    def trouble(self, text):
        """A problem the player must see: the card given up, saving off, a
        damaged save kept aside: the status line carries `text`, the LEDs
        the trouble sign, the cue is CUE_ERROR."""
        self.settling.troubled()
        self._trouble(text)

    def _trouble(self, text):
        self.error = text
        self.painter.warn()
        self._sound(CUE_ERROR)
        self.touch()

    def _follow(self):
        """Read the occupancy against the game and apply what it means, a
        step at a time (an action, a take-back and an action at most)."""
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
        # Actions are read only from agreement (game over: the last piece may still be sliding).
        acting = not self.strict and (mode == PLAY or (mode == GAME_OVER and self._agreed
                                                       and self.settling.unsettled))
        left = 8
        while left:
            left -= 1
            meaning = self._meaning(acting)
            kind = meaning & KIND
            if kind == UNDONE:
                del self.steps[:meaning >> 3]
                self.again = False
                self._changed()  # those take-backs are on the table now: save
                continue
            over = self.game.phase == OVER
            if over and kind != TAKE_BACK:
                self._ended(kind == MATCH)
                break
            if kind == MATCH or kind == LIFTED:
                self.strict = False
                self.mode = PLAY
                if kind == LIFTED:
                    self.lifted = square(meaning)
                break
            if not over:
                self.mode = CORRECT
            if kind == WRONG:
                break
            self._carry_out(meaning)
        if acting and self.mode == CORRECT:
            self._sound(CUE_ILLEGAL)

    def _meaning(self, acting):
        """What the reading shows (attila.play.reading): an action from
        agreement, else agreement again. The board's own: its plan's squares."""
        if acting:
            return act(self.game, self.mask, self.plan if self.own() else None,
                       self.settling.unsettled)
        return agree(self.game, self.mask, self.stray, self.steps if self.strict else None,
                     self.plan if self.own() else None)

    def _carry_out(self, meaning):
        """An action the reading showed, or a take-back, on the game."""
        kind = meaning & KIND
        game = self.game
        if kind == TAKE_BACK:
            game.undo()
        elif kind == PLACE:
            game.place(square(meaning))
        elif kind == JUMP:
            game.move(square(meaning), second(meaning))
        else:
            game.scorch(square(meaning))
        self._changed()
        if kind != TAKE_BACK:
            self._sound(CUE_PLACED)

    def _ended(self, agreed):
        """Game over: GAME_OVER, whatever lies on the board."""
        if self.mode != GAME_OVER:
            self._sound(CUE_OVER)
        self.mode = GAME_OVER
        self._agreed = agreed
        self.strict = False
        del self.steps[:]
        self.again = False

    def _strays(self):
        """Every piece where the game wants none is stray from now on."""
        mode = self.mode
        if mode == PLAY or mode == SELFTEST or self.mask < 0:
            return
        # While the board is cleared, pieces of the old game may stay (UNDO
        # brings it back); only pieces put down meanwhile are stray.
        self.stray |= self.mask & ~want(self.game, self.lifted, self.steps)

    def _changed(self):
        """After every change of the game: the plan kept or dropped, the game to keep."""
        if not self.plan.fits(self.game):
            self.plan.forget()
        self.settling.game_changed(self.now)
        if self.coach is not None:
            self.coach.after(self.game, self.now, self.computer)

    def _asked(self, asked, now_ms):
        """What a hold or the third MENU press asked for (attila.play.presses)."""
        if asked == NEW_GAME:
            if self.mode != SELFTEST and self.mode != CLEAR:
                self._clear()
                self.touch()
        elif asked == SELF_TEST:
            self.self_test(now_ms)

    def _test_pressed(self, now_ms):
        """A button in the self-test: its report left, back to what was."""
        test = self.test
        if test.press(now_ms):
            self.test = None
            # A square that read empty during the test may hold any piece now.
            self.stray |= self.mask & test.emptied & self.layout.all
            self.mode = test.before
            if self.mode == CLEAR:
                self._follow()
            elif self.mode != RESUME:
                self._recheck()

    def _recheck(self):
        """Back to the game: the pieces must match it before an action is read."""
        self.mode = PLAY
        self.strict = True
        self._follow()

    def _clear(self):
        """A new game: first the board is emptied (UNDO: back to the old game)."""
        self.mode = CLEAR
        self.lifted = -1
        self.strict = False
        self.plan.forget()
        self.presses.forget()
        self._follow()

    def _discard(self):
        """RESUME declined: forget the saved game."""
        self.settling.forget()
        self.game = Game(self.layout, self.first, self.tiles)
        self._clear()

    def _new_game(self):
        """The board is empty in CLEAR: a new game starts (a finished one is archived first)."""
        if self.game.phase == OVER:
            self._written(self.settling.archive(self.game))
        self.game = Game(self.layout, self.first, self.tiles)
        self.mode = PLAY
        del self.steps[:]
        self.again = False
        self.strict = False
        self.plan.forget()
        self._changed()
        if self.game.phase == OVER:  # a layout where the first knight has no square
            self._ended(True)

    def _switch_coach(self, now_ms):
        """MENU while the board is cleared: the coach on or off (where there is one)."""
        if self.coach is not None:
            self.painter.switched(self.coach.switch(), now_ms)
            self._sound(CUE_TURN)
            self._dirty = True

    def _ask(self):
        """What the plan is to work out: OWN (the board's action), HINT, or -1 (nothing)."""
        if not self.plan.hinting and self.computer < 0:
            return -1
        mode = self.mode
        if (mode != PLAY and mode != CORRECT) or not self.plan.wanted(self.game, self.computer):
            return -1
        return OWN if self.own() else HINT

    def _work(self, now_ms, paint):
        """What waits for the squares (attila.play.settling): the save at rest
        (not in a step that took a button: it is shown first), then the plan."""
        if self.settling.unsettled and not self._pressed:
            self._save(now_ms)
        self._pressed = False
        ask = self._ask()
        plan = self.plan
        if ask >= 0 or plan.searching or plan.found:
            if self.settling.think(now_ms, paint, self.game, ask):
                self._planned()
        self.searching = plan.searching

    def _save(self, now_ms):
        self._written(self.settling.save(now_ms, self.game, self.steps))

    def _written(self, done):
        """What came of a write (attila.play.settling): its failure shown, or gone."""
        if done == FAILED:
            self._trouble(self.settling.error)
        elif done == RECOVERED:
            self.error = ""
            self.status_count += 1

    def _planned(self):
        """The plan is ready: show it (and why the card was given up, once)."""
        if self.plan.note:
            self.trouble(self.plan.note)
        self.touch()
        if self.own() and self.plan.ready():
            self._sound(CUE_TURN)
            self.decided += 1  # said once as a whole (attila.play.words.decision)

    def _keep(self):
        """The game as the table shows it kept, now (before it is shown)."""
        self._written(self.settling.keep(self.game, self.steps))

    def _sound(self, cue):
        """A cue worth a sound: the highest since the port took the last one wins."""
        if cue > self.cue:
            self.cue = cue

    def touch(self):
        """The frame and the status line may have changed (also said from
        outside: attila.online.party, when the words it adds change)."""
        self._dirty = True
        self.status_count += 1

    def _taken(self):
        """An input was taken: the game kept at once, the frame painted first
        thing in the next tick (a later change counts as a repaint there)."""
        if self.settling.keep_due:
            self._keep()
        self._dirty = False
        self._fresh = True

    def _paint(self, now_ms):
        return self.painter.paint(self, now_ms, self.own(), self.thinking())
