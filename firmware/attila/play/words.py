"""The words of the controller's status line (loaded only when one is asked for).

One line for the player: whose turn, what to do next, what is wrong and how
to fix it. Shown beside the board in the simulator and on the serial log of
a board; the LEDs say the same without words (see attila.play.painter).
"""

from attila.game.geometry import lowest, popcount
from attila.game.notation import in_words
from attila.game.rules import (KNIGHT_NAMES, KNIGHTS, MOVE, MOVED, OVER, PLACED, SCORCH, SETUP,
                               SIDE_NAMES, traps)
from attila.play.modes import CLEAR, CORRECT, GAME_OVER, PLAY, RESUME, SELFTEST


def _single(mask):
    return mask and not mask & (mask - 1)


def _names(layout, mask):
    out = []
    for i in range(layout.size):
        if mask >> i & 1:
            out.append(layout.names[i])
    return out


def _piece_words(i, knights):
    for side in (0, 1):
        if knights[side] >> i & 1:
            return KNIGHT_NAMES[side] + " knight"
    return "tile"


def _join(words):
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def status(c, own):
    """The status line of a controller (`own`: the board plays the side to act)."""
    text = _status(c, own)
    if c.coach is not None and c.coach.verdict and c.mode == PLAY:
        text += " (" + c.coach.words() + ")"
    if c.error:
        text += " [" + c.error + "]"
    more = c.plan.opponent.words() if c.plan.opponent is not None else ""
    return text + " (" + more + ")" if more else text


def _status(c, own):
    if c.missing:
        return "Module %d not answering: check its cable (the game waits)" % c.missing
    game = c.game
    names = c.layout.names
    mode = c.mode
    if mode == SELFTEST:
        return c.test.status()
    if mode == CLEAR:
        if c.mask < 0:  # the squares not read yet (at power-up): no count to give
            return "New game: reading the squares"
        left = _names(c.layout, c.mask)
        coach = c.coach
        menu = "" if coach is None else "; MENU: turn the coach " + ("off" if coach.on else "on")
        return "New game: take every piece off the board (%d left: %s; UNDO: back%s)" % (
            len(left), " ".join(left), menu)
    if mode == RESUME:
        n = len(game.history)
        differ = popcount(c.mask ^ game.occupied()) if c.mask >= 0 else -1
        if differ < 0:  # the squares not read yet: nothing to say about them
            table = "Reading the squares"
        elif differ > 1:
            table = "%d squares differ from it" % differ
        else:
            table = "1 square differs from it" if differ else "The board matches it"
        return "Saved game found (%d action%s, %s). MENU: resume, UNDO: discard. %s" % (
            n, "" if n == 1 else "s", _turn_words(c), table)
    if mode == GAME_OVER:
        w = game.winner
        return "Game over: %s win, %s cannot %s. MENU: new game, UNDO: take back" % (
            SIDE_NAMES[w], SIDE_NAMES[w ^ 1],
            "place a knight" if game.placed(w ^ 1) < KNIGHTS else "move")
    if mode == CORRECT:
        return _fix_words(c, own)
    return _play_words(c, own)


def _play_words(c, own):
    """PLAY: whose turn, and what to do (the board's plan when it is its own)."""
    game = c.game
    names = c.layout.names
    who = SIDE_NAMES[game.side]
    lead = (c.plan.opponent.who % who + ": ") if own and c.plan.opponent is not None \
        else ("The board plays the %s: " % who) if own else (who + ": ")
    tail = ""
    ready = c.plan.told()
    if own and not ready:
        return lead + "thinking..."
    if c.plan.hinting and not own:
        tail = " (hint: %s)" % (_plan_words(c) if ready else "thinking...")
    if game.phase == SETUP:
        if own:
            return lead + "put a knight on %s" % names[c.plan.src]
        return lead + "place a knight on a lit square (knight %d of 3)%s" % (
            game.placed(game.side) + 1, tail)
    if game.phase == SCORCH:
        if own:
            return lead + "put a tile on %s" % names[c.plan.tile]
        return lead + "put a tile on a lit square to scorch it%s" % tail
    a = c.lifted
    if a >= 0:
        if own:
            return lead + "put the knight on %s" % names[c.plan.dst]
        return lead + "put the knight on %s, or back on %s" % (
            _join(_names(c.layout, game.destinations(a))), names[a])
    if own:
        return lead + "lift the knight on %s" % names[c.plan.src]
    return lead + "lift a knight that can move (%s)%s" % (
        " ".join(_names(c.layout, game.movable())), tail)

