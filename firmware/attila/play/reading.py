"""What a reading of the squares means for the game: queries that change nothing.

The sensors cannot tell a knight from a tile, so an occupancy (a bitmask)
only means something against the game followed. act() (from agreement)
and agree() (out of a correction) say what it means as one int, a meaning: its kind in the low 3 bits, a square above (<< 3)
and a second one (<< 9); the controller applies it (attila.play.controller).
How the board reads pieces: docs/pages/play/leds.md.
"""

from attila.compat import const
from attila.game.geometry import lowest
from attila.game.rules import MOVE, MOVED, OVER, SCORCH, SETUP

MATCH = const(0)  # the pieces match the game
LIFTED = const(1)  # one knight of the side to move is in a hand (its square)
WRONG = const(2)  # the pieces differ: a correction
PLACE = const(3)  # a knight put on a setup square it may take (its square)
JUMP = const(4)  # a knight moved as it may (from, to)
BURN = const(5)  # a tile put on a square it may scorch (its square)
TAKE_BACK = const(6)  # the last action's piece lifted again: take that action back
UNDONE = const(7)  # this many of UNDO's take-back steps are on the table now
KIND = const(7)  # meaning & KIND: the kind
_SQUARE = const(63)


def square(meaning):
    """The (first) square of a meaning."""
    return meaning >> 3 & _SQUARE


def second(meaning):
    """The second square of a meaning (a jump's landing)."""
    return meaning >> 9 & _SQUARE


def _single(mask):
    return mask and not mask & (mask - 1)


def want(game, lifted, steps):
    """Occupancy of the game as the table should show it: the next take-back
    step after UNDO (steps: oldest first), else the game without the knight
    on `lifted` (-1: none)."""
    if steps:
        return steps[0][0]
    occ = game.occupied()
    if lifted >= 0:
        occ &= ~(1 << lifted)
    return occ


def agree(game, mask, stray, steps, plan):
    """Out of a correction (or in a game over): whether the pieces match the
    game again (MATCH) or one knight of the side to move is in a hand
    (LIFTED), else WRONG; an occupancy reached through a correction is never
    read as an action. Stray pieces (never vouched for) are WRONG until gone.
    steps: None, or UNDO's take-back steps when the pieces must match them
    one by one (UNDONE) and then the game exactly (strict: after UNDO,
    RESUME, the self-test). plan: the board's action when the side to act is
    the board's, else None."""
    occ = game.occupied()
    if game.phase == OVER:
        return MATCH if mask == occ and not stray else WRONG
    if stray:
        return WRONG
    if steps is not None:
        if steps and mask == steps[0][0]:
            return UNDONE | _undone(steps, mask) << 3
        if steps or mask != occ:
            return WRONG
    if mask == occ:
        return MATCH
    missing = occ & ~mask
    if not mask & ~occ and game.phase == MOVE and _single(missing):
        if plan is not None:
            if plan.src >= 0 and missing == 1 << plan.src:
                return LIFTED | plan.src << 3
        elif game.movable() & missing:
            return LIFTED | lowest(missing) << 3
    return WRONG


def _undone(steps, mask):
    """How many of the take-back steps, oldest first, the table shows done."""
    n = 0
    while n < len(steps) and mask == steps[n][0]:
        n += 1
    return n


def act(game, mask, plan, unsettled):
    """From agreement: what the reading shows, a step at a time: MATCH,
    LIFTED, an action (PLACE, JUMP, BURN) or TAKE_BACK, else WRONG. A game
    over takes back only the last piece put down, lifted again before the
    squares settled (`unsettled`: a tile slid on over the board). plan: as
    for agree(); the board's own actions are its plan's squares only."""
    occ = game.occupied()
    missing = occ & ~mask
    if mask == occ:
        return MATCH
    if game.phase == OVER:
        return TAKE_BACK if unsettled and _taken_back(game, missing) else WRONG
    if _taken_back(game, missing):
        return TAKE_BACK
    if game.phase == SETUP:
        return _placement(game, mask & ~occ, missing, plan)
    if game.phase == MOVE:
        return _jump(game, mask & ~occ, missing, plan)
    return _scorch(game, mask & ~occ, missing, plan)


def _taken_back(game, missing):
    """True when the knight just placed or the tile just put down is lifted
    again (a piece slid on across the board, a change of mind)."""
    if not _single(missing) or not game.history or game.phase == SCORCH:
        return False
    last = game.history[-1]
    return last >> 16 != MOVED and missing == 1 << (last >> 8 & 0xFF)


def _placement(game, extra, missing, plan):
    if missing or not _single(extra):
        return WRONG
    if plan is not None:
        legal = 1 << plan.src if plan.src >= 0 else 0
    else:
        legal = game.placements()
    return PLACE | lowest(extra) << 3 if extra & legal else WRONG


def _jump(game, extra, missing, plan):
    if not _single(missing):
        return WRONG
    a = lowest(missing)
    if plan is not None:
        if a != plan.src:
            return WRONG
    elif not game.movable() >> a & 1:
        return WRONG
    if not extra:
        return LIFTED | a << 3
    if not _single(extra):
        return WRONG
    b = lowest(extra)
    if plan is not None:
        if b != plan.dst:
            return WRONG
    elif not game.destinations(a) >> b & 1:
        return WRONG
    return JUMP | a << 3 | b << 9


def _scorch(game, extra, missing, plan):
    if missing:
        # The knight that just moved is in a hand again: its move is taken
        # back, so it can go elsewhere (or home).
        return TAKE_BACK if missing == 1 << game.lifted else WRONG
    if not _single(extra):
        return WRONG
    if plan is not None:
        legal = 1 << plan.tile if plan.tile >= 0 else 0
    else:
        legal = game.scorchable()
    return BURN | lowest(extra) << 3 if extra & legal else WRONG
