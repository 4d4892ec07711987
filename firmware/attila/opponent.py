"""The computer opponent: a placement or a whole turn for the side to act.

    choose(game, level=STRONG, budget_ms=2000) -> "@b1" or "b1-c3,d4"

Alpha-beta negamax on bitboards with iterative deepening under a time budget
and a node budget. Where the search is cut off, an evaluation counts knight
moves (mobility) and knights that can still move. Once the game's remaining
turns fit under the search depth (few free squares left) every scorch is
tried and the result is exact, so a forced win at the end is never missed.
In deeper, inexact parts only the scorches that take an exit from the
opponent, plus one quiet square, are tried.

Small on the heap: no transposition table; the search keeps its state in
ints, two small dicts per layout and scratch rows made once, and the hot path
allocates nothing on boards of up to 30 squares (masks are small ints on a
32-bit board). Levels below STRONG search
shallower and add noise from a seeded LCG (not `random`), so they are
beatable and still reproducible.
"""

from attila.compat import const
from attila.errors import IllegalAction
from attila.rules import KNIGHTS, MOVE, SCORCH, SETUP, placement_bits

try:
    from time import ticks_diff, ticks_ms
except ImportError:  # CPython
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000)  # type: ignore[attr-defined]

    def ticks_diff(a, b):  # type: ignore[no-redef]
        return a - b


BEGINNER = const(0)
EASY = const(1)
NORMAL = const(2)
STRONG = const(3)
LEVEL_NAMES = ("beginner", "easy", "normal", "strong")
_DEPTH = (1, 2, 3, 64)  # deepest iteration per level, in plies
_NOISE = (60, 16, 4, 0)  # score noise per level (a knight move is worth 8)
_NODES = (2000, 8000, 30000, 400000)  # node budget per level
_EXACT = (1, 3, 5, 7)  # with this many turns left at most, go straight for the end

_WIN = const(10000)
_DECIDED = const(9000)  # |score| above this: a forced result
_INF = const(30000)

# Search state of the decision under way (module level: no allocation).
_kb = {}  # type: dict  # single-bit mask -> knight neighbours
_ix = {}  # type: dict  # single-bit mask -> square index
_bit = []  # type: list  # square index -> single-bit mask
_rows = []  # type: list  # per ply: a scratch row of packed moves
_nodes = 0
_max_nodes = 0
_stop = False
_clock = None
_t0 = 0
_budget = 0
_cut = False  # some leaf of the current iteration was evaluated, not solved
_seed = [12345]
_POP = bytes(bin(i).count("1") for i in range(256))


def _pop(m):
    n = 0
    while m:
        n += _POP[m & 255]
        m >>= 8
    return n


def _reach(knights):
    """Union of the knight neighbours of a set of squares."""
    kb = _kb
    r = 0
    while knights:
        k = knights & -knights
        knights ^= k
        r |= kb[k]
    return r


def _rand(n):
    """Next number in 0..n-1 from the module's LCG (the ZX81's: small ints only)."""
    s = (_seed[0] * 75 + 74) % 65537
    _seed[0] = s
    return s % n if n > 0 else 0


def _tick():
    global _stop
    if _nodes >= _max_nodes:
        _stop = True
    elif _clock is None:
        if ticks_diff(ticks_ms(), _t0) >= _budget:
            _stop = True
    elif _clock() - _t0 >= _budget:
        _stop = True


def _sort(row, n):
    """Insertion sort of row[:n] in place: short rows, no allocation."""
    i = 1
    while i < n:
        v = row[i]
        j = i - 1
        while j >= 0 and row[j] > v:
            row[j + 1] = row[j]
            j -= 1
        row[j + 1] = v
        i += 1


def _eval(me, opp, free):
    """Static score for the side to act: mobility and knights that can move."""
    kb = _kb
    score = 6  # the side to act scorches next
    m = me
    while m:
        k = m & -m
        m ^= k
        x = _pop(kb[k] & free)
        score += 8 * x + (30 if x else 0) + (12 if x > 1 else 0)
    m = opp
    while m:
        k = m & -m
        m ^= k
        x = _pop(kb[k] & free)
        score -= 8 * x + (30 if x else 0) + (12 if x > 1 else 0)
    return score


