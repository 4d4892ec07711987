"""Finished games kept on flash for `attila games`: the newest, as many as leave the saves their room.

The archive gives way to the saves: the oldest go first, and a game that
would leave the saves less room is not kept (OSError ENOSPC).

Why it is built this way: docs/pages/inside/design.md (attila/saves/archive.py).
"""

from attila.compat import const
from attila.saves.files import ENOSPC, exists, free_bytes, read_text, write_whole
from attila.saves.savetext import checksum

GAMES_KEPT = const(100)
# Free blocks (of 4 KB: littlefs on the rp2 and the esp32) the saves of the
# game in progress may need at once: a whole save written beside the one it
# replaces (until its commit), a folder's metadata pair (the journal's
# folder made anew, or a folder that splits), a block littlefs moves for
# wear. A game is kept only where its own (its block, a new metadata pair
# for its folder) leaves them free.
SAVE_BLOCKS = const(6)
ROOM_BLOCKS = const(10)
# Games dropped in one call at most, the rest at the next: each removal is
# a commit (now and then a sector erase: 45 ms, up to 400 ms), and the
# watchdog may be running.
DROPS = const(32)
BLOCK = const(4096)
GAMES = "games"  # the folder finished games are kept in (`attila games` fetches a board's)


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


def _short(fs, folder):
    """Blocks the file system lacks of ROOM_BLOCKS free (0: none, or it cannot tell)."""
    free = free_bytes(fs, folder)
    if free is None:
        return 0
    short = ROOM_BLOCKS - free // BLOCK
    return short if short > 0 else 0


def _games(fs, folder):
    """(number, name) of the games archived in `folder`, oldest first."""
    kept = []
    for name in fs.listdir(folder):
        number = game_number(name)
        if number >= 0:
            kept.append((number, name))
    kept.sort()
    return kept


def _drop(fs, folder, kept, most):
    """Remove the oldest of `kept` until at most `most` are left and the file
    system has its room, DROPS at most; True when it has its room. A file
    frees a block at most: as many go as blocks are short, then statvfs
    is asked again (statvfs walks the whole file system)."""
    budget = DROPS
    short = _short(fs, folder)
    while kept and budget and (len(kept) > most or short):
        n = min(max(len(kept) - most, short), budget, len(kept))
        budget -= n
        while n:
            fs.remove(folder + "/" + kept.pop(0)[1])
            n -= 1
        short = _short(fs, folder)
    return not short


def make_room(fs, folder):
    """Drop the oldest archived games until the saves have their room (a
    missing folder: nothing to drop); True when they have it."""
    if not _short(fs, folder):
        return True
    try:
        kept = _games(fs, folder)
    except OSError:
        return False  # (no games folder)
    return _drop(fs, folder, kept, GAMES_KEPT)


def keep(fs, folder, text):
    """Keep a finished game's save text in `folder` (made if missing); the
    same game is kept once, another with its checksum too. Its path;
    OSError ENOSPC when the file system has no room for it beside the saves."""
    if not exists(fs, folder):
        fs.mkdir(folder)
    tail = "-%08x.txt" % checksum(text)
    kept = _games(fs, folder)
    for _number, name in kept:
        # The same checksum: the same game, unless (Adler-32 on a few
        # hundred bytes) another one shares it.
        if name.endswith(tail) and read_text(fs, folder + "/" + name)[0] == text:
            return folder + "/" + name
    path = "%s/game-%05d%s" % (folder, kept[-1][0] + 1 if kept else 1, tail)
    if not _drop(fs, folder, kept, GAMES_KEPT - 1):
        raise OSError(ENOSPC, "no room to keep the game beside the saves")
    write_whole(fs, path, text)
    return path
