"""The opponent's search kernel in plain Python: any port, any board.

run(S, R, A, T) goes on with the search in the stack row S (ply records), the
rows R (packed moves, one list per ply) and the root actions A until a root action is scored
or S's pause count of nodes is reached; turns(S, A, T) lists the root's
turns. attila.opponent.search describes the search and drives it; attila.opponent.kernelv is
the same kernel in viper, node for node. T is (knight mask by square bit,
square index by bit, bit by index).
"""

from attila.compat import const
from attila.game.geometry import popcount
from attila.game.rules import KNIGHTS, placement_bits

_WIN = const(10000)
_INF = const(30000)
_BIAS = const(32768)
# The stack row, as in attila.opponent.search.
_NODES = const(0)  # nodes counted in this decision
_PAUSE = const(1)  # run() returns once this many nodes are counted
_SP = const(2)  # ply of the record at work
_CUT = const(3)  # 1 once some leaf was evaluated or a scorch group skipped
_RESULT = const(4)  # score of the root action just searched (biased)
_WIDTH = const(5)  # length of a row of moves
_H = const(6)
# Fields of a ply record (ply p starts at _H + p * _FW).
_ME = const(0)  # knights of the side to act
_OPP = const(1)
_FREE = const(2)
_TILES = const(3)
_DEPTH = const(4)
_ALPHA = const(5)  # biased, as _BETA and _BEST
_BETA = const(6)
_BEST = const(7)
_STATE = const(8)
_N = const(9)  # moves in the row
_I = const(10)  # next move of the row (at the root: the action to search)
_OREACH = const(11)  # squares the opponent's knights reach
_GROUPS = const(12)  # scorch groups to try: 4 exact, 2 inexact
_ME1 = const(13)  # after the move under way: my knights, free squares
_F1 = const(14)
_ORR = const(15)  # scorch groups of the move under way
_MYR = const(16)
_QUIET = const(17)
_ISO = const(18)
_BAD = const(19)  # scorches after which the opponent traps us at once
_G = const(20)  # next scorch group
_CS = const(21)  # scorches left in the group under way
_FW = const(22)
_STARTS = const(13)  # the root record: the knights and squares of root turns
_ENDS = const(14)
# Frame states.
_NEW_PLAY = const(0)  # not counted yet
_NEW_SETUP = const(1)
_PLAY = const(2)  # counted, to expand
_SETUP = const(3)
_MOVES = const(4)
_SCORCHES = const(5)
_PLACES = const(6)
_ROOT = const(7)  # the root: push the child of action _I
_ROOT_WAIT = const(8)


def tables(layout):
    """(knight mask, square index) by square bit, and the bit of each square."""
    kb = {}
    ix = {}
    bit = []
    for i in range(layout.size):
        b = 1 << i
        kb[b] = layout.knight[i]
        ix[b] = i
        bit.append(b)
    return kb, ix, bit


def row(n):
    """A row of n ints (any size: masks of 64 squares too)."""
    return [0] * n


def rows(plies, width):
    """The rows of moves, one list per ply (no block of plies * width in one piece)."""
    return [[0] * width for _ in range(plies)]


def _reach(kb, knights):
    """Union of the knight neighbours of a set of squares."""
    r = 0
    while knights:
        k = knights & -knights
        knights ^= k
        r |= kb[k]
    return r


def _evaluation(kb, me, opp, free):
    """Static score for the side to act: its exits, knights that can move and a
    spare exit, against the opponent's; +6 as it scorches next."""
    score = 6
    sign = 1
    knights = me
    while True:
        while knights:
            k = knights & -knights
            knights ^= k
            x = popcount(kb[k] & free)
            if x:
                score += sign * (8 * x + 30 + (12 if x > 1 else 0))
        if sign < 0:
            return score
        sign = -1
        knights = opp


def turns(S, A, T):
    """Search.turns: the root turns from the root record's position into A; their number."""
    kb, ix, _ = T
    me = S[_H + _ME]
    opp = S[_H + _OPP]
    free = S[_H + _FREE]
    starts = S[_H + _STARTS]
    ends = S[_H + _ENDS]
    oreach = _reach(kb, opp)
    n = 0
    while starts:
        a = starts & -starts
        starts ^= a
        d = kb[a] & free & ends
        while d:
            b = d & -d
            d ^= b
            me1 = me ^ a ^ b
            f1 = (free | a) ^ b
            live = f1 | me1 | opp
            cs = 0
            dead = 0
            q = f1
            while q:
                c = q & -q
                q ^= c
                if kb[c] & live:
                    cs |= c
                else:
                    dead |= c
            cs |= dead & -dead
            orr = oreach & f1
            head = 1 << 18 | ix[a] << 12 | ix[b] << 6
            n = _pack(A, n, head, cs & orr, ix)
            n = _pack(A, n, head, cs & ~orr, ix)
    return n


