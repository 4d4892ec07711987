"""A file to replay, a game log or a saved game, read from its bytes.

One reader for every command that replays a file: `attila sim --replay` and
`attila analyse` through attila_tools.gamefiles (which finds the file and the
layout with the host's os.path), and the board page, which runs this module
on MicroPython in the browser (docs/hooks/board.py ships it): so nothing here
imports more than the core.
"""

from attila.game import notation
from attila.errors import AttilaError
from attila.game.rules import HUNS, ROMANS, Game
from attila.saves.savetext import restore, unpack


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


def _text(data, source):
    """The text of a game log's bytes, refused as not a game if not UTF-8 text."""
    try:
        text = data.decode("utf-8")
    except (UnicodeError, ValueError):
        text = "\x00"
    if "\x00" in text:
        raise AttilaError("%s: not a game: not UTF-8 text (expected a game log like "
                          "@a1 @e4 ... b1-c3,d4 or a saved game)" % source)
    return text


def read_game(data, source, layout, tiles=None, text_of=_text):
    """(first side, actions, tiles) of a saved game or a game log (bytes);
    `source` names the file in the errors, text_of(data, source) gives a
    log's text (the host's says which byte is not UTF-8).

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
    text = text_of(data, source)
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
