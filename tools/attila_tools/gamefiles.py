"""The layouts and games a command is handed: below both the tools and the simulator.

`attila analyse`, `attila sim --replay` and the simulator's panel all find a
layout file (as given, or in this repository's boards/), pick the board a
save was made on, and read a saved game or a game log (replayfile.py, from
its bytes). They share this module, which depends only on the firmware's
core, files.py and replayfile.py, so the simulator may use the tools and the
tools never need the simulator.
"""

import os

from attila.game import layoutfile
from attila.errors import AttilaError
from attila.saves.savetext import restore

from attila_tools.files import read_bytes, text_of
from attila_tools.replayfile import read_game, saved_body

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


def saved_layout(path):
    """The layout a save file was made on, or None when the file is a game log."""
    body = saved_body(read_bytes(path), path)
    if body is None:
        return None
    try:
        return restore(body).layout
    except AttilaError as e:
        raise AttilaError("%s: %s" % (path, e))


def load_replay(path, layout, tiles=None):
    """(first side, items, tiles) of a saved game (attila-save) or a game log
    (attila_tools.replayfile says how each is read).

    Read only: a file handed to --replay is never moved, even a damaged save.
    """
    return read_game(read_bytes(path), path, layout, tiles, text_of)
