"""The retrograde solver in plain Python: the reference for small layouts.

Straight from the definition, one position at a time, layer by layer (most
scorched squares first): a position is won when some move and scorch lead
to a lost position of the layer below; with no move it is lost. It writes
the same table as the C kernel (layout in retro_index), so the two are
compared bit for bit. Fine up to about 11 squares (a few seconds); the C
kernel is for real boards.
"""

from itertools import combinations

from attila_tools.solve.retro_index import Index, placements
from attila_tools.squares import bits


def solve(layout):
    """The table of every play position of the layout (bytearray, see retro_index)."""
    ix = Index(layout)
    table = bytearray(ix.nbytes)
    knight = layout.knight
    rows = list(placements(ix))

    def won(mover, other, scorched):
        off, bit = ix.bit(mover, other, scorched)
        return table[off] >> bit & 1

    for s in range(ix.m - 1, -1, -1):
        for mover, other in rows:
            rest = bits(ix.all & ~(mover | other))
            for chosen in combinations(rest, s):
                scorched = 0
                for i in chosen:
                    scorched |= 1 << i
                free = ix.all & ~(mover | other | scorched)
                if _wins(knight, won, mover, other, scorched, free):
                    off, bit = ix.bit(mover, other, scorched)
                    table[off] |= 1 << bit
    return table


def _wins(knight, won, mover, other, scorched, free):
    for a in bits(mover):
        for b in bits(knight[a] & free):
            mover1 = mover ^ (1 << a | 1 << b)
            free1 = (free | 1 << a) & ~(1 << b)
            for c in bits(free1):
                if not won(other, mover1, scorched | 1 << c):
                    return True
    return False
