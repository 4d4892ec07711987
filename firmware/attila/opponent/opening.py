"""The opening table: the solved game's first turn of play, in the board's own flash.

Why it is built this way: docs/pages/inside/design.md (attila/opponent/opening.py).
"""

from attila.opponent.book import choose, image, rank, squeeze
from attila.opponent.card import BITS, BLOCK, DATA, NAME, Card, CardError, seal, tag
from attila.compat import const
from attila.game.geometry import lowest, popcount
from attila.game.rules import KNIGHTS, MOVE

MAGIC = b"ATO1"
CANON = const(62)  # in the head: the placements kept (2 bytes, big-endian)
SYMS = const(256)  # where the symmetries start in the head (the name ends before)
REPLIES = const(59)  # in the head: the reply table's records (3 bytes, big-endian)
CORRECTIONS = const(56)  # in the head: the corrections' records (3 bytes, big-endian)
RECORD = const(5)  # bytes of a reply record
RECORDS = const(100)  # reply records a block
FIX = const(6)  # bytes of a correction record
FIXES = const(84)  # correction records a block
MAP = const(252)  # fold map entries (2 bytes) a block
FILE = "layout.opening"  # on the board, beside layout.json and layout.book


def map_blocks(n):
    """Blocks of the fold map of a layout of n squares."""
    return (choose(n, 3) + MAP - 1) // MAP


def table_blocks(n, canon):
    """Blocks of the table, `canon` placements of the other side being kept."""
    bits = canon * choose(n - 3, 3) * (n - 2 * KNIGHTS + 1)
    return (bits + BITS - 1) // BITS


def reply_blocks(count):
    """Blocks of a reply table of `count` records."""
    return (count + RECORDS - 1) // RECORDS


def correction_blocks(count):
    """Blocks of a corrections table of `count` records."""
    return (count + FIXES - 1) // FIXES


def reply_key(n, mover, other, scorched):
    """The key of a position with one scorched square (the reply table's order)."""
    row = rank(other) * choose(n - 3, 3) + rank(squeeze(mover, other))
    return row * (n - 2 * KNIGHTS) + lowest(squeeze(scorched, mover | other))


def correction_key(n, mover, other, scorched):
    """The key of a position with two or three scorched squares (the corrections'
    order: those with two first)."""
    k = popcount(scorched)
    row = rank(other) * choose(n - 3, 3) + rank(squeeze(mover, other))
    return (k - 2) << 29 | row * choose(n - 2 * KNIGHTS, k) + rank(squeeze(scorched, mover | other))


