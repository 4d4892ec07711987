"""A saved game resumed on the emulated board, and the board's turn played as it says.

The board is to move in the saved game: MENU resumes it, the status line
says each piece to lift and put, the hands here do it, and the game kept on
the flash (game.txt and its journal) holds the turn.
"""

import json
import os

from attila.saves.savetext import current, dump, restore
from attila.saves.store import Store
from conftest import LAYOUT, profile

from tools.pico.board import MENU, PicoBoard
from tools.pico.flashimage import read_files

WORDS = ("lift the knight on ", "put the knight on ", "put a tile on ")


def board_with_saved_game(folder, mpy_dir, game, computer, extra=None):
    """A Pico (not started) flashed with `game` saved as game.txt and pico.json
    with the board playing `computer` ("R" or "H") at the strong level, its
    squares as the game has them; `extra`: more files for its flash."""
    save = os.path.join(folder, "game.txt")
    Store(save).save(dump(game))
    files = dict(extra or {})
    with open(save, "rb") as f:
        files["game.txt"] = f.read()
    with open(profile("pico.json")) as f:
        prof = json.load(f)
    prof["game"] = {"computer": computer, "level": "strong"}
    path = os.path.join(folder, "pico-%s.json" % ("romans" if computer == "R" else "huns"))
    with open(path, "w") as f:
        json.dump(prof, f)
    board = PicoBoard.flashed(os.path.join(folder, "board"), LAYOUT, path, extra=files,
                              out_dir=mpy_dir)
    board.squares = game.occupied()
    return board


def play_the_boards_turn(board, layout, side):
    """Resume (MENU), move the pieces as the board (playing `side`, "Romans"
    or "Huns") says: (its turn as shown, "a-b,c"; the game kept on the flash;
    the console output). Inside `with board:`."""
    other = "Huns" if side == "Romans" else "Romans"
    pico = board.pico
    assert board.boot() == "attila: 4x5 on pico, 20 squares"
    pico.run_ms(1500)  # the squares read, the saved game found
    pico.mark()
    board.press(MENU)
    squares = board.squares
    said = []
    for words in WORDS:
        lead = ("The board plays the %s: %s" % (side, words)).encode()
        at = pico.wait_for(lead, 20000) + len(lead)
        end = pico.wait_for(b"\n", 1000, since=at)
        name = pico.serial[at:end].decode().split()[0]  # (a trouble may follow: " [...]")
        said.append(name)
        square = layout.names.index(name)
        squares = squares & ~(1 << square) if words.startswith("lift") else squares | 1 << square
        board.set_squares(squares)
        pico.run_ms(600)
    pico.wait_for(("%s: lift a knight" % other).encode(), 5000)
    # The whole turn was said once on the console, before its first step.
    out = pico.output(0)
    told = "%s: %s-%s,%s (the knight on %s to %s, then scorch %s)\n" % ((side,) + tuple(said) * 2)
    first = "The board plays the %s: %s" % (side, WORDS[0])
    assert out.count(told) == 1 and first in out[out.find(told):], out
    pico.run_ms(1000)  # the turn kept on the flash
    pico.run_to_idle()
    with open(pico.flash_path, "rb") as f:
        files = read_files(f.read())
    kept = restore(current(files["game.txt"], files.get("journal/now/game.txt.jnl", b"")))
    return "%s-%s,%s" % tuple(said), kept, pico.output(0)
