"""Setup on top of the play tables: minimax over the placements.

Setup positions are kept as (first, second): the knights of the side that
places (and later moves) first, and of the other side. The side to place is
the first when both have placed as many, else the second; once all six are
down the first moves, and the play tables say who wins. A side with no legal
placement (the no-trap rule of docs/pages/play/rules.md, rules.placement_bits) loses.
"""

from attila.game.rules import KNIGHTS, placement_bits
from attila_tools.solve.retro_index import placements
from attila_tools.squares import bits
from attila_tools.solve.symmetry import automorphisms


def image(perm, mask):
    """The squares of a mask moved by a symmetry (perm[i]: image of square i)."""
    out = 0
    for i in bits(mask):
        out |= 1 << perm[i]
    return out


def canonical(perms, first, second):
    """(perm, f, s): the first symmetry (identity first) giving the smallest (f, s).

    The board's book reader (attila.opponent.book) picks the canonical image by the
    same rule, so the answers stored in its orientation map back identically.
    """
    best = None
    for perm in perms:
        f, s = image(perm, first), image(perm, second)
        if best is None or (f, s) < (best[1], best[2]):
            best = (perm, f, s)
    return best


class SetupValues:
    """Who wins each setup position of a layout, with perfect play."""

    def __init__(self, tables):
        self.tables = tables
        layout = self.layout = tables.layout
        self.n = layout.size
        self.full = layout.all
        self.kb = {1 << i: layout.knight[i] for i in range(layout.size)}
        self.all_perms = automorphisms(layout)
        self.memo = {}

    # -- positions -------------------------------------------------------------

    def first_to_place(self, first, second):
        """True when the first placer places next (False: the second; both have 3: play)."""
        nf, ns = bin(first).count("1"), bin(second).count("1")
        return ns == KNIGHTS or (nf <= ns and nf < KNIGHTS)

    def complete(self, first, second):
        return bin(first | second).count("1") == 2 * KNIGHTS

    def legal(self, first, second):
        """Bitmask of the squares where the side to place may put its knight."""
        knights = first | second
        return placement_bits(self.kb, knights, self.full & ~knights)

    def after(self, first, second, square):
        """The position after the side to place puts a knight on `square`."""
        if self.first_to_place(first, second):
            return first | 1 << square, second
        return first, second | 1 << square

    def key(self, first, second):
        """The position's key, the same for every symmetric image of it."""
        _, f, s = canonical(self.all_perms, first, second)
        return f << self.n | s

    # -- values ----------------------------------------------------------------

    def wins(self, first, second):
        """True when the side to act (to place; to move once setup is complete) wins."""
        if self.complete(first, second):
            return self.tables.won(first, second, 0)
        k = self.key(first, second)
        got = self.memo.get(k)
        if got is not None:
            return got
        result = False
        for c in bits(self.legal(first, second)):
            f1, s1 = self.after(first, second, c)
            if not self.wins(f1, s1):
                result = True
                break
        self.memo[k] = result
        return result

    def winning(self, first, second):
        """The squares of the winning placements of the side to place."""
        out = []
        for c in bits(self.legal(first, second)):
            f1, s1 = self.after(first, second, c)
            if not self.wins(f1, s1):
                out.append(c)
        return out

    def replies_won(self, first, second, square):
        """After the side to place puts a knight on `square`: how many replies win for the other side.

        A reply is the other side's next placement, or its first turn (move
        and scorch) when the placement completes the setup.
        """
        f1, s1 = self.after(first, second, square)
        if self.complete(f1, s1):
            return self.tables.winning_turns(f1, s1, 0)
        count = 0
        for c in bits(self.legal(f1, s1)):
            f2, s2 = self.after(f1, s1, c)
            if not self.wins(f2, s2):
                count += 1
        return count

    def counts(self):
        """(legal completed setups, those won by the side that moves first)."""
        legal = won = 0
        tables = self.tables
        ix = tables.index
        data = tables.data
        step = ix.words * 8
        full = self.full
        knight = self.layout.knight
        row = 0
        for first, second in placements(ix):
            free = full & ~(first | second)
            ok = True
            for i in bits(first | second):
                if not knight[i] & free:
                    ok = False
                    break
            if ok:
                legal += 1
                won += data[row * step] & 1
            row += 1
        return legal, won

