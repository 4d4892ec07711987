"""The setup book: the board's placement at each setup position it can meet.

Why it is built this way: docs/pages/inside/design.md (attila/opponent/book.py).
"""

from attila.compat import const
from attila.errors import AttilaError
from attila.game.geometry import popcount
from attila.game.rules import SETUP

_MAGIC = b"ATB2"
_OLD = b"ATB1"  # records without a check byte: made again by `attila book`
_HEAD = const(8)
_RECORD = const(5)
_CRC_POLY = const(0x07)
_CRC_START = const(0xFF)

_open = open


class BookError(AttilaError):
    """A book file that does not fit the layout or is damaged."""


def choose(x, k):
    """Binomial coefficient C(x, k) for k <= 3 (small ints only)."""
    if k == 0:
        return 1
    if x < k:
        return 0
    if k == 1:
        return x
    if k == 2:
        return x * (x - 1) // 2
    return x * (x - 1) * (x - 2) // 6


def rank(mask):
    """Colex rank of a set of up to three bits among the sets of its size."""
    r = 0
    k = 1
    i = 0
    while mask:
        if mask & 1:
            r += choose(i, k)
            k += 1
        mask >>= 1
        i += 1
    return r


def squeeze(a, b):
    """The bits of `a` renumbered over the places not in `b`."""
    out = 0
    pos = 0
    while a:
        if not b & 1:
            if a & 1:
                out |= 1 << pos
            pos += 1
        a >>= 1
        b >>= 1
    return out


def image(perms, n, p, mask):
    """Image of a mask under symmetry p >= 1 of `perms` (n square images each,
    the identity left out), as the book and the opening table keep them."""
    off = (p - 1) * n
    out = 0
    i = 0
    while mask:
        if mask & 1:
            out |= 1 << perms[off + i]
        mask >>= 1
        i += 1
    return out


def crc8(data, n):
    """CRC-8 (polynomial 0x07, from 0xFF) of data[:n]: a record's check byte.

    It tells every change of one or two bits, and any change within one byte,
    of a record; an erased (0xFF) or zeroed record fails it too.
    """
    c = _CRC_START
    for i in range(n):
        c ^= data[i]
        for _ in range(8):
            c = (c << 1 ^ _CRC_POLY if c & 0x80 else c << 1) & 0xFF
    return c


def key(n, first, second):
    """The record key of a setup position (both masks in the canonical orientation)."""
    nf = popcount(first)
    ns = popcount(second)
    return (nf * 4 + ns) << 20 | rank(first) * choose(n - nf, ns) + rank(squeeze(second, first))


def open(path, layout):  # noqa: A001 - the module's verb, as attila.opponent.book.open
    """Open a book file for a layout; BookError if it is for another layout or damaged."""
    try:
        f = _open(path, "rb")
    except OSError:
        raise BookError("%s: cannot open the book" % path)
    try:
        return Book(f, layout, path)
    except BaseException:
        f.close()
        raise


class Book:
    """A book file kept open; each lookup reads a few 5-byte records."""

    def __init__(self, f, layout, path="book"):
        self._f = f
        self.layout = layout
        head = f.read(_HEAD)
        if len(head) == _HEAD and head[:4] == _OLD:
            raise BookError("%s: a setup book of an older format (no check bytes): "
                            "make it again with attila book" % path)
        if len(head) != _HEAD or head[:4] != _MAGIC:
            raise BookError("%s: not a setup book" % path)
        n = self.n = head[4]
        self._nperm = head[5]
        self.count = head[6] << 8 | head[7]
        if n != layout.size:
            raise BookError("%s: the book is for %d squares, the layout has %d"
                            % (path, n, layout.size))
        places = f.read(2 * n)
        if places != bytes(layout.files) + bytes(layout.ranks):
            raise BookError("%s: the book is for another layout" % path)
        self._perms = f.read(self._nperm * n)
        if len(self._perms) != self._nperm * n:
            raise BookError("%s: the book is cut short" % path)
        self._base = _HEAD + 2 * n + self._nperm * n
        self._buf = bytearray(_RECORD)
        f.seek(0, 2)
        if f.tell() != self._base + self.count * _RECORD:
            raise BookError("%s: the book is cut short or too long" % path)

    def close(self):
        self._f.close()

    def _image(self, p, mask):
        """Image of a mask under symmetry p (0 = the identity)."""
        return image(self._perms, self.n, p, mask) if p else mask

    def _preimage(self, p, square):
        if not p:
            return square
        perms = self._perms
        off = (p - 1) * self.n
        for i in range(self.n):
            if perms[off + i] == square:
                return i
        return -1  # pragma: no cover - a symmetry is a permutation

    def _find(self, k):
        """The answer of the record with key k, or -1 (none, unreadable, or its check fails)."""
        f = self._f
        buf = self._buf
        lo = 0
        hi = self.count
        while lo < hi:
            mid = (lo + hi) >> 1
            try:
                f.seek(self._base + mid * _RECORD)
                if f.readinto(buf) != _RECORD:
                    return -1
            except (OSError, ValueError):  # a failing flash, a closed file: no answer
                return -1
            got = buf[0] << 16 | buf[1] << 8 | buf[2]
            if got == k:
                if crc8(buf, 4) != buf[4]:
                    return -1  # a damaged record: no answer rather than a wrong one
                return buf[3]
            if got < k:
                lo = mid + 1
            else:
                hi = mid
        return -1

    def placement(self, game):
        """The book's square for the side to place, or -1 (not in setup, not in
        the book, or the file cannot be read: never raises)."""
        if game.phase != SETUP or game.layout.size != self.n:
            return -1
        first = game.knights[game.first]
        second = game.knights[game.first ^ 1]
        best_p = 0
        bf = first
        bs = second
        for p in range(1, self._nperm + 1):
            f = self._image(p, first)
            if f > bf:
                continue
            s = self._image(p, second)
            if f < bf or s < bs:
                best_p = p
                bf = f
                bs = s
        answer = self._find(key(self.n, bf, bs))
        if answer < 0:
            return -1
        square = self._preimage(best_p, answer)
        if square < 0 or not game.placements() >> square & 1:
            return -1
        return square
