"""Helpers for the opponent and solver tests: a brute force and random positions.

The brute force walks the rules through attila.game.rules.Game (place, move,
scorch, undo) and memoises on the raw position: no bitboard tricks, no
symmetry, no grouping, nothing shared with the solver or the opponent.
"""

import random

from attila.game.geometry import from_rows
from attila.game.notation import format_position, parse_position
from attila.game.rules import MOVE, OVER, SCORCH, SETUP


def squares(mask):
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def actions(game):
    """Every legal action of the side to act, as text."""
    names = game.layout.names
    out = []
    if game.phase == SETUP:
        return ["@" + names[c] for c in squares(game.placements())]
    if game.phase != MOVE:
        return out
    for a in squares(game.movable()):
        for b in squares(game.destinations(a)):
            game.move(a, b)
            for c in squares(game.scorchable()):
                out.append("%s-%s,%s" % (names[a], names[b], names[c]))
            game.undo()
    return out


def _apply(game, text):
    layout = game.layout
    if text[0] == "@":
        game.place(layout.index(text[1:]))
        return 1
    step, burn = text.split(",")
    a, b = step.split("-")
    game.move(layout.index(a), layout.index(b))
    game.scorch(layout.index(burn))
    return 2


def _undo(game, n):
    for _ in range(n):
        game.undo()


def outcome(game, memo=None):
    """(won, plies) for the side to act: plies until the end with perfect play.

    The winner ends the game as soon as it can, the loser holds out as long
    as it can.
    """
    if memo is None:
        memo = {}
    if game.phase == OVER:
        return game.winner == game.side, 0
    key = (game.knights[0], game.knights[1], game.scorched, game.side, game.phase)
    if key in memo:
        return memo[key]
    best = None
    for text in actions(game):
        n = _apply(game, text)
        won, plies = outcome(game, memo)
        _undo(game, n)
        mine = (not won, plies + 1)
        if best is None:
            best = mine
        elif mine[0] and (not best[0] or mine[1] < best[1]):
            best = mine
        elif not mine[0] and not best[0] and mine[1] > best[1]:
            best = mine
    if best is None:  # no action: lost now (the rules would have said OVER)
        best = (False, 0)
    memo[key] = best
    return best


def after(game, text):
    """A copy of the game's position with the action played (a fresh Game)."""
    g = parse_position(format_position(game), game.supply)
    _apply(g, text)
    return g


def random_layout(rng, max_side=5):
    """Rows of a random layout: a rectangle with some places left out."""
    while True:
        w = rng.randint(3, max_side)
        h = rng.randint(3, max_side)
        rows = []
        for _ in range(h):
            rows.append("".join("-" if rng.random() < 0.15 else "." for _ in range(w)))
        if all("." in r for r in rows) and any(r[0] == "." for r in rows) and \
                sum(r.count(".") for r in rows) >= 9:
            try:
                return from_rows(rows)
            except ValueError:
                continue


def random_game(rng, layout, free_left=None, stop_in_setup=False, tiles=None):
    """A game played at random on the layout; None if setup gets stuck.

    Played until at most `free_left` free squares remain (or to a random
    point), possibly stopping in setup or in the scorch step.
    """
    from attila.game.rules import Game

    game = Game(layout, rng.randint(0, 1), tiles)
    stop_at = rng.randint(0, 5) if stop_in_setup else 6
    placed = 0
    while game.phase == SETUP:
        if placed == stop_at:
            return game
        legal = squares(game.placements())
        if not legal:
            return None
        game.place(rng.choice(legal))
        placed += 1
    target = free_left if free_left is not None else rng.randint(0, layout.size)
    while game.phase == MOVE and bin(game.free()).count("1") > target:
        a = rng.choice(squares(game.movable()))
        game.move(a, rng.choice(squares(game.destinations(a))))
        game.scorch(rng.choice(squares(game.scorchable())))
    return game


def rng_of(seed):
    return random.Random(seed)


__all__ = ["actions", "outcome", "after", "random_layout", "random_game", "rng_of",
           "SCORCH"]