def _play(me, opp, free, tiles, depth, alpha, beta, ply):
    """Negamax score of a position in play, `me` to act."""
    global _nodes, _cut
    _nodes += 1
    if not _nodes & 7:
        _tick()
    if _stop:
        return 0
    if tiles <= 0:
        return ply - _WIN
    kb = _kb
    ix = _ix
    oreach0 = _reach(opp)
    row = _rows[ply]
    n = 0
    m = me
    while m:
        a = m & -m
        m ^= a
        d = kb[a] & free
        while d:
            b = d & -d
            d ^= b
            f1 = (free | a) ^ b
            orr = oreach0 & f1
            if not orr & (orr - 1):
                return _WIN - ply - 1  # scorch their last exit: they are stuck
            if depth > 0:
                # Order: fewest opponent exits first, then most own moves.
                key = _pop(orr) * 16 + 15 - min(15, _pop(kb[b] & f1))
                row[n] = key << 12 | ix[a] << 6 | ix[b]
            n += 1
    if not n:
        return ply - _WIN
    if tiles == 1:
        return _WIN - ply - 1  # they will have no tile to scorch with
    nfree = _pop(free)
    exact = depth >= (nfree if nfree < tiles else tiles)
    if depth <= 0:
        _cut = True
        return _eval(me, opp, free)
    _sort(row, n)
    best = -_INF
    bit = _bit
    i = 0
    while i < n:
        v = row[i]
        i += 1
        a = bit[v >> 6 & 63]
        b = bit[v & 63]
        me1 = me ^ a ^ b
        f1 = (free | a) ^ b
        orr = oreach0 & f1
        myr0 = _reach(me1)
        myr = myr0 & f1
        live = f1 | me1 | opp
        # Scorch groups: the opponent's exits; quiet squares (no knight of
        # mine next to them); squares of my own reach; one isolated square
        # (no knight can ever jump to it: all of them are alike).
        quiet = f1 & ~orr & ~myr
        iso = _isolated(quiet, live)
        if exact:
            groups = 4
        else:
            # Inexact: the exits and one quiet square standing for the rest.
            _cut = True
            groups = 2
            if iso:
                iso = iso & -iso
            elif quiet:
                iso = quiet & -quiet
            else:
                iso = myr & ~orr
                iso = iso & -iso
        # Scorches after which the opponent traps me at once: one of its
        # moves leaves my knights one exit (any scorch but on its landing
        # square) or two (a scorch on one of them).
        bad = 0
        landing = 0
        o_all = opp
        while o_all:
            o = o_all & -o_all
            o_all ^= o
            d = kb[o] & f1
            while d:
                p = d & -d
                d ^= p
                e = myr0 & ((f1 | o) ^ p)
                x = e & (e - 1)
                if not x:
                    if landing and landing != p:
                        bad = f1
                    landing = p
                elif not x & (x - 1):
                    bad |= e
        if landing:
            bad |= f1 & ~landing
        g = 0
        while g < groups:
            if g == 0:
                cs = orr
            elif g == 1:
                cs = iso & -iso if exact else iso
            elif g == 2:
                cs = quiet & ~iso
            else:
                cs = myr & ~orr
            g += 1
            while cs:
                c = cs & -cs
                cs ^= c
                if c & bad:
                    s = ply + 2 - _WIN
                else:
                    s = -_play(opp, me1, f1 ^ c, tiles - 1, depth - 1, -beta, -alpha, ply + 1)
                    if _stop:
                        return 0
                if s > best:
                    best = s
                    if s > alpha:
                        alpha = s
                        if alpha >= beta:
                            return best
    return best


def _isolated(squares, live):
    """The squares (of `squares`) with no knight neighbour among `live`."""
    kb = _kb
    out = 0
    while squares:
        c = squares & -squares
        squares ^= c
        if not kb[c] & live:
            out |= c
    return out


