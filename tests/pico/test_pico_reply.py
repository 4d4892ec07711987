"""The reply table and the corrections in the emulated Pico's flash: the board's
first turn as the second player, its second as the first.

The player places first (the Romans), the board (the Huns) places from its
setup book, the player makes a first turn: the board is to move with 13
free squares, in a position its book led to. layout.opening (what `make
flash` puts there: boards/solved/4x5.opening) holds the winning turn of
every such position; in these two the strong search alone throws the win
(the retrograde tables say so; the positions come from book-led games,
tools/bench/bench_realplay.py's kind). The saved game is resumed (MENU)
and the board plays the table's turn, which keeps the win.

The other way round, the board (the Romans) places first from its book and
plays its first turn from the table; after the player's turn it is to move
with 12 free squares. There it searches (88,000 nodes, its hard stage),
and in these two positions the search would throw the win (MicroPython
unix's viper kernel, the same choice as the emulated Pico's: the
corrections are found with it): the table's corrections hold them, and the
board plays their winning turn, with no search.
"""

import pytest

from attila.game.notation import log
from attila.game.rules import Game
from conftest import LAYOUT

from resume import board_with_saved_game, play_the_boards_turn

# (placements, Romans first: the Huns' are the book's; the player's first
# turn; the table's turn, a winning one; the strong search's, which loses).
CASES = [
    (["e3", "d4", "d2", "b2", "e4", "a3"], "e4-c3,e4", "d4-b3,c4", "a3-c2,d1"),
    (["a2", "b1", "d1", "c1", "c2", "d3"], "d1-b2,e2", "b1-d2,a3", "b1-c3,c4"),
]


# (placements, Romans first: the Romans' are the book's; the board's first
# turn (the opening table's) and the player's; the corrections' turn, a
# winning one; the strong search's, which loses).
SECOND = [
    (["c2", "e1", "a1", "c1", "b1", "d1"], ["a1-b3,a2", "e1-d3,a1"], "b1-c3,b2", "b1-c3,e2"),
    (["c2", "e1", "a1", "a2", "b1", "d1"], ["a1-b3,a1", "a2-c3,d2"], "b1-a3,b2", "b1-a3,d3"),
]


def _game(placements, *turns):
    from attila.game.layoutfile import load

    layout = load(LAYOUT)[0]
    game = Game(layout, first=0)
    for name in placements:
        game.place(layout.names.index(name))
    for turn in turns:
        a, rest = turn.split("-")
        b, c = rest.split(",")
        game.move(layout.names.index(a), layout.names.index(b))
        game.scorch(layout.names.index(c))
    return layout, game


@pytest.mark.parametrize("placements,turn,table,search", CASES, ids=["e4-c3", "d1-b2"])
def test_the_board_replies_from_the_table_where_its_book_led(tmp_path, mpy_dir, placements,
                                                             turn, table, search):
    layout, game = _game(placements, turn)
    board = board_with_saved_game(str(tmp_path), mpy_dir, game, "H")
    with board:
        played, kept, out = play_the_boards_turn(board, layout, "Huns")
        assert board.pico.resets == []
    assert played == table != search
    assert "attila: opening table: the game's first turn of play is exact" in out.splitlines()
    assert log(kept).endswith(" " + table), log(kept)
    assert "Traceback" not in out and " [" not in out


@pytest.mark.parametrize("placements,turns,table,search", SECOND, ids=["e1-d3", "a2-c3"])
def test_the_boards_second_turn_comes_from_the_corrections_where_its_search_throws(
        tmp_path, mpy_dir, placements, turns, table, search):
    layout, game = _game(placements, *turns)
    board = board_with_saved_game(str(tmp_path), mpy_dir, game, "R")
    with board:
        played, kept, out = play_the_boards_turn(board, layout, "Romans")
        assert board.pico.resets == []
    assert played == table != search
    assert "attila: opening table: the game's first turn of play is exact" in out.splitlines()
    assert log(kept).endswith(" " + table), log(kept)
    assert "Traceback" not in out and " [" not in out
