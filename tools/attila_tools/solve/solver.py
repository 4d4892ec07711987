"""Perfect-play solver for Attila positions (host, CPython).

Boolean negamax ("can the side to act force a win?") on bitboards with:

- a transposition table whose keys fold the layout's symmetries
  (symmetry.py) and forget which unreachable squares are free: a free square
  that no knight can ever reach again (no path of knight jumps from any
  knight through free or knight squares) only matters as a place to put a
  tile, so the key keeps just how many there are;
- exact grouping of scorch choices: all unreachable squares are one choice,
  and so are "twins" (free squares with the same knight neighbours among the
  live squares: swapping them is an automorphism of what is left);
- an immediate-win test (after my move the opponent's knights can reach at
  most one square: scorch it and they are stuck), and its mirror two plies
  down: scorches after which the opponent has such a move are lost at once
  and never searched;
- move ordering (moves that leave the opponent least room first; scorches
  that trap an opponent knight, then its other exits, first; scorches next
  to my own knights last);
- separated armies: once no component of free and knight squares holds
  knights of both sides, the outcome is computed exactly from two small
  one-sided races (race.py), with no further game-tree search;
- enhanced transposition cutoffs near the root;
- two killer turns per count of free squares: the last two turns that won
  a node with as many free squares are tried first (when legal) in the
  next one, as a refutation often works again in the positions next to it.

The root's children are those of the search inside, taken in turn from two
orders (see _root). For a lost position the longest-resisting turn is found
by depth-bounded searches (resist.py). Setup positions are solved too
(placements first, then play), though from an early setup that is a very
large search. A Game of the rules is solved through game.py (solve_game).
"""

from attila.game.rules import KNIGHTS, placement_bits

from attila_tools.solve.race import Races
from attila_tools.solve.resist import Resistance
from attila_tools.solve.symmetry import automorphisms, byte_map, single_bits

_ALL_KNIGHTS = 2 * KNIGHTS