def _placements(me, opp, free):
    """Legal setup squares for the side to place."""
    return placement_bits(_kb, me | opp, free)


def _setup(me, opp, free, tiles, depth, alpha, beta, ply):
    """Negamax score of a setup position, `me` to place."""
    global _nodes, _cut
    _nodes += 1
    if not _nodes & 7:
        _tick()
    if _stop:
        return 0
    cs = _placements(me, opp, free)
    if not cs:
        return ply - _WIN
    if depth <= 0:
        _cut = True
        return _eval(me, opp, free)
    kb = _kb
    row = _rows[ply]
    n = 0
    while cs:
        c = cs & -cs
        cs ^= c
        # Squares with many exits that also take exits from the opponent first.
        key = 63 - min(63, 4 * _pop(kb[c] & free) + 6 * _pop(kb[c] & opp))
        row[n] = key << 6 | _ix[c]
        n += 1
    _sort(row, n)
    best = -_INF
    i = 0
    while i < n:
        c = _bit[row[i] & 63]
        i += 1
        s = -_child_of_placement(me | c, opp, free ^ c, tiles, depth - 1, -beta, -alpha, ply + 1)
        if _stop:
            return 0
        if s > best:
            best = s
            if s > alpha:
                alpha = s
                if alpha >= beta:
                    return best
    return best


def _child_of_placement(me, opp, free, tiles, depth, alpha, beta, ply):
    """Score for the opponent after `me` placed (setup goes on, or play starts)."""
    if _pop(me | opp) < 2 * KNIGHTS:
        return _setup(opp, me, free, tiles, depth, alpha, beta, ply)
    # The last knight is placed by the second player; the first moves first.
    return _play(opp, me, free, tiles, depth, alpha, beta, ply)


_layout = [None]


def _prepare(layout, plies):
    """Square tables for the layout and scratch rows for `plies` plies."""
    global _kb, _ix, _bit, _rows
    if _layout[0] is not layout and _layout[0] != layout:
        _layout[0] = layout
        _kb = {}
        _ix = {}
        _bit = []
        for i in range(layout.size):
            b = 1 << i
            _kb[b] = layout.knight[i]
            _ix[b] = i
            _bit.append(b)
        _rows = []
    _layout[0] = layout
    width = max(3 * 8, layout.size)
    if _rows and len(_rows[0]) < width:
        _rows = []
    while len(_rows) < plies:
        _rows.append([0] * width)


def _root_actions(game):
    """Every action worth trying at the root, packed as ints.

    kind << 18 | a << 12 | b << 6 | c: kind 0 a placement on c, kind 1 the
    turn a-b,c. Scorch squares no knight can jump to are all alike, so one
    stands for them; the opponent's exits come first.
    """
    side = game.side
    me = game.knights[side]
    opp = game.knights[side ^ 1]
    free = game.free()
    kb = _kb
    ix = _ix
    out = []
    if game.phase == SETUP:
        cs = _placements(me, opp, free)
        while cs:
            c = cs & -cs
            cs ^= c
            out.append(ix[c])
        return out
    if game.phase == SCORCH:
        entry = game.history[-1]
        starts = 1 << (entry >> 8 & 0xFF)
        ends = 1 << (entry & 0xFF)
        me = me ^ starts ^ ends
        free = (free | ends) ^ starts  # back to before the move
    else:
        starts = me
        ends = -1
    oreach = _reach(opp)
    while starts:
        a = starts & -starts
        starts ^= a
        d = kb[a] & free & ends
        while d:
            b = d & -d
            d ^= b
            me1 = me ^ a ^ b
            f1 = (free | a) ^ b
            cs = f1 & ~_isolated(f1, f1 | me1 | opp)
            dead = f1 & ~cs
            if dead:
                cs |= dead & -dead
            orr = oreach & f1
            head = 1 << 18 | ix[a] << 12 | ix[b] << 6
            part = cs & orr
            while part:
                c = part & -part
                part ^= c
                out.append(head | ix[c])
            part = cs & ~orr
            while part:
                c = part & -part
                part ^= c
                out.append(head | ix[c])
    return out


