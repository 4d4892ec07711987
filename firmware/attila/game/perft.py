"""Perft: count the legal lines of play, on raw bitboards.

A ply is one setup placement or one full turn (move + scorch); sides
alternate every ply, and after the sixth placement the first player moves.
perft(game, depth) counts the ply sequences of exactly `depth` plies; a line
that ends early (a side cannot place, move or take a tile) counts nothing.
Used to check move generation against an independent brute force and to
measure speed, so the inner loop works on ints and the layout's knight masks
only: no Game calls, no lists.
"""

from attila.game.geometry import popcount as _count
from attila.game.rules import KNIGHTS, OVER, SCORCH, placements


def _moves(knight, us, free):
    """Number of knight moves of the knights in `us` onto `free` squares."""
    n = 0
    i = 0
    while us:
        if us & 1:
            m = knight[i] & free
            while m:
                m &= m - 1
                n += 1
        us >>= 1
        i += 1
    return n


def _node(knight, full, us, them, scorched, tiles, left, depth):
    """Lines of `depth` >= 1 plies; `us` acts next, `left` placements remain."""
    occ = us | them
    if left:
        can = placements(knight, full, occ, occ | scorched)
        if depth == 1:
            return _count(can)
        total = 0
        while can:
            b = can & -can
            can ^= b
            total += _node(knight, full, them, us | b, scorched, tiles, left - 1, depth - 1)
        return total
    if tiles <= 0:
        return 0
    free = full & ~(occ | scorched)
    if depth == 1:
        # The scorch may take any free square after the move, and a move keeps
        # the number of free squares (one left, one taken).
        return _moves(knight, us, free) * _count(free)
    total = 0
    m = us
    i = 0
    while m:
        if m & 1:
            a = 1 << i
            to = knight[i] & free
            while to:
                b = to & -to
                to ^= b
                moved = us ^ a ^ b
                burn = free ^ a ^ b
                if depth == 2:
                    # The reply's count in closed form: with n free squares and
                    # k replies before the scorch, scorching c removes the
                    # replies that land on c, and those add up to k over all
                    # c; so the sum is k*n - k moves, times n - 1 scorches.
                    if tiles > 1:
                        n = _count(burn) - 1
                        total += _moves(knight, them, burn) * n * n
                    continue
                while burn:
                    c = burn & -burn
                    burn ^= c
                    total += _node(
                        knight, full, them, moved, scorched | c, tiles - 1, 0, depth - 1
                    )
        m >>= 1
        i += 1
    return total


def perft(game, depth):
    """Number of legal ply sequences of exactly `depth` plies from the game.

    Mid-turn (scorch due), the first ply is the scorch that ends the turn.
    """
    if depth < 0:
        raise ValueError("perft depth must be >= 0, not %d" % depth)
    if depth == 0:
        return 1
    if game.phase == OVER:
        return 0
    layout = game.layout
    knight = layout.knight
    us = game.knights[game.side]
    them = game.knights[game.side ^ 1]
    left = 2 * KNIGHTS - _count(us | them)
    tiles = game.tiles()
    if game.phase == SCORCH:
        free = game.free()
        if depth == 1:
            return _count(free)
        total = 0
        while free:
            c = free & -free
            free ^= c
            total += _node(
                knight, layout.all, them, us, game.scorched | c, tiles - 1, 0, depth - 1
            )
        return total
    return _node(knight, layout.all, us, them, game.scorched, tiles, left, depth)


def turns(game):
    """Number of complete legal plies (placements, or move+scorch pairs) now."""
    return perft(game, 1)