class Solver(Races, Resistance):
    """Solves positions of one layout; the table is kept between calls."""

    def __init__(self, layout):
        self.layout = layout
        n = self.n = layout.size
        knight = layout.knight
        self.kb = {1 << i: knight[i] for i in range(n)}
        self.nb = byte_map(n, lambda i: knight[i])
        self.perms = automorphisms(layout)
        self.syms = [
            byte_map(3 * n, lambda bit, p=perm: 1 << (bit // n * n + p[bit % n]))
            for perm in self.perms[1:]
        ]
        self.tt = {}
        self.races = {}
        # Per count of free squares, the last two winning turns (a, b, c bits).
        self.killers = [[(0, 0, 0), (0, 0, 0)] for _ in range(n + 1)]
        self.nodes = 0
        self.extra = 0
        self.fold = 9  # keys fold the symmetries with this many free squares or more
        self.etc = 11  # enhanced transposition cutoffs with this many free squares or more

    # -- keys -------------------------------------------------------------------

    def canon(self, x):
        """Smallest image of a packed key under the layout's symmetries."""
        best = x
        for sym in self.syms:
            y = sym(x)
            if y < best:
                best = y
        return best

    def closure(self, knights, live):
        """Squares of `live` reachable by knight jumps from `knights` inside `live`."""
        nb = self.nb
        seen = knights
        while True:
            nxt = seen | (nb(seen) & live)
            if nxt == seen:
                return seen
            seen = nxt

    def play_key(self, me, opp, free):
        knights = me | opp
        reach = self.closure(knights, free | knights) & free
        n = self.n
        dead = (free & ~reach).bit_count()
        key = me << 2 * n | opp << n | reach
        if free.bit_count() >= self.fold:
            key = self.canon(key)
        return key << 8 | dead

    # -- play -----------------------------------------------------------------

    def moves(self, me, opp, free):
        """Moves of the side to act, in search order, or True for an immediate win.

        Each move is (order, me1, free1, orr) with orr the squares the
        opponent could jump to afterwards; if some move leaves them at most
        one, scorching it wins at once and True is returned.
        """
        kb = self.kb
        nb = self.nb
        oreach0 = nb(opp)
        moves = []
        m = me
        while m:
            a = m & -m
            m ^= a
            d = kb[a] & free
            while d:
                b = d & -d
                d ^= b
                free1 = (free | a) ^ b
                orr = oreach0 & free1
                if not orr & (orr - 1):
                    return True
                moves.append(((orr.bit_count() << 6) - (kb[b] & free1).bit_count(),
                              me ^ a ^ b, free1, orr))
        moves.sort()
        return moves

    def scorches(self, me1, opp, free1, orr, mine=None, reach=None):
        """One scorch square per class of equivalent ones, in search order.

        mine: the knight neighbours of me1, if already known. reach: the
        squares of the components of free and knight squares that hold a
        knight, if known; a move does not change them (the knight stays in
        its component), so the position before the move may give them.
        """
        kb = self.kb
        knights = me1 | opp
        live = free1 | knights
        if reach is None:
            reach = self.closure(knights, live)
        myr = (self.nb(me1) if mine is None else mine) & free1
        cands = free1 & reach
        out = []
        seen = set()
        # Exits of opponent knights first: those that trap a knight (its last
        # exit), then those shared by most of their knights.
        first = []
        group = orr & cands
        while group:
            c = group & -group
            group ^= c
            nbh = kb[c] & live
            if nbh in seen:
                continue  # a twin of a square already listed
            seen.add(nbh)
            stuck = 0
            o = nbh & opp
            while o:
                k = o & -o
                o ^= k
                if kb[k] & free1 == c:
                    stuck += 1
            first.append((-stuck, -(nbh & opp).bit_count(), c))
        first.sort()
        for _, _, c in first:
            out.append(c)
        dead = free1 & ~reach
        for group in (cands & ~orr & ~myr, -1, cands & myr & ~orr):
            if group < 0:  # the slot of the unreachable squares
                if dead:
                    out.append(dead & -dead)
                continue
            while group:
                c = group & -group
                group ^= c
                nbh = kb[c] & live
                if nbh not in seen:
                    seen.add(nbh)
                    out.append(c)
        return out

    def win(self, me, opp, free):
        """True when the side to act (knights `me`) wins with perfect play."""
        if (me | opp).bit_count() < _ALL_KNIGHTS:
            return self._setup_win(me, opp, free)
        return self._play_win(me, opp, free)

    def _play_win(self, me, opp, free):
        self.nodes += 1
        nfree = free.bit_count()
        extra = self.extra
        if nfree + extra <= 0:
            return False
        knights = me | opp
        live = free | knights
        closure = self.closure
        mine = closure(me, live)
        if not mine & opp and extra >= 0:
            # Separated armies: no component of free and knight squares holds
            # knights of both sides. Then the game is two independent races.
            theirs = closure(opp, live)
            return self.race(me, free & mine) > self.race_after(opp, free & theirs)
        # The table before the moves: about a third of the nodes are found there.
        comp = closure(mine | opp, live)
        reach = comp & free
        n = self.n
        key = me << 2 * n | opp << n | reach
        if nfree >= self.fold:
            key = self.canon(key)
        key = key << 8 | (free & ~reach).bit_count()
        tt = self.tt
        got = tt.get(key)
        if got is not None:
            return got
        moves = self.moves(me, opp, free)
        if moves is True:
            return True
        if not moves:
            return False
        if nfree + extra == 1:
            return True  # the opponent will have no tile left to scorch with
        win = self._play_win
        refuted = self.refuted
        if nfree >= self.etc:
            # Enhanced transposition cutoff: a child already known lost.
            play_key = self.play_key
            for _, me1, free1, orr in moves:
                bad = refuted(me1, opp, free1)
                for c in self.scorches(me1, opp, free1, orr, None, comp):
                    if not c & bad and tt.get(play_key(opp, me1, free1 ^ c)) is False:
                        tt[key] = True
                        return True
        # The killers: the last two turns that won a node with as many free
        # squares (a refutation often works again in the positions next to it).
        killers = self.killers
        slot = killers[nfree]
        for kill in slot:
            a, b, c = kill
            if a & me and self.kb[a] & free & b:
                me1 = me ^ a ^ b
                free1 = (free | a) ^ b
                if c & free1 and not c & refuted(me1, opp, free1) and \
                        not win(opp, me1, free1 ^ c):
                    if kill is not slot[0]:
                        slot[0], slot[1] = slot[1], slot[0]
                    tt[key] = True
                    return True
        nb = self.nb
        for _, me1, free1, orr in moves:
            mine = nb(me1)
            bad = refuted(me1, opp, free1, mine)
            if not free1 & ~bad:
                continue
            for c in self.scorches(me1, opp, free1, orr, mine, comp):
                if not c & bad and not win(opp, me1, free1 ^ c):
                    slot[1] = slot[0]
                    slot[0] = (me & ~me1, me1 & ~me, c)
                    tt[key] = True
                    return True
        tt[key] = False
        return False

    def refuted(self, me1, opp, free1, mine=None):
        """Scorch squares after my move that let the opponent trap me at once.

        The opponent wins on the spot when one of its moves leaves my knights
        at most one square to jump to. A move that leaves at most one does so
        whatever I scorch (unless I scorch its landing square); one that
        leaves two does so when I scorch one of the two.
        """
        kb = self.kb
        if mine is None:
            mine = self.nb(me1)
        bad = 0
        landing = -1  # landing square of a move that wins whatever I scorch
        o_all = opp
        while o_all:
            o = o_all & -o_all
            o_all ^= o
            d = kb[o] & free1
            while d:
                p = d & -d
                d ^= p
                e = mine & ((free1 | o) ^ p)
                if not e & (e - 1):
                    if landing >= 0 and landing != p:
                        return -1  # two such moves: every scorch loses
                    landing = p
                elif e.bit_count() == 2:
                    bad |= e
        if landing >= 0:
            bad |= ~landing
        return bad

    # -- setup ------------------------------------------------------------------

    def placements(self, me, opp, free):
        """Legal placement bits, ordered by how much room they take from the opponent."""
        kb = self.kb
        out = []
        cs = placement_bits(kb, me | opp, free)
        while cs:
            c = cs & -cs
            cs ^= c
            out.append((-(kb[c] & (free ^ c)).bit_count(), c))
        out.sort()
        return [c for _, c in out]

    def _setup_win(self, me, opp, free):
        self.nodes += 1
        n = self.n
        key = -1 - self.canon(me << 2 * n | opp << n | free)
        got = self.tt.get(key)
        if got is not None:
            return got
        result = False
        for c in self.placements(me, opp, free):
            if not self.win(opp, me | c, free ^ c):
                result = True
                break
        self.tt[key] = result
        return result

    def actions(self, me, opp, free):
        """Children (opponent to act) of one action per class of equivalent ones: (opp, me', free', action)."""
        out = []
        if (me | opp).bit_count() < _ALL_KNIGHTS:
            for c in self.placements(me, opp, free):
                out.append((opp, me | c, free ^ c, (c,)))
            return out
        if free.bit_count() + self.extra <= 0:
            return out
        kb = self.kb
        oreach0 = self.nb(opp)
        for a in single_bits(me):
            for b in single_bits(kb[a] & free):
                me1 = me ^ a ^ b
                free1 = (free | a) ^ b
                for c in self.scorches(me1, opp, free1, oreach0 & free1):
                    out.append((opp, me1, free1 ^ c, (a, b, c)))
        return out

    # -- the public entry ----------------------------------------------------

    def set_extra(self, extra):
        """Tiles in supply minus free squares in play; the tables hold for one value."""
        if extra != self.extra:
            self.tt.clear()
            self.races.clear()
            self.extra = extra

    def solve(self, me, opp, free, extra, resist=True, deadline=None, progress=None):
        """Solve with `me` to act. Returns (won, action bits tuple or None).

        extra: tiles in supply minus free squares once play runs (constant
        through play). The action is a winning one when won, else the turn
        that holds out longest (if `resist`, until `deadline`), else the
        first one. progress(k, n) is called before the root's k-th of n
        actions is searched.
        """
        self.set_extra(extra)
        actions = self.actions(me, opp, free)
        if not actions:
            return False, None
        best = self._root(me, opp, free, progress)
        if best is not None:
            return True, best
        if not resist:
            return False, actions[0][3]
        return False, self.longest_resistance(actions, deadline)

    def _root(self, me, opp, free, progress=None):
        """A winning action of the root, or None when it is lost.

        The root's children are those of the search inside (one scorch per
        class of equivalent squares, none that lets the opponent trap us at
        once), each searched by it (win). A wrong order costs a whole subtree
        per losing child tried before a winning one, and no single order
        suits every position, so the children are taken from two orders in
        turn. The first goes across the moves: the first scorch of every
        move (moves in the search's own order, by the opponent's exits),
        then the second of every move, and so on; the scorches of one move
        tend to win or lose together, so a move that loses is not tried
        scorch after scorch before the next move is. The second is square
        order. A won root then costs at most about twice its best order.
        """
        if (me | opp).bit_count() < _ALL_KNIGHTS:
            children = [((c,), opp, me | c, free ^ c) for c in self.placements(me, opp, free)]
        else:
            moves = self.moves(me, opp, free)
            if moves is True or (moves and free.bit_count() + self.extra == 1):
                return self._quick_win(me, opp, free, moves)
            per_move = []
            for _, me1, free1, orr in moves:
                bad = self.refuted(me1, opp, free1)
                a, b = me & ~me1, me1 & ~me
                turns = [((a, b, c), opp, me1, free1 ^ c)
                         for c in self.scorches(me1, opp, free1, orr) if not c & bad]
                if turns:
                    per_move.append(turns)
            across = [turns[k] for k in range(max(map(len, per_move), default=0))
                      for turns in per_move if k < len(turns)]
            children = _interleave((
                across,
                sorted(across, key=lambda ch: (ch[0][0], ch[0][1])),
            ))
        for k, (action, me1, opp1, free1) in enumerate(children):
            if progress is not None:
                progress(k, len(children))
            if not self.win(me1, opp1, free1):
                return action
        return None

    def _quick_win(self, me, opp, free, moves):
        """The winning action when the opponent is trapped at once or will have no tile left."""
        if moves is True:
            # A move that leaves the opponent one exit at most: scorch it.
            oreach = self.nb(opp)
            for a in single_bits(me):
                for b in single_bits(self.kb[a] & free):
                    free1 = (free | a) ^ b
                    orr = oreach & free1
                    if not orr & (orr - 1):
                        return (a, b, orr or free1 & -free1)
        first = moves[0]
        return (me & ~first[1], first[1] & ~me, first[2] & -first[2])


def _interleave(orders):
    """The items of several orderings of one list, taken from each in turn, each once."""
    out = []
    seen = set()
    for group in zip(*orders):
        for item in group:
            if item[0] not in seen:
                seen.add(item[0])
                out.append(item)
    return out
