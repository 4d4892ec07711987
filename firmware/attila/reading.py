"""What a change of occupancy means: the game followed through the pieces.

The sensors cannot tell a knight from a tile, so every reading is compared
with the occupancy the game expects:

- the same: nothing to do;
- one knight of the side to move missing: it is lifted, its jumps light;
- that knight down on a lit square: the move; a tile on a free square after
  it: the scorch; a knight on a lit setup square: the placement;
- the piece of the last action lifted again (the knight just placed or
  moved, the tile just put down): that action is taken back, so a piece
  slid across the squares or a change of mind ends as a legal action;
- anything else: a correction. Out of a correction nothing is read as an
  action: the board waits until the pieces match the game again (or one
  knight of the side to move is in a hand), and reads on from there.

Only the legal actions of attila.rules ever change the game. After UNDO,
RESUME or the self-test the pieces must first match the game exactly (the
LEDs show how, one take-back step at a time) before a new action is read.
A piece that lay where the game wanted none is `stray`: it may be any piece,
so its square never counts as matching until it has been emptied.

Reading is the bottom of attila.controller.Controller, the part that
follows the pieces; attila.settling adds the plan and the save (it provides
_changed() and _new_game()), the Controller the inputs, the buttons, the
time and the LEDs.
"""

from attila.compat import const
from attila.geometry import lowest
from attila.rules import MOVE, SCORCH, SETUP
from attila.rules import OVER as ENDED  # the game's phase; OVER here is a mode

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


def _single(mask):
    return mask and not mask & (mask - 1)


class Reading:
    """The pieces on the table against the game.

    plan: the board's own action (attila.plan.Plan) while it plays the side
    to act (`computer`); only that action is read for that side.
    """

    def __init__(self, layout, game, computer, plan):
        self.layout = layout
        self.game = game
        self.computer = computer
        self.plan = plan
        self.mode = CLEAR
        self.mask = -1  # unknown until the first reading
        self.lifted = -1  # square of the knight in the player's hand (PLAY)
        # Squares whose piece the board cannot vouch for: it lay where the game
        # (or the next take-back step) wants none, so it may be any piece. It
        # stays stray until its square reads empty, and no square holding one
        # ever counts as matching the game.
        self.stray = 0
        self.cue = CUE_NONE  # see CUE_*; the port resets it once it has sounded
        self._strict = False  # the board must match the game before any action
        # Take-back steps still to do by hand after UNDO, oldest first: the
        # occupancy, the Roman and Hun knights after each undone action, and
        # its notation. Followed one at a time: on the way back a tile may
        # stand where a knight returns, and the sensors cannot tell them apart.
        self._steps = []  # type: list
        self.again = False  # UNDO pressed again before the take-back was done
        self._unsettled = False  # the game changed since the squares last settled
        self._agreed = False  # OVER: the pieces matched the game at the last reading

    def _changed(self):
        """After every change of the game (attila.settling adds plan and save)."""
        self._unsettled = True

    def _new_game(self):
        """The board is empty in CLEAR: attila.settling starts the new game."""
        raise NotImplementedError

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
        self.again = False

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
                self.again = False
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
