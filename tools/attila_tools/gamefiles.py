"""The layouts and games a command is handed: below both the tools and the simulator.

`attila analyse`, `attila sim --replay` and the simulator's panel all find a
layout file (as given, or in this repository's boards/), pick the board a
save was made on, and read a saved game or a game log. They share this
module, which depends only on the firmware's core and on files.py, so the
simulator may use the tools and the tools never need the simulator.
"""

import os

from attila import layoutfile, notation
from attila.errors import AttilaError
from attila.rules import HUNS, ROMANS, Game
from attila.savetext import restore, unpack

from attila_tools.files import read_bytes, text_of

DEFAULT_LAYOUT = "boards/4x5.json"

# tools/attila_tools/gamefiles.py -> the repository's root (an editable install).
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def find_layout(path):
    """The layout path as given, or relative to the repository's root."""
    if os.path.exists(path) or os.path.isabs(path):
        return path
    other = os.path.join(ROOT, path)
    return other if os.path.exists(other) else path


def layout_like(layout):
    """(layout, modules, tiles) of the file in boards/ with this layout's
    squares; failing that, the squares as one DIY module, unnamed (a save
    holds the squares, not the name: it is shown by its rows)."""
    folder = os.path.join(ROOT, "boards")
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
        if name.endswith(".json"):
            try:
                found = layoutfile.load(os.path.join(folder, name))
            except AttilaError:
                continue
            if found[0] == layout:
                return found
    return layoutfile.parse({"custom": True, "rows": layout.rows()}, "save")


def _read(path):
    """(bytes, save text or None) of a replay file; the save's checksum is checked.

    Read only: a file handed to --replay is never moved, even a damaged save.
    """
    data = read_bytes(path)
    if not data.startswith(b"attila-save"):
        return data, None
    try:
        return data, unpack(data)
    except AttilaError as e:
        raise AttilaError("%s: the saved game is incomplete or damaged (%s)"
                          % (path, str(e).replace("save: ", "")))


def saved_layout(path):
    """The layout a save file was made on, or None when the file is a game log."""
    body = _read(path)[1]
    if body is None:
        return None
    try:
        return restore(body).layout
    except AttilaError as e:
        raise AttilaError("%s: %s" % (path, e))


def load_replay(path, layout, tiles=None):
    """(first side, items, tiles) of a saved game (attila-save) or a game log.

    A log is placements and turns separated by spaces or lines ('#' starts a
    comment): @a1 @e4 ... b1-c3,d4. The log must be legal from the empty
    board with Romans first, or Huns first when a line says 'first H'.
    A save brings its own first side and tile supply.
    """
    data, body = _read(path)
    first = ROMANS
    if body is not None:
        # Through the firmware's own checks and restore: checksum, layout, log.
        try:
            game = restore(body, layout)
        except AttilaError as e:
            raise AttilaError("%s: %s" % (path, e))
        return game.first, notation.log(game).split(), game.supply
    words = []
    for line in text_of(data, path).splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("first "):
            side = line[6:].strip()
            if side not in ("R", "H"):
                raise AttilaError("%s: first must be R or H, not %r" % (path, side))
            first = HUNS if side == "H" else ROMANS
            continue
        words += line.split()
    if not words:
        raise AttilaError("%s: no game in it (expected a saved game or a log like "
                          "@a1 @e4 ... b1-c3,d4)" % path)
    log = " ".join(words)
    try:
        notation.replay(Game(layout, first, tiles), log)
    except AttilaError as e:
        raise AttilaError("%s: %s" % (path, e))
    return first, log.split(), tiles