def head(layout, perms, canon, replies=0, corrections=0):
    """Block 0 of a layout's opening table (bytes): perms, the symmetries besides
    the identity (n square images each); canon, the placements kept;
    replies, the reply table's records; corrections, the corrections'."""
    n = layout.size
    blocks = map_blocks(n) + table_blocks(n, canon) + reply_blocks(replies) \
        + correction_blocks(corrections)
    buf = bytearray(BLOCK)
    buf[0:4] = MAGIC
    buf[4] = n
    for k in range(4):
        buf[5 + k] = blocks >> (8 * k) & 0xFF
    buf[9:9 + n] = bytes(layout.files)
    buf[9 + n:9 + 2 * n] = bytes(layout.ranks)
    buf[CANON] = canon >> 8
    buf[CANON + 1] = canon & 0xFF
    buf[REPLIES] = replies >> 16 & 0xFF
    buf[REPLIES + 1] = replies >> 8 & 0xFF
    buf[REPLIES + 2] = replies & 0xFF
    buf[CORRECTIONS] = corrections >> 16 & 0xFF
    buf[CORRECTIONS + 1] = corrections >> 8 & 0xFF
    buf[CORRECTIONS + 2] = corrections & 0xFF
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
    fold map is read whole when it opens: 2 bytes per placement, 2.3 KB on 4x5),
    a reply a block a step of its binary search (10 on 4x5)."""

    magic = MAGIC
    kind = "an opening table"
    what = "opening table"
    whole = False

    def __init__(self, source, layout, where=FILE):
        self._perms = b""
        self._canon = self._syms = 0
        self.replies = 0  # records of the reply table
        self.corrections = 0  # records of the corrections table
        self._key = self._lo = self._hi = self._p = 0  # a record's search (ask(), step())
        self._from = self._count = self._len = self._per = 0  # its table
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
        self._rfirst = self._first + table_blocks(n, self._canon)  # the reply table's
        self._cfirst = self._rfirst + reply_blocks(self.replies)  # the corrections'

    def _size(self, head):
        n = self._n
        syms = head[SYMS]
        if SYMS + 1 + syms * n > DATA:
            raise CardError("%s: the head is damaged" % self.where)
        self._syms = syms
        self._perms = bytes(head[SYMS + 1:SYMS + 1 + syms * n])
        self._canon = head[CANON] << 8 | head[CANON + 1]
        self.replies = head[REPLIES] << 16 | head[REPLIES + 1] << 8 | head[REPLIES + 2]
        self.corrections = head[CORRECTIONS] << 16 | head[CORRECTIONS + 1] << 8 \
            | head[CORRECTIONS + 2]
        return map_blocks(n) + table_blocks(n, self._canon) + reply_blocks(self.replies) \
            + correction_blocks(self.corrections)

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
        """As Card.ask, for the first turn of play (nothing scorched yet); with
        one square scorched, the reply table's turn (step() gives -1 where
        it has none: the search decides); with two or three, the corrections'
        (where they have none, step() gives -1 and `lost` is False: the
        search decides as it would without them); False afterwards."""
        self._key = -1
        self.lost = True
        scorched = game.scorched
        if not scorched:
            return Card.ask(self, game)
        if game.phase != MOVE or game.supply != self._m:
            return False
        k = popcount(scorched)
        if k == 1:
            self._count = self.replies
            self._from = self._rfirst
            self._len = RECORD
            self._per = RECORDS
            keyed = reply_key
        elif k <= 3:
            self._count = self.corrections
            self._from = self._cfirst
            self._len = FIX
            self._per = FIXES
            keyed = correction_key
            self.lost = False
        else:
            return False
        if not self._count:
            return False
        side = game.side
        me = self._me = game.knights[side]
        opp = self._opp = game.knights[side ^ 1]
        self._sc = scorched
        n = self._n
        perms = self._perms
        best = keyed(n, me, opp, scorched)
        self._p = 0
        for p in range(1, self._syms + 1):
            k = keyed(n, image(perms, n, p, me), image(perms, n, p, opp),
                      image(perms, n, p, scorched))
            if k < best:
                best = k
                self._p = p
        self._key = best
        self._lo = 0
        self._hi = (self._count + self._per - 1) // self._per
        return True

    def step(self, lookups, reads):
        """As Card.step; for a reply or a correction, a block of its binary search a read."""
        if self._key < 0:
            return Card.step(self, lookups, reads)
        per = self._per
        size = self._len
        while reads > 0:
            if self._lo >= self._hi:
                return -1
            mid = (self._lo + self._hi) >> 1
            self._read(self._from + mid)
            reads -= 1
            count = self._count - mid * per
            if count > per:
                count = per
            key = self._key
            if key < self._key_at(0):
                self._hi = mid
                continue
            if key > self._key_at((count - 1) * size):
                self._lo = mid + 1
                continue
            self._lo = self._hi = 0  # this block has it, or nobody
            lo = 0
            hi = count
            while lo < hi:
                i = (lo + hi) >> 1
                at = i * size
                got = self._key_at(at)
                if got == key:
                    at += size - 2
                    return self._turn(self._buf[at] << 8 | self._buf[at + 1])
                if got < key:
                    lo = i + 1
                else:
                    hi = i
            return -1
        return -2

    def _key_at(self, at):
        """The key of the record at byte `at` of the block read (3 bytes, or 4 in the
        corrections)."""
        buf = self._buf
        key = buf[at] << 16 | buf[at + 1] << 8 | buf[at + 2]
        if self._len == FIX:
            key = key << 8 | buf[at + 3]
        return key

    def _turn(self, answer):
        """A record's answer moved back from the canonical orientation and packed as
        the search's; -1 when it is no legal turn here (a damaged record
        that passed its block's check: the search decides)."""
        a = self._back(answer >> 10 & 31)
        b = self._back(answer >> 5 & 31)
        c = self._back(answer & 31)
        me = self._me
        free = self.layout.all & ~(me | self._opp | self._sc)
        if a < 0 or b < 0 or c < 0 or not me >> a & 1 \
                or not self.layout.knight[a] >> b & 1 or not free >> b & 1 \
                or not ((free | 1 << a) & ~(1 << b)) >> c & 1:
            return -1
        return 1 << 18 | a << 12 | b << 6 | c

    def _back(self, square):
        """The square whose image under the lookup's symmetry is `square`; -1 none."""
        p = self._p
        n = self._n
        if not p:
            return square if square < n else -1
        off = (p - 1) * n
        perms = self._perms
        for i in range(n):
            if perms[off + i] == square:
                return i
        return -1
