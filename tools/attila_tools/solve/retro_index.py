"""Where a play position lives in the retrograde table (shared by every backend).

The table holds one bit per play position (1 = won for the side to move),
laid out exactly as the C kernel (tools/attila_tools/retro.c) writes it:
a row of `words` little-endian 64-bit words per knight placement (A to
move, B the other side), rows in the order rank3(B) * C(n-3, 3) +
rank3(A among the squares not in B), and inside the row the scorched
squares S as a bit index over the row's non-knight squares in square order.
rank3 is the colex rank of a 3-subset: C(x,1) + C(y,2) + C(z,3) for x<y<z.
"""

from math import comb

from attila.game.rules import KNIGHTS
from attila_tools.squares import bits


def rank3(mask):
    """Colex rank of a set of three bits."""
    x, y, z = bits(mask)
    return x + comb(y, 2) + comb(z, 3)


def squeeze(a, b):
    """The bits of `a` renumbered over the places not in `b` (a and b disjoint)."""
    out = 0
    for i in bits(a):
        out |= 1 << (i - bin(b & ((1 << i) - 1)).count("1"))
    return out


def triples(u):
    """The 3-subsets of u places as masks, in rank order."""
    out = [0] * comb(u, 3)
    for z in range(2, u):
        for y in range(1, z):
            for x in range(y):
                m = 1 << x | 1 << y | 1 << z
                out[rank3(m)] = m
    return out


class Index:
    """Row and entry numbers of the play positions of one layout."""

    def __init__(self, layout):
        if KNIGHTS != 3:  # pragma: no cover - the rules fix three a side
            raise ValueError("the retrograde table assumes three knights a side")
        n = self.n = layout.size
        if n < 7:
            raise ValueError("layout has %d squares; the retrograde solver needs 7 or more" % n)
        self.layout = layout
        self.all = layout.all
        self.m = n - 2 * KNIGHTS
        self.words = 1 << (self.m - 6) if self.m > 6 else 1
        self.ntrip = comb(n, 3)
        self.nrest = comb(n - 3, 3)
        self.rows = self.ntrip * self.nrest

    def row(self, mover, other):
        """Row number of a knight placement (three knights each)."""
        return rank3(other) * self.nrest + rank3(squeeze(mover, other))

    def entry(self, knights, scorched):
        """Entry of the scorched squares inside a row: S over the squares without a knight."""
        return squeeze(scorched, knights)

    def bit(self, mover, other, scorched):
        """(byte offset, bit) of a position in the table."""
        e = self.entry(mover | other, scorched)
        word = self.row(mover, other) * self.words + (e >> 6)
        return word * 8 + ((e & 63) >> 3), e & 7

    @property
    def nbytes(self):
        return self.rows * self.words * 8


def placements(ix):
    """Every knight placement (mover, other) of an Index, in row order."""
    n = ix.n
    rest_triples = triples(n - 3)
    for other in triples(n):
        rest = [i for i in range(n) if not other >> i & 1]
        for t in rest_triples:
            mover = 0
            for k in bits(t):
                mover |= 1 << rest[k]
            yield mover, other
