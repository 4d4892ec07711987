"""The reply table (attila.opponent.opening's second part, attila_tools.solve.replies).

On the 12-square layout of test_card_cmd (four symmetries) with a setup
book that places on the lowest legal square: every position after a first
turn of the first placer's gets, from the file, a turn after which the
retrograde tables say the mover has won (or -1 where the setup is lost),
and positions the book never leads to are left to the search. The 4x5
table in boards/solved: its head, every reply block's check and sorted
keys, and a sample of book-led positions whose turn the search solver
(an independent program) finds winning; the strong opponent plays it
with no search.
"""

import os
import random

from attila.opponent.card import BLOCK
from attila.game.layoutfile import load
from attila.game.notation import parse_position
from attila.opponent.opening import RECORD, RECORDS, Opening, correction_blocks, reply_blocks
from attila.game.rules import MOVE
from attila_tools.solve.card_cmd import write_opening
from attila_tools.solve.replies import after_first_turn, book_setups, canonical, turns
from attila_tools.solve.symmetry import automorphisms
from attila_tools.squares import bits
from test_card_cmd import SMALL, _tables

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


class _Lowest:
    """A setup book that places on the lowest legal square."""

    def placement(self, game):
        return bits(game.placements())[0]


def _reply(table, layout, mover, other, scorched):
    """The table's turn (a, b, c) for the side `mover` to move, or -1."""
    game = _game_at(layout, mover, other, scorched)
    assert game.phase == MOVE
    if not table.ask(game):
        return None
    turn = -2
    while turn == -2:
        turn = table.step(4, 1)
    return turn if turn < 0 else (turn >> 12 & 63, turn >> 6 & 63, turn & 63)


def test_the_small_reply_table_wins_every_won_position_the_book_leads_to(tmp_path):
    tables = _tables(SMALL)
    layout = tables.layout
    path = str(tmp_path / "t.opening")
    size = write_opening(tables, path, _Lowest())
    setups = book_setups(layout, _Lowest(), False)
    positions = after_first_turn(layout, setups)
    with open(path, "rb") as f:
        table = Opening(f, layout)
        assert size == (table._rfirst + reply_blocks(table.replies)) * BLOCK
        assert 0 < table.replies <= len(positions)
        won = lost = 0
        for mover, other, scorched in positions:
            got = _reply(table, layout, mover, other, scorched)
            if tables.won(mover, other, scorched):
                won += 1
                a, b, c = got
                assert mover >> a & 1 and not tables.won(other, mover ^ (1 << a | 1 << b),
                                                         scorched | 1 << c)
            else:
                lost += 1
                assert got == -1
        # The other side to move: never in the table unless the book leads there too.
        perms = automorphisms(layout)
        keys = {canonical(layout, perms, *pos)[0] for pos in positions}
        outside = 0
        for mover, other, scorched in sorted(positions)[:200]:
            if canonical(layout, perms, other, mover, scorched)[0] not in keys:
                outside += 1
                assert _reply(table, layout, other, mover, scorched) == -1
        assert outside > 20
    assert won > 100, (won, lost)


def _names(layout, mask):
    return " ".join(layout.names[i] for i in bits(mask))


def test_the_4x5_reply_table_is_whole_and_sorted():
    layout = load(os.path.join(ROOT, "boards", "4x5.json"))[0]
    path = os.path.join(ROOT, "boards", "solved", "4x5.opening")
    with open(path, "rb") as f:
        table = Opening(f, layout, "4x5.opening")
        # Every position after a first turn of the player's, the book's
        # setups folded by the four symmetries: 73,201, all won.
        assert table.replies == 73201 and reply_blocks(73201) == 733
        assert table.blocks == 749 + 733 + correction_blocks(table.corrections)
        assert os.path.getsize(path) == (1 + table.blocks) * BLOCK
        last = -1
        for k in range(733):
            table._read(table._rfirst + k)  # its check: number, layout, sum
            for i in range(min(RECORDS, table.replies - k * RECORDS)):
                at = i * RECORD
                key = table._buf[at] << 16 | table._buf[at + 1] << 8 | table._buf[at + 2]
                assert key > last
                last = key


def test_4x5_replies_win_by_the_search_solver_and_the_opponent_plays_them():
    from attila.opponent import book as books
    from attila.opponent.levels import STRONG
    from attila.opponent.planner import Planner
    from attila_tools.solve.solver import Solver

    layout = load(os.path.join(ROOT, "boards", "4x5.json"))[0]
    book = books.open(os.path.join(ROOT, "boards", "solved", "4x5.book"), layout)
    setups = sorted(book_setups(layout, book, False))
    book.close()
    assert len(setups) == 3558
    rng = random.Random(31)
    solver = Solver(layout)
    with open(os.path.join(ROOT, "boards", "solved", "4x5.opening"), "rb") as f:
        table = Opening(f, layout)
        p = Planner(STRONG, 2000, card=table)
        for first, second in rng.sample(setups, 3):
            a0, b0, c0 = rng.choice([t[:3] for t in turns(layout, first, second, 0)])
            player = first ^ (1 << a0 | 1 << b0)
            a, b, c = _reply(table, layout, second, player, 1 << c0)
            me1 = second ^ (1 << a | 1 << b)
            free = layout.all & ~(me1 | player | 1 << c0 | 1 << c)
            assert not solver.win(player, me1, free), (_names(layout, second), a, b, c)
            text = p.decide(_game_at(layout, second, player, 1 << c0), lambda: 0)
            assert p.nodes == 0  # the table's, no search
            assert text == "%s-%s,%s" % (layout.names[a], layout.names[b], layout.names[c])


def _game_at(layout, mover, other, scorched):
    rows = []
    for r in range(layout.height - 1, -1, -1):
        row = ""
        for f in range(layout.width):
            i = layout.at(f, r)
            row += "-" if i < 0 else "H" if mover >> i & 1 else "R" if other >> i & 1 \
                else "x" if scorched >> i & 1 else "."
        rows.append(row)
    return parse_position("/".join(rows) + " H")