def decision(c):
    """The board's own action, just decided (controller.decided), said as a whole."""
    game = c.game
    names = c.layout.names
    plan = c.plan
    if game.phase == SETUP:
        text = "@" + names[plan.src]
    else:
        text = "%s-%s,%s" % (names[plan.src], names[plan.dst], names[plan.tile])
    return in_words(game.side, text)


def _turn_words(c):
    game = c.game
    if game.phase == OVER:
        return "%s won" % SIDE_NAMES[game.winner]
    if game.phase == SETUP:
        return "%s to place" % SIDE_NAMES[game.side]
    return "%s to %s" % (SIDE_NAMES[game.side],
                         "scorch" if game.phase == SCORCH else "move")

def _plan_words(c):
    """The planned action (the board's own, or a hint) in words."""
    game = c.game
    names = c.layout.names
    knight = KNIGHT_NAMES[game.side]
    if game.phase == SETUP:
        return "put a %s knight on %s" % (knight, names[c.plan.src])
    if game.phase == SCORCH:
        return "put a tile on %s" % names[c.plan.tile]
    return "move the %s knight on %s to %s, then put a tile on %s" % (
        knight, names[c.plan.src], names[c.plan.dst], names[c.plan.tile])


def _undo_words(c, step):
    """(what UNDO takes back, the piece it took off the board) of a take-back step."""
    _occ, romans, huns, entry = step
    names = c.layout.names
    kind, a, b = entry >> 16, names[entry >> 8 & 0xFF], names[entry & 0xFF]
    if kind == PLACED:
        # Placements alternate from the first side: the count left says whose it was.
        side = c.game.first ^ (popcount(romans | huns) & 1)
        return "the placement on %s" % a, KNIGHT_NAMES[side] + " knight"
    if kind == MOVED:
        return "the move from %s to %s" % (a, b), None
    return "the scorch of %s" % a, "tile"

def _fix_words(c, own):
    """What is wrong and how to fix it, in words."""
    game = c.game
    layout = c.layout
    names = layout.names
    occ = game.occupied()
    knights = game.knights
    steps = c.steps
    if steps:
        occ, knights = steps[0][0], steps[0][1:3]
    m = c.mask
    extra = m & ~occ | c.stray
    missing = occ & ~m
    why = ""
    piece = "piece"  # what lies on the squares to clear, where the game knows it
    if steps:
        undone, taken = _undo_words(c, steps[0])
        why = "Undo %s: " % undone
        if c.again:
            why = "One take-back at a time (UNDO again once it is done). " + why
        piece = taken or piece
    elif not c.strict:
        why = _why(c, extra, missing, own)
    fixes = []
    if _single(extra) and _single(missing):
        b = lowest(missing)
        if steps:
            fixes.append("move the %s on %s back to %s" % (
                _piece_words(b, knights), names[lowest(extra)], names[b]))
        else:
            fixes.append("move the piece on %s to %s (%s)" % (
                names[lowest(extra)], names[b], _piece_words(b, knights)))
    else:
        for i in range(layout.size):
            if extra >> i & 1:
                fixes.append("take the %s off %s" % (piece, names[i]))
        for i in range(layout.size):
            if missing >> i & 1:
                fixes.append("put the %s back on %s" % (_piece_words(i, knights), names[i]))
    return why + "; ".join(fixes)

def _why(c, extra, missing, own):
    """The reason a reading is not an action, where one is simple to say."""
    game = c.game
    names = c.layout.names
    phase = game.phase
    if own:
        if not c.plan.told():
            return "The board is thinking: "
        return "The board plays: %s. First: " % _plan_words(c)
    if phase == SETUP and not missing and _single(extra):
        # Not legal, or it would have been taken: the no-trap rule.
        sq = lowest(extra)
        free = game.free() & ~extra
        if not c.layout.knight[sq] & free:
            return "a knight on %s could not move: " % names[sq]
        stuck = traps(c.layout.knight, game.knights[0] | game.knights[1], free)
        if stuck:
            return "a knight on %s would trap the knight on %s: " % (
                names[sq], names[lowest(stuck)])
    if phase == MOVE and _single(missing):
        a = lowest(missing)
        side = game.side_at(a)
        if side < 0:
            return "%s is scorched: " % names[a]
        if side != game.side:
            return "%s to move, not %s: " % (SIDE_NAMES[game.side], SIDE_NAMES[side])
        if not game.destinations(a):
            return "the knight on %s cannot move: " % names[a]
        # (A jump that is legal came through a correction: no reason to give.)
        if _single(extra) and not game.destinations(a) & extra:
            return "%s to %s is not a knight's jump: " % (names[a], names[lowest(extra)])
    if phase == MOVE and extra and not missing:
        return "move a knight first: "
    return ""
