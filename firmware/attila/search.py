"""The opponent's search: alpha-beta negamax on bitboards that can stop after any node.

Search(layout) holds what one layout needs, made once: the square tables,
a stack of frames (one per ply, ints in one flat row) and a row of packed
moves per ply. The negamax is iterative: a frame says what its node does
next (count itself, expand, try the next move, the next scorch, the next
placement), so run(pause) can return after any node and go on at the next
call, and nothing is allocated while it runs (boards of up to 30 squares:
masks are small ints on a 32-bit board).

What a node does (unchanged from the recursive search it replaces):
- play: a move that leaves the opponent's knights one exit wins at once (we
  scorch it); with depth left, moves are ordered (fewest opponent exits,
  then most own moves) and each move's scorches are tried in groups: the
  opponent's exits, one isolated square (no knight can ever land there: all
  alike), then, where the result is exact (the game's remaining turns fit
  under the depth), the other quiet squares and the squares of our own
  reach. Inexact, one quiet square stands for the rest. A scorch after which
  the opponent traps us on the spot (the trap test) scores as lost without
  a node.
- setup: legal placements (the no-trap rule), most exits first.
- at depth 0: the mobility evaluation.

The root (ply 0) is the Planner's (attila.opponent): it hands run() one root
action at a time and gets its score back. searchv.py is the same search as a
viper kernel over arrays; both must visit the same nodes in the same order.
"""

from attila.compat import const
from attila.rules import KNIGHTS, placement_bits

WIN = const(10000)
INF = const(30000)
BIAS = const(32768)  # scores are kept biased, so that every stored value is >= 0

# Header of the stack row.
_NODES = const(0)  # nodes counted in this decision
_PAUSE = const(1)  # run() returns once this many nodes are counted
_SP = const(2)  # ply of the frame at work
_CUT = const(3)  # 1 once some leaf was evaluated or a scorch group skipped
_RESULT = const(4)  # score of the root action just searched (biased)
_WIDTH = const(5)  # length of a row of moves
_H = const(6)
# Fields of a frame (ply p starts at _H + p * _FW).
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


class Search:
    """One layout's search: tables, stack and rows, made once and reused."""

    def __init__(self, layout):
        self.layout = layout
        self.width = max(3 * 8, layout.size)  # a row: every move, or every square
        self.plies = 0
        self.stack = self.rows = self.acts = None
        self.nodes = 0
        self.score = 0
        self.cut = False
        self._tables(layout)

    def _tables(self, layout):
        self.kb = {}
        self.ix = {}
        self.bit = []
        for i in range(layout.size):
            b = 1 << i
            self.kb[b] = layout.knight[i]
            self.ix[b] = i
            self.bit.append(b)

    def _row(self, n):
        return [0] * n

    def ensure(self, plies, actions):
        """Room for `plies` frames and `actions` root actions (grows, never shrinks)."""
        if plies > self.plies:
            self.plies = plies
            self.stack = self._row(_H + plies * _FW)
            self.stack[_WIDTH] = self.width
            self.rows = self._row(plies * self.width)
        if self.acts is None or len(self.acts) < actions:
            self.acts = self._row(actions)

    def root(self, me, opp, free, tiles):
        """A new decision from this position (the side `me` to act)."""
        s = self.stack
        s[_NODES] = 0
        s[_H + _ME] = me
        s[_H + _OPP] = opp
        s[_H + _FREE] = free
        s[_H + _TILES] = tiles
        s[_H + _BETA] = BIAS + INF
        self.nodes = 0

    def child(self, k, depth, alpha):
        """Search root action k (self.acts[k]) at `depth` with the root's alpha next."""
        s = self.stack
        s[_SP] = 0
        s[_H + _DEPTH] = depth
        s[_H + _ALPHA] = alpha + BIAS
        s[_H + _I] = k
        s[_H + _STATE] = _ROOT

    def clear_cut(self):
        self.stack[_CUT] = 0
        self.cut = False

    def run(self, pause):
        """Search on until `pause` nodes are counted (False) or the root action is scored (True).

        The score, for the side that took the root action, is then in self.score.
        """
        s = self.stack
        s[_PAUSE] = pause
        done = self._kernel(s)
        self.nodes = s[_NODES]
        self.cut = s[_CUT] != 0
        if done:
            self.score = BIAS - s[_RESULT]
        return done

    def _kernel(self, s):
        return _run(s, self.rows, self.acts, self.kb, self.ix, self.bit)


