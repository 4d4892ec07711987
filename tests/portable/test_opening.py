"""The opening table (attila.opponent.opening) and the opponent that plays its first turn from it, on MicroPython too.

opening_12.opening is `attila card --opening` of the 12-square layout SMALL
(3x4: four symmetries); opening_12.txt holds 400 of its positions with their
values (both made and checked against the retrograde tables on the host by
tests/tools/solve/test_opening_cmd.py).
"""

import check
from test_card import _ROOT, allocated, closed, read_answers
from test_card_play import _game as play_game
from attila.opponent.card import BLOCK, CardError
from attila.game.geometry import from_rows
from attila.opponent.opening import Opening
from attila.game.rules import MOVE

SMALL = from_rows(["....", "....", "...."])
SMALL.name = "small"
TABLE = _ROOT + "tests/portable/opening_12.opening"
ANSWERS = _ROOT + "tests/portable/opening_12.txt"
_ANSWERS = []


def answers():
    """(mover, other, scorched, won) of opening_12.txt (read once)."""
    return read_answers(ANSWERS, _ANSWERS)


def _game(mover, other, scorched):
    return play_game(mover, other, scorched, SMALL)


def test_the_table_gives_the_tables_values():
    with open(TABLE, "rb") as f:
        table = Opening(f, SMALL)
        assert table.title == "small" and table.blocks == 10 and not table.whole
        for mover, other, scorched, won in answers():
            assert table.won(mover, other, scorched) == won, (mover, other, scorched)
    f = open(TABLE, "rb")
    Opening(f, SMALL).close()  # (Card's close())
    assert closed(f)


def test_lookups_allocate_nothing():
    todo = answers()
    with open(TABLE, "rb") as f:
        used = allocated(Opening(f, SMALL), todo)
    assert used < 64, used


def test_the_first_turn_is_the_tables_and_the_next_ones_are_searched():
    from attila.opponent.levels import STRONG
    from attila.opponent.planner import Planner

    won = lost = later = 0
    with open(TABLE, "rb") as f:
        table = Opening(f, SMALL)
        p = Planner(STRONG, 2000, card=table)
        p.node_budget = 64
        for mover, other, scorched, value in answers():
            game = _game(mover, other, scorched)
            if game.phase != MOVE or game.knights[game.side] != mover:
                continue
            text = p.decide(game, lambda: 0)
            assert text
            if scorched:
                later += 1
                assert p.nodes > 0, text  # past the first turn: the search's
            elif value:
                won += 1
                assert p.nodes == 0, text  # from the table, no search
                a, rest = text.split("-")
                b, c = rest.split(",")
                game.move(SMALL.index(a), SMALL.index(b))
                game.scorch(SMALL.index(c))
                assert not table.won(game.knights[game.side], game.knights[game.side ^ 1],
                                     game.scorched), text
            else:
                lost += 1
                assert p.nodes > 0, text  # lost: the search holds out
    assert won > 5 and lost > 0 and later > 100, (won, lost, later)


def _whole():
    with open(TABLE, "rb") as f:
        return f.read()


class _File:
    """A file of bytes in RAM (seek, readinto), as the board's flash gives it."""

    def __init__(self, data):
        self.data = data
        self.at = 0

    def seek(self, at):
        self.at = at

    def readinto(self, buf):
        chunk = self.data[self.at:self.at + len(buf)]
        buf[:len(chunk)] = chunk
        self.at += len(chunk)
        return len(chunk)


def test_a_damaged_table_is_dropped_with_a_note_and_the_search_plays_on():
    from attila.opponent.levels import STRONG
    from attila.opponent.planner import Planner

    whole = _whole()  # (read before the loop: 5 KB in one piece of a fragmented heap)
    data = bytearray(whole)
    for k in range(7, 10):
        data[k * BLOCK + 9] ^= 1  # the table's blocks but the last
    data = bytes(data)
    p = Planner(STRONG, 2000)
    p.node_budget = 64
    dropped = 0
    for mover, other, scorched, value in answers():
        game = _game(mover, other, 0)
        if game.phase != MOVE or game.knights[game.side] != mover:
            continue
        p.card = Opening(_File(data), SMALL, "layout.opening")
        assert p.decide(game, lambda: 0)
        if p.card is None:
            dropped += 1
            note = p.take_note()
            assert note.startswith("opening table not used (layout.opening: block "), note
            assert note.endswith(" is damaged or out of place): the board searches"), note
            assert p.nodes > 0
    assert dropped > 5, dropped
    other = from_rows(["...", "...", "..."])
    assert check.raises(CardError, Opening, _File(whole), other, "layout.opening") == (
        "layout.opening: the tables are for another layout (small, 12 squares)")
    assert check.raises(CardError, Opening, _File(bytes(BLOCK)), SMALL, "layout.opening") == (
        "layout.opening: block 0 is damaged or out of place")


def test_the_board_opens_its_table_or_says_why_not():
    from attila.assembly import open_opening

    table, said = open_opening(TABLE, SMALL)
    assert table is not None and said == "opening table: the game's first turn of play is exact"
    assert open_opening(_ROOT + "tests/portable/none.opening", SMALL) == (None, "")
    table, said = open_opening(TABLE, from_rows(["...", "...", "..."]))
    assert table is None and said == (
        "opening table not used (%s: the tables are for another layout (small, 12 squares)): "
        "the game's first turn of play is searched" % TABLE)


# The 4x5 table in boards/solved, its corrections: two positions the board's
# search would throw (at 12 free squares, and at 11 where the board meets its
# own hints), each played from the table with no search (the search's turns
# and the solved game's verdict: tests/tools/solve/test_corrections.py).
CORRECTED = (
    ("...../.R.H./x.R../xRHH. R", "b1-c3,b2"),
    (".x.H./..R.x/HHRx./..R.. H", "b2-d3,a3"),
)


def test_the_corrections_are_played_with_no_search():
    from attila.game.notation import parse_position
    from attila.opponent.levels import STRONG
    from attila.opponent.planner import Planner

    for text, turn in CORRECTED:
        game = parse_position(text)
        with open(_ROOT + "boards/solved/4x5.opening", "rb") as f:
            p = Planner(STRONG, 2000, card=Opening(f, game.layout))
            assert p.decide(game, lambda: 0) == turn
            assert p.nodes == 0
