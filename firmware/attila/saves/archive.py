"""Finished games kept on flash, the newest GAMES_KEPT of them, for `attila games`.

Each is its save text (attila.saves.savetext) in the games folder as
game-NUMBER-CHECKSUM.txt, numbered in the order the games ended, written
whole (attila.saves.files). An archived game takes a 4 KB block of a Pico's
littlefs: about 270 of them would fill its flash (the firmware on it), and
a full flash stops the saves; 100 take 400 KB. The oldest goes for a new
one.
"""

from attila.compat import const
from attila.saves.files import exists, read_text, write_whole
from attila.saves.savetext import checksum

GAMES_KEPT = const(100)


def game_number(name):
    """The number of an archived game's file name, game-NUMBER-CHECKSUM.txt;
    -1 when the name is not an archived game's."""
    if not name.startswith("game-") or not name.endswith(".txt"):
        return -1
    parts = name[5:-4].split("-")
    try:
        if len(parts) == 2 and len(parts[1]) == 8 and parts[0].isdigit():
            int(parts[1], 16)
            return int(parts[0])
    except ValueError:
        pass
    return -1


def keep(fs, folder, text):
    """Keep a finished game's save text in `folder` (made if missing); the
    same game is kept once, another with its checksum too. Its path."""
    if not exists(fs, folder):
        fs.mkdir(folder)
    tail = "-%08x.txt" % checksum(text)
    kept = []  # (number, name) of the games kept
    for name in fs.listdir(folder):
        number = game_number(name)
        if number >= 0:
            # The same checksum: the same game, unless (Adler-32 on a
            # few hundred bytes) another one shares it.
            if name.endswith(tail) and read_text(fs, folder + "/" + name)[0] == text:
                return folder + "/" + name
            kept.append((number, name))
    kept.sort()
    while len(kept) >= GAMES_KEPT:
        fs.remove(folder + "/" + kept.pop(0)[1])
    path = "%s/game-%05d%s" % (folder, kept[-1][0] + 1 if kept else 1, tail)
    write_whole(fs, path, text)
    return path