def _text(layout, action):
    names = layout.names
    c = names[action & 63]
    if not action >> 18:
        return "@" + c
    return names[action >> 12 & 63] + "-" + names[action >> 6 & 63] + "," + c


def choose(game, level=STRONG, budget_ms=2000, clock=None, seed=None, nodes=None):
    """The action the computer plays for the side to act, as text.

    level: BEGINNER..STRONG (0..3). budget_ms: time for the decision, read
    from `clock` (a function returning milliseconds; default the board's
    ticks). nodes: node budget (default per level). seed: reseeds the LCG
    behind the lower levels' noise. In the scorch step of a turn the answer
    is the whole turn, the move already made included. IllegalAction when
    the game is over.
    """
    global _nodes, _max_nodes, _stop, _clock, _t0, _budget, _cut
    if game.phase not in (SETUP, MOVE, SCORCH):
        raise IllegalAction("the game is over: nothing to choose")
    level = max(BEGINNER, min(STRONG, level))
    if seed is not None:
        _seed[0] = seed % 65537
    layout = game.layout
    _clock = clock
    _t0 = clock() if clock is not None else ticks_ms()
    _budget = budget_ms
    _nodes = 0
    _max_nodes = nodes if nodes is not None else _NODES[level]
    _stop = False
    _prepare(layout, 1)
    actions = _root_actions(game)
    if not actions:
        raise IllegalAction("no legal action for %s" % "RH"[game.side])
    side = game.side
    me = game.knights[side]
    opp = game.knights[side ^ 1]
    free = game.free()
    if game.phase == SCORCH:
        entry = game.history[-1]
        a = 1 << (entry >> 8 & 0xFF)
        b = 1 << (entry & 0xFF)
        me = me ^ a ^ b
        free = (free | b) ^ a
    tiles = game.tiles()
    left = 2 * KNIGHTS - _pop(me | opp)
    # Plies until the end can come at the latest: the search is exact beyond.
    nfree = _pop(free)
    if game.phase == SETUP:
        turns = nfree - left
        horizon = left + (turns if turns < tiles else tiles)
    else:
        horizon = nfree if nfree < tiles else tiles
    _prepare(layout, horizon + 2)
    bit = _bit
    noise = _NOISE[level]
    top = _DEPTH[level]
    exact_at = _EXACT[level]
    depth = horizon if horizon <= 4 and horizon <= exact_at else 1
    count = len(actions)
    while True:
        _cut = False
        alpha = -_INF
        it_best = -1
        it_score = -_INF
        k = 0
        while k < count:
            v = actions[k]
            c = bit[v & 63]
            if not v >> 18:
                s = -_child_of_placement(me | c, opp, free ^ c, tiles, depth - 1,
                                         -_INF, -alpha, 1)
            else:
                a = bit[v >> 12 & 63]
                b = bit[v >> 6 & 63]
                s = -_play(opp, me ^ a ^ b, ((free | a) ^ b) ^ c, tiles - 1, depth - 1,
                           -_INF, -alpha, 1)
            if _stop:
                break
            if noise and -_DECIDED < s < _DECIDED:
                s += _rand(2 * noise + 1) - noise
            if s > it_score:
                it_score = s
                it_best = k
                if s > alpha:
                    alpha = s
            k += 1
        if it_best > 0:
            # The best so far is searched first next time.
            v = actions.pop(it_best)
            actions.insert(0, v)
        exact = not _cut and not _stop
        if _stop or exact or depth >= top or depth >= horizon:
            break
        depth = horizon if horizon <= exact_at else depth + 1
    return _text(layout, actions[0])


def chooser(level=STRONG, budget_ms=2000):
    """The callable a Controller asks for the board's own turns and for hints."""

    def pick(game):
        return choose(game, level, budget_ms)

    return pick


def stats():
    """(nodes searched, whether the last decision stopped on its budget)."""
    return _nodes, _stop
