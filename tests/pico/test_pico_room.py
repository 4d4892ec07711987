"""A board whose flash is full goes on saving its game: the finished games give way.

The 8x8 DIY board on the emulated Pico (its reed switches in a diode matrix
of 8 rows and 8 columns): its save is longer than littlefs keeps in a
folder's metadata, so a whole save written over the last one, and each
finished game, take a 4 KB block. Its flash holds the firmware, the 100
finished games the board keeps at most and a maker's files that leave no
block free, as after an update that put more on a board's flash. A saved
game one turn from its end is resumed and finished, then a new game
begins: every action is on the flash and none was refused, the finished
game is kept among the newest, and the saves have their room
(attila.saves.archive: the oldest games went).
"""

import json
import os

from littlefs import LittleFSError

from attila.game import layoutfile
from attila.game.rules import Game
from attila.saves.archive import GAMES_KEPT, SAVE_BLOCKS, game_number
from attila.saves.savetext import checksum, current, dump, unpack
from conftest import PROFILES, ROOT
from playout import play_lowest

from tools.pico import flashimage
from tools.pico.board import MENU, PicoBoard, firmware_files
from tools.pico.chip import new_flash

LAYOUT = os.path.join(ROOT, "boards", "diy-8x8.json")


def _whole_game(layout):
    """A whole game of the layout, the lowest choice every time."""
    return play_lowest(Game(layout))


def _profile(folder):
    """pico-matrix.json with 8 rows (GP0-GP7) and 8 columns (GP8-GP15)."""
    with open(os.path.join(PROFILES, "pico-matrix.json")) as f:
        prof = json.load(f)
    prof["name"] = "pico-8x8"
    prof["sensors"].update(rows=list(range(8)), cols=list(range(8, 16)))
    path = os.path.join(folder, "pico-8x8.json")
    with open(path, "w") as f:
        json.dump(prof, f)
    return path


def _whole(text):
    """A file written whole (attila.saves.files): the text and its checksum line."""
    return (text + "end %d\n" % checksum(text)).encode()


def _full_flash(path, files, games):
    """flash.bin: `files`, `games` finished games and a maker's file until no
    block is free."""
    fs = flashimage.mount()
    for name in sorted(files):
        parts = name.split("/")
        for k in range(1, len(parts)):
            try:
                fs.mkdir("/".join(parts[:k]))
            except FileExistsError:
                pass
        with fs.open(name, "wb") as f:
            f.write(files[name])
    fs.mkdir("games")
    for k, text in enumerate(games):
        with fs.open("games/game-%05d-%08x.txt" % (k + 1, checksum(text)), "wb") as f:
            f.write(_whole(text))
    fs.mkdir("notes")
    n = 0
    while True:  # a block a file, until one does not fit
        n += 1
        try:
            with fs.open("notes/%d.bin" % n, "wb") as f:
                f.write(b"n" * flashimage.BLOCK_SIZE)
        except LittleFSError:
            break
    fs.remove("notes/%d.bin" % n)
    assert fs.used_block_count == flashimage.BLOCK_COUNT
    new_flash(path, {})
    with open(path, "r+b") as f:
        f.seek(flashimage.FS_OFFSET)
        f.write(bytes(fs.context.buffer))


def _free_blocks(path):
    with open(path, "rb") as f:
        image = f.read()[flashimage.FS_OFFSET:]
    return flashimage.BLOCK_COUNT - flashimage.mount(image).used_block_count


def test_a_full_flash_drops_the_oldest_games_never_an_action(tmp_path, mpy_dir):
    layout, _modules, _tiles = layoutfile.load(LAYOUT)
    whole = _whole_game(layout)
    last = [whole.describe(e) for e in whole.history[-2:]]  # the last turn: "f7-d8", ",f7"
    saved = _whole_game(layout)
    saved.undo()
    saved.undo()
    assert len(dump(saved)) > 600  # (a block of its own)
    prof = _profile(str(tmp_path))
    files = firmware_files(LAYOUT, prof, out_dir=mpy_dir)
    files["game.txt"] = _whole(dump(saved) + "gen 1\n")
    games = ["%s# finished game %d\n" % (dump(whole), k + 1) for k in range(GAMES_KEPT)]
    path = str(tmp_path / "flash.bin")
    _full_flash(path, files, games)
    board = PicoBoard(path, LAYOUT, prof)
    board.squares = saved.occupied()
    with board:
        pico = board.pico
        assert board.boot() == "attila: diy-8x8 on pico-8x8, 64 squares"
        pico.wait_for(b"MENU: resume, UNDO: discard. The board matches it", 5000)
        pico.mark()
        board.press(MENU)
        squares = board.squares
        start, end = last[0].split("-")
        for name, put in ((start, False), (end, True), (last[1][1:], True)):
            bit = 1 << layout.names.index(name)
            squares = squares | bit if put else squares & ~bit
            board.set_squares(squares)
            pico.run_ms(600)
        pico.wait_for(b"Game over: Huns win", 1000)
        pico.run_ms(1500)  # the squares settle: the whole save, the game kept
        board.press(MENU)  # a new game: every piece off, a knight on a1
        pico.run_ms(600)
        pico.mark()
        board.set_squares(0)
        pico.wait_for(b"Romans: place a knight", 2000)
        pico.mark()
        board.set_squares(1 << layout.names.index("a1"))
        pico.wait_for(b"Huns: place a knight", 2000)
        pico.run_ms(1000)
        pico.run_to_idle()
        said = pico.output(0)
        assert pico.resets == []
    assert "[" not in said, said  # no trouble said: no "[flash full: cannot save the game]"
    with open(path, "rb") as f:
        on_flash = flashimage.read_files(f.read())
    kept = sorted(game_number(n[len("games/"):]) for n in on_flash if n.startswith("games/"))
    # The newest of the old games, then the one just finished; the oldest went.
    assert 1 < kept[0] and kept == list(range(kept[0], GAMES_KEPT + 2)), kept
    finished = [n for n in on_flash if n.startswith("games/game-%05d-" % (GAMES_KEPT + 1))]
    assert unpack(on_flash[finished[0]]) == dump(whole)
    new = Game(layout)
    new.place(layout.names.index("a1"))
    assert current(on_flash["game.txt"], on_flash.get("journal/now/game.txt.jnl", b"")) \
        == dump(new)
    notes = [n for n in on_flash if n.startswith("notes/")]
    assert notes and all(on_flash[n] == b"n" * flashimage.BLOCK_SIZE for n in notes)
    assert _free_blocks(path) >= SAVE_BLOCKS
