"""The opening table: the solved game's first turn of play, in the board's own flash.

    opening = attila.opening.Opening(open("layout.opening", "rb"), layout)
    opening.won(mover, other, scorched)   # at most one square scorched
    # then as an attila.card.Card: ask(game), step(), winning_turn(game)

The first turn of play (no square scorched yet) is where the search throws
the most wins, whatever its budget (make bench: bench_strength): its
evaluation, not its depth, falls short there.
Its children are the positions with one square scorched, one bit each: for
4x5 that is 1.4 MB, too much for a Pico's flash, but the layout's
symmetries fold it to a quarter, about 370 KB. With it the board plays a
winning first turn whenever one exists, without an SD card; the card
(attila.card), when there is one, covers every turn instead.

The file is an attila.card file in all but its table: the same 512-byte
blocks with the same trailer (a damaged, foreign or misplaced block fails
its check) and the same head, but b"ATO1", at byte CANON the number of
placements kept (below), and from byte SYMS the number of symmetries
besides the identity and each as n bytes (image of square i).
Blocks 1.. hold the fold map: for each placement of the other side's
knights, by its colex rank r, two bytes (big-endian) p << 13 | k, p the
first symmetry (the identity is 0) whose image of those knights has the
smallest rank, k the number of that image among the images so chosen, in
rank order; MAP entries a block. Then the table: position (mover, other,
scorched) is bit row * (m + 1) + e, m the non-knight squares, with the
position moved by symmetry p: row = k * C(n-3, 3) + rank(mover among the
squares not the other's), e = 0 with nothing scorched, else 1 + the
scorched square's number among the m; DATA bytes a block, lowest bit first.
Made on the host by `attila card --opening`, from the retrograde tables.
"""

from attila.book import choose, image, rank, squeeze
from attila.card import BITS, BLOCK, DATA, NAME, Card, CardError, seal, tag
from attila.compat import const
from attila.geometry import lowest
from attila.rules import KNIGHTS

MAGIC = b"ATO1"
CANON = const(62)  # in the head: the placements kept (2 bytes, big-endian)
SYMS = const(256)  # where the symmetries start in the head (the name ends before)
MAP = const(252)  # fold map entries (2 bytes) a block
FILE = "layout.opening"  # on the board, beside layout.json and layout.book


def map_blocks(n):
    """Blocks of the fold map of a layout of n squares."""
    return (choose(n, 3) + MAP - 1) // MAP


def table_blocks(n, canon):
    """Blocks of the table, `canon` placements of the other side being kept."""
    bits = canon * choose(n - 3, 3) * (n - 2 * KNIGHTS + 1)
    return (bits + BITS - 1) // BITS


def head(layout, perms, canon):
    """Block 0 of a layout's opening table (bytes): perms, the symmetries besides
    the identity (n square images each); canon, the placements kept."""
    n = layout.size
    blocks = map_blocks(n) + table_blocks(n, canon)
    buf = bytearray(BLOCK)
    buf[0:4] = MAGIC
    buf[4] = n
    for k in range(4):
        buf[5 + k] = blocks >> (8 * k) & 0xFF
    buf[9:9 + n] = bytes(layout.files)
    buf[9 + n:9 + 2 * n] = bytes(layout.ranks)
    buf[CANON] = canon >> 8
    buf[CANON + 1] = canon & 0xFF
    name = (layout.name or "").encode()[:SYMS - NAME - 1]
    buf[NAME:NAME + len(name)] = name
    buf[SYMS] = len(perms)
    at = SYMS + 1
    for perm in perms:
        buf[at:at + n] = bytes(perm)
        at += n
    seal(buf, 0, tag(layout))
    return bytes(buf)


class Opening(Card):
    """A layout's opening table, open; a lookup reads at most one block (the
    fold map is read whole when it opens: 2 bytes per placement, 2.3 KB on 4x5)."""

    magic = MAGIC
    kind = "an opening table"
    what = "opening table"
    whole = False

    def __init__(self, source, layout, where=FILE):
        self._perms = b""
        self._canon = self._syms = 0
        Card.__init__(self, source, layout, 0, where)
        n = self._n
        count = choose(n, 3)
        fold = self._fold = bytearray(2 * count)
        self._first = 1 + map_blocks(n)  # the table's first block
        for i in range(map_blocks(n)):
            self._read(1 + i)
            at = i * MAP * 2
            end = min(at + MAP * 2, 2 * count)
            fold[at:end] = self._buf[:end - at]
        self._row = self._m + 1  # bits a row

    def _size(self, head):
        n = self._n
        syms = head[SYMS]
        if SYMS + 1 + syms * n > DATA:
            raise CardError("%s: the head is damaged" % self.where)
        self._syms = syms
        self._perms = bytes(head[SYMS + 1:SYMS + 1 + syms * n])
        self._canon = head[CANON] << 8 | head[CANON + 1]
        return map_blocks(n) + table_blocks(n, self._canon)

    def won(self, mover, other, scorched):
        """1 when the side to move wins with perfect play, else 0: a position
        with at most one scorched square (CardError past the fold: damaged)."""
        r = 2 * rank(other)
        e = self._fold[r] << 8 | self._fold[r + 1]
        p = e >> 13
        k = e & 0x1FFF
        if k >= self._canon or p > self._syms:  # (a map whose blocks pass their checks)
            self.fault = "%s: the fold map is damaged" % self.where
            raise CardError(self.fault)
        if p:
            perms = self._perms
            n = self._n
            mover = image(perms, n, p, mover)
            other = image(perms, n, p, other)
            scorched = image(perms, n, p, scorched)
        row = k * self._nrest + rank(squeeze(mover, other))
        x = row * self._row
        if scorched:
            x += 1 + lowest(squeeze(scorched, mover | other))
        self._read(self._first + x // BITS)
        x %= BITS
        return self._buf[x >> 3] >> (x & 7) & 1

    def ask(self, game):
        """As Card.ask, for the first turn of play only (nothing scorched yet):
        False afterwards, and the search decides."""
        if game.scorched:
            return False
        return Card.ask(self, game)
