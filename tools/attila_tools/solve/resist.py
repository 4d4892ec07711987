"""How long a lost position resists: the turn that keeps the winner busiest.

The distance of a position: with perfect play, the plies until the side that
is lost cannot act (the winner as fast as it can, the loser as slow).
Bounded searches ask "within k plies?" and keep what they learn as bounds
per position, under the same symmetric keys as the win table. The win table
answers first: the winner's moves that do not win are never searched, a
loser that in fact wins is refuted at once, and a game cannot last more
plies than it has free squares. Separated armies have their exact distance
from the races (race.py).
"""

import time

from attila.game.rules import KNIGHTS

from attila_tools.solve.symmetry import single_bits

_ALL_KNIGHTS = 2 * KNIGHTS


class Resistance:
    """The longest-resistance search of a Solver (a mixin: it uses the Solver's
    win(), actions(), moves(), scorches(), refuted(), placements(), keys and races)."""

    def longest_resistance(self, actions, deadline=None):
        """The action of a lost root (`actions`, as Solver.actions gives them)
        after which the winner needs the most plies; the best found by
        `deadline` (perf_counter seconds) if one is given.

        Those that leave us the most moves and the opponent the fewest go
        first: the longest resistance is found early, the others need only
        show they are no longer (a winner's proof, the cheap kind).
        """
        actions = sorted(actions, key=lambda ch: self._mobility(ch[0], ch[1], ch[2]))
        memo = {}
        best = actions[0][3]
        need = 1
        for child in actions:
            if deadline is not None and time.perf_counter() > deadline:
                break
            if self._within(child[0], child[1], child[2], need, memo, True):
                continue
            while not self._within(child[0], child[1], child[2], need, memo, True):
                need += 2
            best = child[3]
        return best

    def _resist_key(self, me, opp, free):
        if (me | opp).bit_count() < _ALL_KNIGHTS:
            return -1 - self.canon(me << 2 * self.n | opp << self.n | free)
        return self.play_key(me, opp, free)

    def _exact_distance(self, me, opp, free):
        """The distance when it is known without search, else None."""
        if (me | opp).bit_count() < _ALL_KNIGHTS or self.extra < 0:
            return None
        knights = me | opp
        live = free | knights
        mine = self.closure(me, live)
        if mine & opp:
            return None
        theirs = self.closure(opp, live)
        mine_moves = self.race(me, free & mine)
        their_moves = self.race_after(opp, free & theirs)
        if mine_moves > their_moves:
            return 2 * their_moves + 1  # their last move, then my winning one
        return 2 * mine_moves  # I run out first

    def _within(self, me, opp, free, plies, memo, won):
        """Is the distance of this position (won for the side to act iff `won`) at most `plies`?"""
        if plies <= 0:
            return not won and not self.actions(me, opp, free)  # lost now
        nfree = free.bit_count()
        if (me | opp).bit_count() == _ALL_KNIGHTS and plies >= nfree:
            return True  # every ply takes a free square
        key = self._resist_key(me, opp, free)
        got = memo.get(key)
        if got is None:
            exact = self._exact_distance(me, opp, free)
            got = memo[key] = [exact, exact] if exact is not None else [1, 1 << 20]
        if got[1] <= plies:
            return True
        if got[0] > plies:
            return False
        self.nodes += 1
        if won:
            result = self._wins_within(me, opp, free, plies, memo)
        else:
            result = self._loses_within(me, opp, free, plies, memo)
        if result:
            got[1] = plies
        else:
            got[0] = plies + 1
        return result

    def _wins_within(self, me, opp, free, plies, memo):
        """Some winning action leaves the opponent lost within plies - 1."""
        if (me | opp).bit_count() < _ALL_KNIGHTS:
            for c in self.placements(me, opp, free):
                if not self.win(opp, me | c, free ^ c) and \
                        self._within(opp, me | c, free ^ c, plies - 1, memo, False):
                    return True
            return False
        moves = self.moves(me, opp, free)
        if moves is True or (moves and free.bit_count() + self.extra == 1):
            return True
        for _, me1, free1, orr in moves:
            bad = self.refuted(me1, opp, free1)
            for c in self.scorches(me1, opp, free1, orr):
                if c & bad or self.win(opp, me1, free1 ^ c):
                    continue  # not a winning action
                if self._within(opp, me1, free1 ^ c, plies - 1, memo, False):
                    return True
        return False

    def _loses_within(self, me, opp, free, plies, memo):
        """Every action leaves the opponent winning within plies - 1 (none: lost now)."""
        for child in self.actions(me, opp, free):
            if not self._within(child[0], child[1], child[2], plies - 1, memo, True):
                return False
        return True

    def _mobility(self, me, opp, free):
        """Knight moves of the side to act, times four, less those of the other side."""
        kb = self.kb
        mine = theirs = 0
        for k in single_bits(me):
            mine += (kb[k] & free).bit_count()
        for k in single_bits(opp):
            theirs += (kb[k] & free).bit_count()
        return mine * 4 - theirs
