"""`attila card --check CARD [LAYOUT]`: can the board use this microSD card (or an image of one)?

Reads it as the board does, with the board's own readers: attila.opponent.fat finds
attila.tbl in the card's FAT file system (an exFAT card, the way cards of
64 GB and more are sold, is told so with how to reformat it), attila.opponent.card
opens the tables; then every block of the file is read and checked, which
a copy split across the card (the board trusts it to be in one piece)
fails. One line says whether the board can use it; exit 0 when it can, 1
when not. Without LAYOUT the tables are checked against the layout their
head names; with it, they must be that layout's.
"""

import os

from attila.opponent.card import BLOCK, FILE, Card, CardError, MAGIC
from attila.errors import AttilaError
from attila.opponent.fat import first_block
from attila.game.geometry import Layout
from attila_tools.errors import ToolError, UsageError

CHUNK = 2048  # blocks read at once (1 MB): a card reader streams them


class Source:
    """A card (a block device such as /dev/sdb) or its image, as readblocks()."""

    def __init__(self, f):
        self.f = f
        self._at = -1
        self._buf = b""

    def readblocks(self, n, buf):
        if not self._at <= n < self._at + len(self._buf) // BLOCK:
            self.f.seek(n * BLOCK)
            self._buf = self.f.read(CHUNK * BLOCK)
            self._at = n
        i = (n - self._at) * BLOCK
        got = self._buf[i:i + BLOCK]
        if len(got) != BLOCK:
            raise OSError(5, "the card ends at block %d" % (self._at + len(self._buf) // BLOCK))
        buf[:] = got


def head_layout(dev, start):
    """The layout a card's head names (its squares and name)."""
    buf = bytearray(BLOCK)
    dev.readblocks(start, buf)
    if bytes(buf[0:4]) != MAGIC:
        raise CardError("%s: not an Attila card" % FILE)
    n = buf[4]
    files = list(buf[9:9 + n])
    ranks = list(buf[9 + n:9 + 2 * n])
    if not n or max(files) >= 32 or max(ranks) >= 32:
        raise CardError("%s: the head is damaged" % FILE)
    end = 64
    while end < 504 and buf[end]:
        end += 1
    name = bytes(buf[64:end]).decode("utf-8", "replace")
    return Layout(max(files) + 1, max(ranks) + 1, zip(files, ranks), name)


def check(path, layout=None, progress=None):
    """(True, the line that says what the board plays) or (False, why not);
    OSError when `path` cannot be read at all."""
    with open(path, "rb") as f:
        dev = Source(f)
        try:
            start = first_block(dev, FILE)
            if layout is None:
                layout = head_layout(dev, start)
            card = Card(dev, layout, start, FILE)
            if progress is not None:
                progress.total = card.blocks
            for k in range(1, card.blocks + 1):
                card.block(k)
                if progress is not None and k % CHUNK == 0:
                    progress.show(k)
            if progress is not None:
                progress.show(card.blocks)
                progress.end()
        except (AttilaError, OSError) as e:
            why = e.strerror if isinstance(e, OSError) and e.strerror else e
            return False, "%s: the board cannot use this card: %s" % (path, why)
    return True, ("%s: the board can use this card: the solved game of %s (%d blocks, "
                  "every one checked)" % (path, card.title, card.blocks))


def main(path, layout_path=None, quiet=False):
    """The command's exit code, its verdict printed (to stderr when the board
    cannot use the card: exit 1); ToolError when there is no card to read."""
    import sys

    from attila_tools.solve import retro

    layout = None
    if layout_path is not None:
        from attila.game.layoutfile import load

        layout = load(layout_path)[0]
    if not os.path.exists(path):
        raise UsageError("%s: no such card or image" % path)
    try:
        ok, line = check(path, layout, None if quiet else retro.Progress(1, label="checking"))
    except OSError as e:
        raise ToolError("cannot read %s: %s" % (path, e.strerror or e))
    print(line, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1