def _pop(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


def _reach(kb, knights):
    """Union of the knight neighbours of a set of squares."""
    r = 0
    while knights:
        k = knights & -knights
        knights ^= k
        r |= kb[k]
    return r


def _mobility(kb, knights, free):
    """The evaluation's share of one side: exits, knights that can move, and a spare exit."""
    score = 0
    while knights:
        k = knights & -knights
        knights ^= k
        x = _pop(kb[k] & free)
        score += 8 * x + (30 if x else 0) + (12 if x > 1 else 0)
    return score


def _sort(row, lo, n):
    """Insertion sort of row[lo:lo + n] in place: short rows, no allocation."""
    i = lo + 1
    end = lo + n
    while i < end:
        v = row[i]
        j = i - 1
        while j >= lo and row[j] > v:
            row[j + 1] = row[j]
            j -= 1
        row[j + 1] = v
        i += 1


def _run(S, R, A, kb, ix, bit):
    """The portable kernel: see Search.run (the frames are in S, the rows in R)."""
    W = S[_WIDTH]
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
                return False
            continue
        me = S[f + _ME]
        opp = S[f + _OPP]
        free = S[f + _FREE]
        depth = S[f + _DEPTH]
        push = -1  # kind of the child to push, or -1: value v goes up
        v = 0
        if st == _PLAY:
            tiles = S[f + _TILES]
            if tiles <= 0:
                v = sp - WIN
            else:
                oreach = _reach(kb, opp)
                row = sp * W
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
                            key = _pop(orr) * 16 + 15 - _pop(kb[b] & f1)
                            R[row + n] = key << 12 | ix[a] << 6 | ix[b]
                            n += 1
                        else:
                            n += 1
                if n < 0 or (n and tiles == 1):
                    v = WIN - sp - 1  # stuck now, or no tile left for them
                elif not n:
                    v = sp - WIN
                elif depth <= 0:
                    cut = 1
                    v = 6 + _mobility(kb, me, free) - _mobility(kb, opp, free)
                else:
                    nfree = _pop(free)
                    S[f + _GROUPS] = 4 if depth >= (nfree if nfree < tiles else tiles) else 2
                    _sort(R, row, n)
                    S[f + _OREACH] = oreach
                    S[f + _N] = n
                    S[f + _I] = 0
                    S[f + _BEST] = BIAS - INF
                    S[f + _STATE] = _MOVES
                    continue
        elif st == _MOVES:
            i = S[f + _I]
            if i >= S[f + _N]:
                v = S[f + _BEST] - BIAS
            else:
                S[f + _I] = i + 1
                x = R[sp * W + i]
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
        elif st == _SCORCHES:
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
                v = WIN - sp - 2
                sp += 1
            else:
                push = _NEW_PLAY
                me = opp
                opp = S[f + _ME1]
                free = S[f + _F1] ^ c
                tiles = S[f + _TILES] - 1
        elif st == _SETUP:
            cs = placement_bits(kb, me | opp, free)
            if not cs:
                v = sp - WIN
            elif depth <= 0:
                cut = 1
                v = 6 + _mobility(kb, me, free) - _mobility(kb, opp, free)
            else:
                row = sp * W
                n = 0
                while cs:
                    c = cs & -cs
                    cs ^= c
                    # Squares with many exits that also take exits from the opponent first.
                    key = 4 * _pop(kb[c] & free) + 6 * _pop(kb[c] & opp)
                    R[row + n] = (63 - key if key < 63 else 0) << 6 | ix[c]
                    n += 1
                _sort(R, row, n)
                S[f + _N] = n
                S[f + _I] = 0
                S[f + _BEST] = BIAS - INF
                S[f + _STATE] = _PLACES
                continue
        elif st == _PLACES:
            i = S[f + _I]
            if i >= S[f + _N]:
                v = S[f + _BEST] - BIAS
            else:
                S[f + _I] = i + 1
                c = bit[R[sp * W + i] & 63]
                push = _child_of_placement(me | c, opp)
                me, opp = opp, me | c
                free ^= c
                tiles = S[f + _TILES]
        elif st == _ROOT:
            x = A[S[f + _I]]
            c = bit[x & 63]
            tiles = S[f + _TILES]
            if not x >> 18:
                push = _child_of_placement(me | c, opp)
                me, opp = opp, me | c
                free ^= c
            else:
                a = bit[x >> 12 & 63]
                b = bit[x >> 6 & 63]
                push = _NEW_PLAY
                me, opp = opp, me ^ a ^ b
                free = ((free | a) ^ b) ^ c
                tiles -= 1
            S[f + _STATE] = _ROOT_WAIT
        if push >= 0:
            # The child: the other side to act, one ply deeper, the window turned.
            c = f + _FW
            S[c + _ME] = me
            S[c + _OPP] = opp
            S[c + _FREE] = free
            S[c + _TILES] = tiles
            S[c + _DEPTH] = depth - 1
            S[c + _ALPHA] = 2 * BIAS - S[f + _BETA]
            S[c + _BETA] = 2 * BIAS - S[f + _ALPHA]
            S[c + _STATE] = push
            sp += 1
            continue
        # Value v of the node at ply sp goes up to its parent.
        while True:
            sp -= 1
            if not sp:
                S[_RESULT] = v + BIAS
                S[_NODES] = nodes
                S[_SP] = sp
                S[_CUT] = cut
                return True
            f = _H + sp * _FW
            s = BIAS - v
            if s > S[f + _BEST]:
                S[f + _BEST] = s
                if s > S[f + _ALPHA]:
                    S[f + _ALPHA] = s
                    if s >= S[f + _BETA]:
                        v = s - BIAS  # cut off: this node's value goes up too
                        continue
            break


def _child_of_placement(me, opp):
    """Kind of the node after a placement: setup goes on, or play starts.

    The last knight is placed by the second player; the first moves first.
    """
    return _NEW_SETUP if _pop(me | opp) < 2 * KNIGHTS else _NEW_PLAY
