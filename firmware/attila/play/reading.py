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

Only the legal actions of attila.game.rules ever change the game. After UNDO,
RESUME or the self-test the pieces must first match the game exactly (the
LEDs show how, one take-back step at a time) before a new action is read.
A piece that lay where the game wanted none is `stray`: it may be any piece,
so its square never counts as matching until it has been emptied.

A Reading is the part of an attila.play.controller.Controller that follows the
pieces: the controller owns it and holds the state it reads and changes
(mode, game, mask, lifted, stray, steps, again: the controller's public
state). It tells its controller through changed() after every change of the
game, new_game() once the board is empty in CLEAR and sound(cue) for a cue.
"""

from attila.compat import const
from attila.game.geometry import lowest
from attila.game.rules import MOVE, SCORCH, SETUP
from attila.game.rules import OVER as ENDED  # the game's phase; OVER here is a mode

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
    """The pieces on the table against the controller's game.

    strict: the pieces must match the game before any action is read (after
    UNDO, RESUME, the self-test); the controller sets it.
    """

    def __init__(self, controller):
        self.c = controller
        self.strict = False
        self._agreed = False  # OVER: the pieces matched the game at the last reading

    def expected(self):
        """Occupancy the game expects on the squares right now."""
        c = self.c
        if c.mode == CLEAR:
            return 0
        if c.mode == SELFTEST:
            return c.mask if c.mask >= 0 else 0
        return self.want()

    def want(self):
        """Occupancy of the game as the table should show it, whatever the mode."""
        c = self.c
        if c.steps:
            return c.steps[0][0]  # the next take-back step after UNDO
        occ = c.game.occupied()
        if c.lifted >= 0:
            occ &= ~(1 << c.lifted)
        return occ

    # -- following the game -------------------------------------------------------

    def follow(self):
        """Read the occupancy against the game; carry out what it means.

        Actions are read only from agreement: in PLAY the pieces matched the
        game before this reading. Out of a correction (and after UNDO, RESUME
        or the self-test) the board only waits for the pieces to match the
        game again, or for one knight of the side to move to be in a hand:
        the sensors cannot tell a knight from a tile, so an occupancy reached
        through a correction is never read as an action.
        """
        c = self.c
        mode = c.mode
        if mode == RESUME or mode == SELFTEST:
            return
        if mode == CLEAR:
            if c.mask == 0:
                c.new_game()
            return
        if c.mask < 0:
            return
        c.lifted = -1
        if self.strict:
            self._agree()
        elif mode == PLAY or (mode == OVER and self._agreed and c.settling.unsettled):
            self._read()  # (game over: the last piece may still be sliding)
            if c.mode == CORRECT:
                c.sound(CUE_ILLEGAL)
        else:
            self._agree()

    def ended(self, agreed):
        """Game over: OVER, whatever lies on the board."""
        c = self.c
        if c.mode != OVER:
            c.sound(CUE_OVER)
        c.mode = OVER
        self._agreed = agreed
        self.strict = False
        del c.steps[:]
        c.again = False

    def _agree(self):
        """Back to PLAY once the pieces match the game (or a knight is lifted)."""
        c = self.c
        game = c.game
        m = c.mask
        occ = game.occupied()
        if game.phase == ENDED:
            self.ended(m == occ and not c.stray)
            return
        if c.stray:
            c.mode = CORRECT
            return
        if self.strict:
            steps = c.steps
            n = len(steps)
            while steps and m == steps[0][0]:
                steps.pop(0)
                c.again = False
            if len(steps) < n:
                c.changed()  # those take-backs are on the table now: save
            if steps or m != occ:
                c.mode = CORRECT
                return
            self.strict = False
        missing = occ & ~m
        if m == occ:
            c.mode = PLAY
        elif not m & ~occ and self._liftable(missing):
            c.lifted = lowest(missing)
            c.mode = PLAY
        else:
            c.mode = CORRECT

    def strays(self):
        """Every piece where the game wants none is stray from now on (see stray)."""
        c = self.c
        mode = c.mode
        if mode == PLAY or mode == SELFTEST or c.mask < 0:
            return
        # While the board is cleared, pieces of the old game may stay (UNDO
        # brings it back); only pieces put down meanwhile are stray.
        c.stray |= c.mask & ~self.want()

    def _liftable(self, missing):
        """True when `missing` is one knight the side to move may lift now."""
        c = self.c
        if c.game.phase != MOVE or not _single(missing):
            return False
        if c.own():
            return c.plan.ready() and missing == 1 << c.plan.src
        return bool(c.game.movable() & missing)

    def _read(self):
        """From agreement: the action (or take-back) the reading shows, if any.

        After the game ends, only the last piece put down lifted again before
        the squares settled (a tile slid on over the board) takes the action
        back; after that the pieces no longer matter.
        """
        c = self.c
        for _ in range(8):  # an action, a take-back and an action at most
            game = c.game
            occ = game.occupied()
            m = c.mask
            extra = m & ~occ
            missing = occ & ~m
            if game.phase == ENDED:
                if not extra and not missing:
                    self.ended(True)
                    return
                if not (c.settling.unsettled and self._take_back(missing)):
                    self.ended(False)
                    return
                continue
            if not extra and not missing:
                c.mode = PLAY
                return
            c.mode = CORRECT
            if not self._take_back(missing) and not self._act(extra, missing):
                return

    def _take_back(self, missing):
        """The knight just placed or the tile just put down lifted again (a piece
        slid on across the board, a change of mind): its action is taken back."""
        c = self.c
        game = c.game
        if not _single(missing) or not game.history or game.phase == SCORCH:
            return False
        text = game.describe(game.history[-1])
        if text[0] in "@," and missing == 1 << c.layout.index(text[1:]):
            game.undo()
            c.changed()
            return True
        return False

    def _act(self, extra, missing):
        """Carry out the one legal action the difference shows; True if done."""
        c = self.c
        game = c.game
        own = c.own()
        plan = c.plan
        phase = game.phase
        if phase == SETUP:
            if missing or not _single(extra):
                return False
            legal = (1 << plan.src if plan.src >= 0 else 0) if own else game.placements()
            if not extra & legal:
                return False
            game.place(lowest(extra))
        elif phase == MOVE:
            if not _single(missing):
                return False
            a = lowest(missing)
            if own:
                if a != plan.src:
                    return False
            elif not game.movable() >> a & 1:
                return False
            if not extra:
                c.lifted = a
                c.mode = PLAY
                return False
            if not _single(extra):
                return False
            b = lowest(extra)
            if own:
                if b != plan.dst:
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
                    c.changed()
                    return True
                return False
            if not _single(extra):
                return False
            legal = (1 << plan.tile if plan.tile >= 0 else 0) if own else game.scorchable()
            if not extra & legal:
                return False
            game.scorch(lowest(extra))
        c.changed()
        c.sound(CUE_PLACED)
        return True
