"""Helpers for the retrograde tests: small layouts and position checks."""

import random

from attila.game.geometry import from_rows
from attila_tools.solve.retro_index import placements
from attila_tools.squares import bits

# Small layouts for the pure Python reference (m = squares - 6 free squares after setup).
TINY = (
    ["...", "...", "..."],            # 9 squares, m = 3
    ["....", "...-", "..--"],          # 9
    ["..-..", "....."],                # 9, a jump across the gap
    ["...", "...", "...", "-.."],     # 11, m = 5
)
# Larger ones for the kernel's several-word rows (m >= 7) and the search solver.
SMALL = (
    ["....", "....", "....", "--.."],  # 14, m = 8
    [".....", ".....", "....."],       # 15, m = 9: 2 words of index bits
    ["-....", ".....", ".....", "...--"],  # 17, m = 11
)


def layout(rows):
    return from_rows(list(rows))


_ROWS = {}


def random_position(ix, rng, free_at_least=0, free_at_most=99):
    """(mover, other, scorched) drawn from every placement and scorched set."""
    rows = _ROWS.get(ix.layout)
    if rows is None:
        rows = _ROWS[ix.layout] = list(placements(ix))
    while True:
        mover, other = rng.choice(rows)
        rest = bits(ix.all & ~(mover | other))
        share = rng.random()
        scorched = 0
        for i in rest:
            if rng.random() < share:
                scorched |= 1 << i
        if free_at_least <= ix.m - bin(scorched).count("1") <= free_at_most:
            return mover, other, scorched


def bellman_holds(tables, mover, other, scorched):
    """The table's value agrees with its children: won iff some turn leads to a lost child."""
    lay = tables.layout
    free = lay.all & ~(mover | other | scorched)
    want = False
    for a in bits(mover):
        for b in bits(lay.knight[a] & free):
            mover1 = mover ^ (1 << a | 1 << b)
            free1 = (free | 1 << a) & ~(1 << b)
            for c in bits(free1):
                if not tables.won(other, mover1, scorched | 1 << c):
                    want = True
    return want == tables.won(mover, other, scorched)


def rng_of(seed):
    return random.Random(seed)
