"""How many finished games a board keeps beside its saves, on the emulated Pico.

    python tools/bench/pico_archive.py     (make bench)

A Pico and a Pico W as `make flash` leaves them with the 4x5 layout
(tools/pico/board.py firmware_files: the Pico with the layout's opening
table, the Pico W without, its 848 KB of littlefs cannot hold it beside the
firmware and the saves' room: attila_tools.board.room). On the chip, in
maintenance mode, the firmware's own attila.saves.archive keeps 120
finished games one after the other, as the board keeps one at the end of
each game: games of the 4x5 board (littlefs keeps a few in one block), or
of the 8x8 DIY board (a block each, as any save longer than about 450
bytes), each made distinct by a last line. Printed: the blocks free after
`make flash`, then the games kept once the archive gives way to the saves
and the blocks left free. Blocks are 4 KB; free blocks are the chip's
statvfs (littlefs counts the blocks in use from above, so a few more are
free than it says).
"""

import os
import tempfile

from benchkit import LAYOUT, PROFILES, reach

from attila.game import layoutfile
from attila.game.rules import Game
from attila.saves.savetext import dump

from pico.board import PicoBoard, build_for, firmware_files
from pico.chip import new_flash

reach("tests", "portable")  # playout: the whole game the tests' saves play too
from playout import play_lowest  # noqa: E402

GAMES = 120
DIY = os.path.join(os.path.dirname(LAYOUT), "diy-8x8.json")

KEEP = """
import os
from attila.saves import archive
from attila.saves.files import HostFs
fs = HostFs()
text = %r
for k in range(%d):
    archive.keep(fs, 'games', text + '# finished game %%d\\n' %% k)
print(len(os.listdir('games')), os.statvfs('/')[3])
"""


def finished(layout_path):
    """The save text of a whole game of the layout, the lowest choice every time."""
    layout, _modules, tiles = layoutfile.load(layout_path)
    return dump(play_lowest(Game(layout, tiles=tiles) if tiles else Game(layout)))


def board(profile, folder):
    """A board of `profile` flashed as `make flash` flashes it, stopped in maintenance."""
    files = firmware_files(LAYOUT, profile, out_dir=os.path.join(folder, "mpy"))
    files["maintenance"] = b""
    path = os.path.join(folder, "flash.bin")
    new_flash(path, files, build_for(profile).uf2)
    return PicoBoard(path, LAYOUT, profile), "layout.opening" in files


def run(b, code):
    with b:
        b.pico.wait_for(b">>> ", 30000, since=0)
        out = b.pico.exec(code, max_ms=300000)
    return [int(v) for v in out.split()[-2:]]


def main():
    texts = (("4x5", finished(LAYOUT)), ("8x8 DIY", finished(DIY)))
    for name in ("pico.json", "picow.json"):
        profile = os.path.join(PROFILES, name)
        b, table = board(profile, tempfile.mkdtemp(prefix="attila-bench-archive-"))
        free = run(b, "import os\nprint(0, os.statvfs('/')[3])")[1]
        print("%s after make flash (4x5, %s): %d blocks free"
              % (name, "its opening table" if table else "no opening table", free))
        for kind, text in texts:
            b, _table = board(profile, tempfile.mkdtemp(prefix="attila-bench-archive-"))
            kept, left = run(b, KEEP % (text, GAMES))
            print("  %d finished games of the %s board (%d-byte saves): %d kept, %d blocks free"
                  % (GAMES, kind, len(text), kept, left))


if __name__ == "__main__":
    main()
