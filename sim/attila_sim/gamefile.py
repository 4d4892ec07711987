"""A game log or a saved game, read from its bytes: the board page's replay.

`attila sim --replay` reads these files with the host's file functions
(they use os.path, which MicroPython does not have); the page reads the file
the player chose with these, in the same words (tests/sim/test_sim_web.py
holds the two to each other).
"""

from attila import notation
from attila.errors import AttilaError
from attila.rules import HUNS, ROMANS, Game
from attila.savetext import restore, unpack


def saved_body(data, source):
    """The save text of a saved game's bytes (its checksum checked), or None
    when the bytes are no save (a game log, maybe)."""
    if not data.startswith(b"attila-save"):
        return None
    try:
        return unpack(data)
    except AttilaError as e:
        raise AttilaError("%s: the saved game is incomplete or damaged (%s)"
                          % (source, str(e).replace("save: ", "")))


def read_game(data, source, layout, tiles=None):
    """(first side, actions, tiles) of a saved game or a game log (bytes), read
    as `attila sim --replay` reads a file, in the same words; here on
    MicroPython, without the host's file functions.

    A log is placements and turns separated by spaces or lines ('#' starts a
    comment), legal from the empty board with Romans first, or Huns first
    when a line says 'first H'. A save brings its first side and tile supply.
    """
    body = saved_body(data, source)
    if body is not None:
        try:
            game = restore(body, layout)
        except AttilaError as e:
            raise AttilaError("%s: %s" % (source, e))
        return game.first, notation.log(game).split(), game.supply
    try:
        text = data.decode("utf-8")
    except (UnicodeError, ValueError):
        text = "\x00"
    if "\x00" in text:
        raise AttilaError("%s: not a game: not UTF-8 text (expected a game log like "
                          "@a1 @e4 ... b1-c3,d4 or a saved game)" % source)
    first = ROMANS
    words = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("first "):
            side = line[6:].strip()
            if side not in ("R", "H"):
                raise AttilaError("%s: first must be R or H, not %r" % (source, side))
            first = HUNS if side == "H" else ROMANS
            continue
        words += line.split()
    if not words:
        raise AttilaError("%s: no game in it (expected a saved game or a log like "
                          "@a1 @e4 ... b1-c3,d4)" % source)
    log = " ".join(words)
    try:
        notation.replay(Game(layout, first, tiles), log)
    except AttilaError as e:
        raise AttilaError("%s: %s" % (source, e))
    return first, log.split(), tiles
