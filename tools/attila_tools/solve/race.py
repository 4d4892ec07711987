"""Separated armies: the outcome as two one-sided races, with no game-tree search.

When the knights of one side can never meet those of the other, each side
plays alone on its own territory T (the free squares its knights can still
reach) while the other removes one square of T per turn. More squares never
hurt the side that owns them (it can ignore them, and their removal is a
pass for the remover), so each side scorches in the other's territory, and
the side to act wins exactly when it can make more moves on its territory
than the other on theirs.
"""


class Races:
    """The race counts of a Solver (a mixin: the Solver has kb, closure() and races).

    A count depends on the knights and their territory only; `races` keeps
    them until the tile balance changes (Solver.set_extra).
    """

    def race(self, knights, terr):
        """Moves the knights make on `terr` if they move first and an adversary removes a square after each move."""
        if not terr:
            return 0
        terr &= self.closure(knights, terr | knights)
        key = (knights, terr)
        got = self.races.get(key)
        if got is not None:
            return got
        kb = self.kb
        top = terr.bit_count()  # each round takes one square away
        best = 0
        k = knights
        while k and best < top:
            a = k & -k
            k ^= a
            d = kb[a] & terr
            while d:
                b = d & -d
                d ^= b
                v = 1 + self.race_after(knights ^ a ^ b, (terr | a) ^ b)
                if v > best:
                    best = v
                    if best >= top:
                        break
        self.races[key] = best
        return best

    def race_after(self, knights, terr):
        """Like race, but the adversary removes a square first."""
        if not terr:
            return 0
        worst = -1
        t = terr
        while t:
            r = t & -t
            t ^= r
            v = self.race(knights, terr ^ r)
            if worst < 0 or v < worst:
                worst = v
                if not worst:
                    break
        return worst
