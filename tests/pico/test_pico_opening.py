"""The opening table in the emulated Pico's own flash: the first turn of play is exact.

The board's flash holds what `make flash` puts there, layout.opening too
(boards/solved/4x5.opening); main.py opens it when no card covers the game.
A saved 4x5 game is resumed (MENU) at the first turn of play (14 free
squares, nothing scorched), the Romans to move and the board playing them at
the strong level. The position has one winning turn, and the strong search
alone throws the win there (tools/bench/bench_strength.py's sample, judged
by the retrograde tables; `attila choose` gives the search's turn): with the
table the board plays the winning one. The status lines say each piece to
move; the hands here do it, and the game kept on the flash (game.txt and
its journal) holds the turn. A flipped byte in the table block that lookup
reads: the board says why, one note on the status line, and plays the
search's turn; it never stops.
"""

from attila.game.notation import log
from attila.game.rules import Game
from conftest import LAYOUT, ROOT

from resume import board_with_saved_game, play_the_boards_turn

# 'R...H/R...R/....H/..H.. R' (bench_strength's sample, 14 free, Romans to move).
PLACEMENTS = ["a3", "c1", "e3", "e2", "a4", "e4"]  # Romans first
WINNING = "e3-c2,d4"  # its only winning turn (the tables)
SEARCHED = "a4-c3,d2"  # the strong search's (attila choose): the Huns then win
TABLE = ROOT + "/boards/solved/4x5.opening"
OPENED = "attila: opening table: the game's first turn of play is exact"
# A lookup that fails leaves that turn to the search (the table is dropped
# only after CARD_FAULTS such turns in a row: attila.opponent.planner).
NOTE = "opening table: layout.opening: block %d is damaged or out of place: " \
    "the board searches this turn"


def _game():
    from attila.game.layoutfile import load

    layout = load(LAYOUT)[0]
    game = Game(layout, first=0)
    for name in PLACEMENTS:
        game.place(layout.names.index(name))
    return layout, game


def _root_block():
    """The table block the position's own lookup reads (the board's first read)."""
    from attila.opponent.opening import Opening

    layout, game = _game()
    with open(TABLE, "rb") as f:
        table = Opening(f, layout)
        table.won(game.knights[0], game.knights[1], 0)
        return table._at


def _board(tmp_path, mpy_dir, damaged=None):
    layout, game = _game()
    extra = {}
    if damaged is not None:
        with open(TABLE, "rb") as f:
            table = bytearray(f.read())
        table[damaged * 512 + 100] ^= 0x10  # a data byte: its block's check fails
        extra["layout.opening"] = bytes(table)
    return board_with_saved_game(str(tmp_path), mpy_dir, game, "R", extra), layout


def test_the_board_plays_its_first_turn_from_the_opening_table(tmp_path, mpy_dir):
    board, layout = _board(tmp_path, mpy_dir)
    with board:
        turn, kept, out = play_the_boards_turn(board, layout, "Romans")
        assert board.pico.resets == []
    assert turn == WINNING
    assert OPENED in out.splitlines()
    assert log(kept).endswith(" " + WINNING), log(kept)  # the turn kept on the flash
    assert "Traceback" not in out and " [" not in out  # no trouble said


def test_a_damaged_opening_table_is_said_once_and_the_search_plays(tmp_path, mpy_dir):
    """(A damaged fold map, read when the table opens at power-up, is one
    console line and no table: tests/ports and tests/portable, on the ports'
    fakes and MicroPython unix; here the block a lookup reads.)"""
    block = _root_block()
    board, layout = _board(tmp_path, mpy_dir, damaged=block)
    with board:
        turn, kept, out = play_the_boards_turn(board, layout, "Romans")
        assert board.pico.resets == []
    assert turn == SEARCHED
    assert "Traceback" not in out
    assert log(kept).endswith(" " + SEARCHED), log(kept)
    lines = out.splitlines()
    said = [x for x in lines if "opening" in x]
    # A table block, read by a lookup: the table opened at boot, and the
    # trouble said on the status line from the board's decision on (the
    # player sees it too): one note, the same each line; the search decides.
    note = NOTE % block
    assert said[0] == OPENED and said[1] == (
        "The board plays the Romans: lift the knight on a4 [%s]" % note), lines
    assert {x.split(" [", 1)[1] for x in said[1:]} == {note + "]"}, said
