"""The computer opponent: a placement or a whole turn for the side to act.

    choose(game, level=STRONG, budget_ms=2000) -> "@b1" or "b1-c3,d4"

Alpha-beta negamax on bitboards with iterative deepening under a time budget
and a node budget. Where the search is cut off, an evaluation counts knight
moves (mobility) and knights that can still move. Once the game's remaining
turns fit under the search depth (few free squares left) every scorch is
tried and the result is exact, so a forced win at the end is never missed.
In deeper, inexact parts only the scorches that take an exit from the
opponent, plus one quiet square, are tried.

Small on the heap: no tables; the search keeps its state in ints and a few
lists made once per decision, and the hot path allocates nothing on boards
of up to 30 squares (masks are small ints). Levels below STRONG search
shallower and add noise from a seeded LCG (not `random`), so they are
beatable and still reproducible.
"""

from attila.compat import const
from attila.errors import IllegalAction
from attila.rules import KNIGHTS, MOVE, SCORCH, SETUP

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
_EXACT = (2, 4, 6, 8)  # with this many turns left at most, go straight for the end

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
    """Next number in 0..n-1 from the module's LCG (Numerical Recipes constants)."""
    s = (_seed[0] * 1664525 + 1013904223) & 0x3FFFFFFF
    _seed[0] = s
    return (s >> 8) % n if n > 0 else 0


def _tick():
    global _stop
    if _nodes >= _max_nodes:
        _stop = True
    elif _clock is None:
        if ticks_diff(ticks_ms(), _t0) >= _budget:
            _stop = True
    elif _clock() - _t0 >= _budget:
        _stop = True


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
    # Insertion sort of the packed moves by their key.
    i = 1
    while i < n:
        v = row[i]
        j = i - 1
        while j >= 0 and row[j] > v:
            row[j + 1] = row[j]
            j -= 1
        row[j + 1] = v
        i += 1
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
        myr = _reach(me1) & f1
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
    kb = _kb
    knights = me | opp
    out = 0
    cs = free
    while cs:
        c = cs & -cs
        cs ^= c
        after = free ^ c
        if not kb[c] & after:
            continue
        k = knights
        ok = True
        while k:
            x = k & -k
            k ^= x
            if not kb[x] & after:
                ok = False
                break
        if ok:
            out |= c
    return out


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
    i = 1
    while i < n:
        v = row[i]
        j = i - 1
        while j >= 0 and row[j] > v:
            row[j + 1] = row[j]
            j -= 1
        row[j + 1] = v
        i += 1
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
    if _layout[0] is not layout:
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
    width = max(3 * 8, layout.size)
    if _rows and len(_rows[0]) < width:
        _rows = []
    while len(_rows) < plies:
        _rows.append([0] * width)


def _root_actions(game):
    """Every action worth trying at the root, as (me', opp', free', kind, a, b, c).

    kind 0: placement on c; kind 1: turn a-b,c. Scorch squares no knight can
    jump to are all alike, so one stands for them.
    """
    side = game.side
    me = game.knights[side]
    opp = game.knights[side ^ 1]
    free = game.free()
    kb = _kb
    out = []
    if game.phase == SETUP:
        cs = _placements(me, opp, free)
        while cs:
            c = cs & -cs
            cs ^= c
            out.append((me | c, opp, free ^ c, 0, -1, -1, _ix[c]))
        return out
    if game.phase == SCORCH:
        entry = game.history[-1]
        starts = (1 << (entry >> 8 & 0xFF),)  # type: tuple | list
        ends = 1 << (entry & 0xFF)
        me = me ^ starts[0] ^ ends
        free = (free | ends) ^ starts[0]  # back to before the move
    else:
        starts = []
        m = me
        while m:
            a = m & -m
            m ^= a
            starts.append(a)
        ends = -1
    for a in starts:
        d = kb[a] & free & ends
        while d:
            b = d & -d
            d ^= b
            me1 = me ^ a ^ b
            f1 = (free | a) ^ b
            live = f1 | me1 | opp
            cs = f1 & ~_isolated(f1, live)
            dead = f1 & ~cs
            if dead:
                cs |= dead & -dead
            orr = _reach(opp) & f1
            # Exits of the opponent first.
            for part in (cs & orr, cs & ~orr):
                while part:
                    c = part & -part
                    part ^= c
                    out.append((me1, opp, f1 ^ c, 1, _ix[a], _ix[b], _ix[c]))
    return out


def _text(layout, action):
    names = layout.names
    if action[3] == 0:
        return "@" + names[action[6]]
    return names[action[4]] + "-" + names[action[5]] + "," + names[action[6]]


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
        _seed[0] = seed & 0x3FFFFFFF
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
    setup = game.phase == SETUP
    tiles = game.tiles()
    free = game.free()
    left = 2 * KNIGHTS - _pop(game.knights[0] | game.knights[1])
    # Plies until the end can come at the latest: the search is exact beyond.
    if setup:
        turns = _pop(free) - left
        horizon = left + (turns if turns < tiles else tiles)
    else:
        nfree = _pop(free)
        horizon = nfree if nfree < tiles else tiles
    _prepare(layout, horizon + 2)
    noise = _NOISE[level]
    order = list(range(len(actions)))
    best_i = order[0]
    top = _DEPTH[level]
    exact_at = _EXACT[level]
    depth = horizon if horizon <= 4 and horizon <= exact_at else 1
    while True:
        _cut = False
        alpha = -_INF
        it_best = -1
        it_score = -_INF
        for k in range(len(order)):
            i = order[k]
            me1, opp1, f1, kind, a, b, c = actions[i]
            if kind == 0:
                s = -_child_of_placement(me1, opp1, f1, tiles, depth - 1, -_INF, -alpha, 1)
            else:
                s = -_play(opp1, me1, f1, tiles - 1, depth - 1, -_INF, -alpha, 1)
            if _stop:
                break
            if noise and -_DECIDED < s < _DECIDED:
                s += _rand(2 * noise + 1) - noise
            if s > it_score:
                it_score = s
                it_best = i
                if s > alpha:
                    alpha = s
        if it_best >= 0:
            best_i = it_best
            order.remove(it_best)
            order.insert(0, it_best)
        exact = not _cut and not _stop
        if _stop or exact or depth >= top or depth >= horizon:
            break
        depth = horizon if horizon <= exact_at else depth + 1
    return _text(layout, actions[best_i])


def stats():
    """(nodes searched, whether the last decision stopped on its budget)."""
    return _nodes, _stop
