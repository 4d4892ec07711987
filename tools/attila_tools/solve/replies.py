"""The reply table: the board's first turn of play as the second player,
wherever its setup book led (attila.opponent.opening's second part).

    setups = book_setups(layout, book, board_first=False)
    records = reply_records(tables, book)      # [(key, answer)], sorted

The player places first (and so moves first) and the book places the
board's knights; after any first turn of the player's the board is to move
with one square scorched. Those positions, folded by the layout's
symmetries, are far fewer than all positions with one square scorched
(73,201 against 10.9 million on 4x5), and every one the book's setup wins
gets its winning turn. `stage_after` counts the positions of the board's
second turn of play the same way, either side placing first (first_turns:
the opening table's turn), the size a table of them would have.
"""

from attila.opponent.opening import reply_key
from attila.game.rules import MOVE, SETUP, Game
from attila_tools.squares import bits
from attila_tools.solve.symmetry import automorphisms


def book_setups(layout, book, board_first):
    """The completed setups {(first placer's knights, second's)} the board
    reaches placing from `book` (an attila.opponent.book.Book), the player placing
    anywhere legal; the board places first when board_first."""
    out = set()
    game = Game(layout, 0)

    def walk():
        if game.phase != SETUP:
            if game.phase == MOVE:
                out.add((game.knights[0], game.knights[1]))
            return
        if (game.side == 0) == board_first:
            square = book.placement(game)
            squares = [square] if square >= 0 else list(bits(game.placements()))
        else:
            squares = bits(game.placements())
        for square in squares:
            game.place(square)
            walk()
            game.undo()

    walk()
    return out


def turns(layout, me, opp, scorched):
    """Every whole turn (a, b, c) of the side `me` and its knights after it."""
    free = layout.all & ~(me | opp | scorched)
    for a in bits(me):
        for b in bits(layout.knight[a] & free):
            me1 = me ^ (1 << a | 1 << b)
            for c in bits((free | 1 << a) & ~(1 << b)):
                yield a, b, c, me1


def image_of(perm, mask):
    out = 0
    for i in bits(mask):
        out |= 1 << perm[i]
    return out


def canonical(layout, perms, mover, other, scorched):
    """(key, perm) of a position's canonical image (the smallest key; the
    first symmetry, the identity first, that gives it), as attila.opponent.opening
    finds it."""
    n = layout.size
    best = None
    for perm in perms:
        k = reply_key(n, image_of(perm, mover), image_of(perm, other), image_of(perm, scorched))
        if best is None or k < best[0]:
            best = (k, perm)
    return best


def after_first_turn(layout, setups):
    """{(mover, other, scorched)}: the positions after any first turn of the
    first placer's, the second placer (the board) to move."""
    out = set()
    for first, second in setups:
        for _a, _b, c, me1 in turns(layout, first, second, 0):
            out.add((second, me1, 1 << c))
    return out


def winning_turn(tables, me, opp, scorched):
    """The first whole turn (a, b, c) after which the other side is lost; None if none."""
    for a, b, c, me1 in turns(tables.layout, me, opp, scorched):
        if not tables.won(opp, me1, scorched | 1 << c):
            return a, b, c
    return None


def reply_positions(tables, book):
    """{key: (mover, other, scorched, turn)}: the positions of the reply table
    in their canonical orientations, with the winning turn (a, b, c) of each the
    book's setup wins (None where it is lost: left to the search)."""
    layout = tables.layout
    perms = automorphisms(layout)
    out = {}
    for mover, other, scorched in after_first_turn(layout, book_setups(layout, book, False)):
        key, perm = canonical(layout, perms, mover, other, scorched)
        if key not in out:
            me, opp, sc = image_of(perm, mover), image_of(perm, other), image_of(perm, scorched)
            out[key] = (me, opp, sc, winning_turn(tables, me, opp, sc))
    return out


def first_turns(tables, book):
    """{setup: (mover, other, 0, turn)}: the board's first turn of play as the
    first player where its book led (the setups folded by symmetry), as the
    opening table plays it: the first winning turn (None where lost)."""
    layout = tables.layout
    perms = automorphisms(layout)
    out = {}
    for board, player in book_setups(layout, book, True):
        key = min((image_of(p, board), image_of(p, player)) for p in perms)
        if key not in out:
            out[key] = key + (0, winning_turn(tables, key[0], key[1], 0))
    return out


def reply_records(positions):
    """[(key, answer)], sorted by key: the reply table's records, from
    reply_positions (a lost position has none)."""
    return sorted((key, t[0] << 10 | t[1] << 5 | t[2])
                  for key, (_m, _o, _s, t) in positions.items() if t is not None)


def stage_after(layout, positions):
    """Positions (folded by symmetry) of the board's next turn of play after
    `positions` (reply_positions or first_turns): its turn there, then any
    turn of the player's."""
    perms = automorphisms(layout)
    n = layout.size
    folded = set()
    for mover, other, scorched, turn in positions.values():
        if turn is None:
            continue
        a, b, c = turn
        me1 = mover ^ (1 << a | 1 << b)
        sc1 = scorched | 1 << c
        for _a, _b, d, opp1 in turns(layout, other, me1, sc1):
            sc2 = sc1 | 1 << d
            folded.add(min(image_of(p, me1) | image_of(p, opp1) << n | image_of(p, sc2) << 2 * n
                           for p in perms))
    return len(folded)