def _pack(acts, n, head, squares, ix):
    """acts[n:] = head | c for each square c of `squares`, lowest first; the new n."""
    while squares:
        c = squares & -squares
        squares ^= c
        acts[n] = head | ix[c]
        n += 1
    return n


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


def run(S, R, A, T):
    """Search.run's work: 1 when the root action is scored (S[_RESULT]), 0 paused."""
    kb, ix, bit = T
    nodes = S[_NODES]
    pause = S[_PAUSE]
    sp = S[_SP]
    cut = S[_CUT]
    while True:
        f = _H + sp * _FW
        st = S[f + _STATE]
        if st <= _NEW_SETUP:
            # A node is one position visited: count it, and stop here if asked.
            nodes += 1
            S[f + _STATE] = st + 2
            if nodes >= pause:
                S[_NODES] = nodes
                S[_SP] = sp
                S[_CUT] = cut
                return 0
            continue
        push = -1  # kind of the child to push, or -1: value v goes up
        nxt = 0  # state after a row of moves or placements is made
        v = 0
        if st == _SCORCHES:
            cs = S[f + _CS]
            g = S[f + _G]
            while not cs and g < S[f + _GROUPS]:
                if g == 0:
                    cs = S[f + _ORR]
                elif g == 1:
                    cs = S[f + _ISO]
                    cs &= -cs
                elif g == 2:
                    cs = S[f + _QUIET] & ~S[f + _ISO]
                else:
                    cs = S[f + _MYR] & ~S[f + _ORR]
                g += 1
            if not cs:
                S[f + _STATE] = _MOVES
                continue
            c = cs & -cs
            S[f + _CS] = cs ^ c
            S[f + _G] = g
            if c & S[f + _BAD]:
                # Lost in two plies, no node: as if a child had said so.
                v = _WIN - sp - 2
                sp += 1
            else:
                push = _NEW_PLAY
                me = S[f + _OPP]
                opp = S[f + _ME1]
                free = S[f + _F1] ^ c
                tiles = S[f + _TILES] - 1
        elif st == _MOVES:
            me = S[f + _ME]
            opp = S[f + _OPP]
            free = S[f + _FREE]
            i = S[f + _I]
            if i >= S[f + _N]:
                v = S[f + _BEST] - _BIAS
            else:
                S[f + _I] = i + 1
                x = R[sp][i]
                a = bit[x >> 6 & 63]
                b = bit[x & 63]
                me1 = me ^ a ^ b
                f1 = (free | a) ^ b
                orr = S[f + _OREACH] & f1
                myr0 = _reach(kb, me1)
                myr = myr0 & f1
                live = f1 | me1 | opp
                # Scorch groups: the opponent's exits; quiet squares (no knight of
                # mine next to them); squares of my own reach; isolated squares
                # (no knight can ever jump to them: all of them are alike).
                quiet = f1 & ~orr & ~myr
                iso = 0
                q = quiet
                while q:
                    c = q & -q
                    q ^= c
                    if not kb[c] & live:
                        iso |= c
                if S[f + _GROUPS] == 2:
                    # Inexact: the exits and one quiet square standing for the rest.
                    cut = 1
                    if iso:
                        iso &= -iso
                    elif quiet:
                        iso = quiet & -quiet
                    else:
                        iso = myr & ~orr
                        iso &= -iso
                # The trap test: scorches after which the opponent traps me at
                # once. One of its moves leaves my knights one exit (any scorch
                # but on its landing square) or two (a scorch on one of them).
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
                        y = e & (e - 1)
                        if not y:
                            if landing and landing != p:
                                bad = f1
                            landing = p
                        elif not y & (y - 1):
                            bad |= e
                if landing:
                    bad |= f1 & ~landing
                S[f + _ME1] = me1
                S[f + _F1] = f1
                S[f + _ORR] = orr
                S[f + _MYR] = myr
                S[f + _QUIET] = quiet
                S[f + _ISO] = iso
                S[f + _BAD] = bad
                S[f + _G] = 0
                S[f + _CS] = 0
                S[f + _STATE] = _SCORCHES
                continue
        elif st == _PLAY:
            me = S[f + _ME]
            opp = S[f + _OPP]
            free = S[f + _FREE]
            depth = S[f + _DEPTH]
            tiles = S[f + _TILES]
            if tiles <= 0:
                v = sp - _WIN
            else:
                oreach = _reach(kb, opp)
                row = R[sp]
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
                        orr = oreach & f1
                        if not orr & (orr - 1):
                            m = d = 0
                            n = -1  # scorch their last exit: they are stuck
                        elif depth > 0:
                            # Order: fewest opponent exits first, then most own moves.
                            key = popcount(orr) * 16 + 15 - popcount(kb[b] & f1)
                            row[n] = key << 12 | ix[a] << 6 | ix[b]
                            n += 1
                        else:
                            n += 1
                if n < 0 or (n and tiles == 1):
                    v = _WIN - sp - 1  # stuck now, or no tile left for them
                elif not n:
                    v = sp - _WIN
                elif depth <= 0:
                    cut = 1
                    v = _evaluation(kb, me, opp, free)
                else:
                    nfree = popcount(free)
                    S[f + _GROUPS] = 4 if depth >= (nfree if nfree < tiles else tiles) else 2
                    S[f + _OREACH] = oreach
                    nxt = _MOVES
        elif st == _SETUP:
            me = S[f + _ME]
            opp = S[f + _OPP]
            free = S[f + _FREE]
            depth = S[f + _DEPTH]
            cs = placement_bits(kb, me | opp, free)
            if not cs:
                v = sp - _WIN
            elif depth <= 0:
                cut = 1
                v = _evaluation(kb, me, opp, free)
            else:
                row = R[sp]
                n = 0
                while cs:
                    c = cs & -cs
                    cs ^= c
                    # Squares with many exits that also take exits from the opponent first.
                    key = 4 * popcount(kb[c] & free) + 6 * popcount(kb[c] & opp)
                    row[n] = (63 - key if key < 63 else 0) << 6 | ix[c]
                    n += 1
                nxt = _PLACES
        elif st == _PLACES or st == _ROOT:
            me = S[f + _ME]
            opp = S[f + _OPP]
            free = S[f + _FREE]
            tiles = S[f + _TILES]
            x = -1
            if st == _ROOT:
                x = A[S[f + _I]]
                S[f + _STATE] = _ROOT_WAIT
            else:
                i = S[f + _I]
                if i < S[f + _N]:
                    S[f + _I] = i + 1
                    x = R[sp][i] & 63
            if x < 0:
                v = S[f + _BEST] - _BIAS
            elif not x >> 18:
                # A placement; setup goes on until both sides have placed.
                c = bit[x & 63]
                me, opp = opp, me | c
                free ^= c
                push = _NEW_SETUP if popcount(me | opp) < 2 * KNIGHTS else _NEW_PLAY
            else:
                # A turn of the root: a-b, c.
                a = bit[x >> 12 & 63]
                b = bit[x >> 6 & 63]
                me, opp = opp, me ^ a ^ b
                free = ((free | a) ^ b) ^ bit[x & 63]
                tiles -= 1
                push = _NEW_PLAY
        if nxt:
            # Moves or placements in the row, best first.
            _sort(row, n)
            S[f + _N] = n
            S[f + _I] = 0
            S[f + _BEST] = _BIAS - _INF
            S[f + _STATE] = nxt
            continue
        if push >= 0:
            # The child: the other side to act, one ply deeper, the window turned.
            c = f + _FW
            S[c + _ME] = me
            S[c + _OPP] = opp
            S[c + _FREE] = free
            S[c + _TILES] = tiles
            S[c + _DEPTH] = S[f + _DEPTH] - 1
            S[c + _ALPHA] = 2 * _BIAS - S[f + _BETA]
            S[c + _BETA] = 2 * _BIAS - S[f + _ALPHA]
            S[c + _STATE] = push
            sp += 1
            continue
        # Value v of the node at ply sp goes up to its parent.
        while True:
            sp -= 1
            if not sp:
                S[_RESULT] = v + _BIAS
                S[_NODES] = nodes
                S[_SP] = sp
                S[_CUT] = cut
                return 1
            f = _H + sp * _FW
            s = _BIAS - v
            if s > S[f + _BEST]:
                S[f + _BEST] = s
                if s > S[f + _ALPHA]:
                    S[f + _ALPHA] = s
                    if s >= S[f + _BETA]:
                        v = s - _BIAS  # cut off: this node's value goes up too
                        continue
            break
