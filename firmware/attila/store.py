"""Saving the game so that a power cut at any moment loses at most one action.

A save is a few lines of text: a version, the layout rows, the first player,
the tile supply and the game log (attila.notation.log), ended by a checksum
line. Store writes it to PATH.tmp, closes it, then renames it over PATH: a
rename replaces the old file in one step (os.rename on MicroPython's FAT and
littlefs, os.replace on a host). A cut during the write leaves the old save
untouched; a cut after the rename leaves the new one. A file whose checksum
does not match is ignored, so even a file system that renames before its
data reaches the flash never hands back half a game.

The file functions are injectable (`fs`: open/rename/remove) so tests can cut
the power at every byte.
"""

from attila.errors import AttilaError
from attila.geometry import from_rows
from attila.notation import log, replay
from attila.rules import SIDES, Game

VERSION = "attila-save 1"


def checksum(text):
    """Adler-32 of the text (its characters as bytes below 256)."""
    a = 1
    b = 0
    for ch in text:
        a = (a + (ord(ch) & 0xFF)) % 65521
        b = (b + a) % 65521
    return b << 16 | a


def dump(game):
    """The save text of a game (without the checksum line Store adds)."""
    return "%s\nrows %s\nfirst %s\ntiles %d\nlog %s\n" % (
        VERSION,
        "/".join(game.layout.rows()),
        SIDES[game.first],
        game.supply,
        log(game),
    )


def restore(text, layout=None):
    """The Game a save text describes; AttilaError says what is wrong.

    With `layout`, the save must be for that layout (a board that was laid
    out differently since cannot take the game back).
    """
    fields = {}
    lines = text.split("\n")
    if not lines or lines[0] != VERSION:
        raise AttilaError("save: first line must be %r" % VERSION)
    for line in lines[1:]:
        if line:
            key, _, value = line.partition(" ")
            fields[key] = value
    for key in ("rows", "first", "tiles", "log"):
        if key not in fields:
            raise AttilaError("save: no %r line" % key)
    rows = fields["rows"].split("/")
    saved = from_rows(rows)
    if layout is None:
        layout = saved
    elif saved != layout:
        raise AttilaError(
            "save: it is for the layout %s, the board is %s"
            % (fields["rows"], "/".join(layout.rows()))
        )
    first = fields["first"]
    if first not in ("R", "H"):
        raise AttilaError("save: first must be R or H, not %r" % first)
    try:
        tiles = int(fields["tiles"])
    except ValueError:
        raise AttilaError("save: tiles must be a number, not %r" % fields["tiles"])
    game = Game(layout, SIDES.index(first), tiles)
    replay(game, fields["log"])
    return game


class _HostFs:
    """The real file system: builtin open, os.rename (replacing) and os.remove."""

    def __init__(self):
        import os

        self._os = os
        # CPython's os.rename refuses to replace on Windows; os.replace does.
        self.rename = getattr(os, "replace", os.rename)
        self.remove = os.remove

    def open(self, path, mode):
        return open(path, mode)

    def sync(self, f):
        f.flush()
        fsync = getattr(self._os, "fsync", None)
        if fsync is not None and hasattr(f, "fileno"):
            fsync(f.fileno())


class Store:
    """A save file at `path`: load() -> text or None, save(text), clear()."""

    def __init__(self, path, fs=None):
        self.path = path
        self.tmp = path + ".tmp"
        self.fs = fs if fs is not None else _HostFs()

    def _read(self, path):
        try:
            f = self.fs.open(path, "r")
        except OSError:
            return None
        try:
            text = f.read()
        except OSError:
            return None
        finally:
            f.close()
        # The last line is "end <checksum of everything before it>".
        body, sep, tail = text[:-1].rpartition("\n")
        if not sep or not text.endswith("\n") or not tail.startswith("end "):
            return None
        body += "\n"
        try:
            if int(tail[4:]) != checksum(body):
                return None
        except ValueError:
            return None
        return body

    def load(self):
        """The last complete save, or None."""
        text = self._read(self.path)
        if text is None:
            # Only reachable when the rename itself was cut on a file system
            # that removes before it renames: the complete new file is here.
            text = self._read(self.tmp)
        return text

    def save(self, text):
        """Replace the save with `text`, atomically."""
        f = self.fs.open(self.tmp, "w")
        try:
            f.write(text)
            f.write("end %d\n" % checksum(text))
            sync = getattr(self.fs, "sync", None)
            if sync is not None:
                sync(f)
        finally:
            f.close()
        self.fs.rename(self.tmp, self.path)

    def clear(self):
        """Forget the saved game."""
        for path in (self.path, self.tmp):
            try:
                self.fs.remove(path)
            except OSError:
                pass


class MemoryStore:
    """A store in RAM (simulator, tests): the same interface as Store."""

    def __init__(self, text=None):
        self.text = text
        self.saves = 0

    def load(self):
        return self.text

    def save(self, text):
        self.text = text
        self.saves += 1

    def clear(self):
        self.text = None
