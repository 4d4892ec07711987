"""The solved game on a microSD card: is this position won for the side to move?

Why it is built this way: docs/pages/inside/design.md (attila/opponent/card.py).
"""

from attila.opponent.book import choose, rank, squeeze
from attila.compat import const
from attila.errors import AttilaError
from attila.game.geometry import lowest
from attila.game.rules import KNIGHTS, MOVE, SCORCH

BLOCK = const(512)
DATA = const(504)  # table bytes in a block
BITS = const(4032)  # DATA * 8
MAGIC = b"ATC1"
END = const(0xA5)
NAME = const(64)  # where the layout's name starts in the head
FILE = "attila.tbl"  # the card's file, in the root of its FAT file system


class CardError(AttilaError):
    """A card that cannot be used: the message says why, in one line."""


def tag(layout):
    """The layout's tag byte, in every block of its card."""
    t = layout.size
    for i in range(layout.size):
        t = (t * 31 + layout.files[i] * 7 + layout.ranks[i] + 1) & 0xFF
    return t


def row_bits(n):
    """Bits of a table row (a knight placement) on n squares: 2^(n-6), 64 at least."""
    m = n - 2 * KNIGHTS
    return 64 if m <= 6 else 1 << m


def table_blocks(n):
    """Data blocks of the card of a layout of n squares."""
    rows = choose(n, 3) * choose(n - 3, 3)
    return (rows * row_bits(n) + BITS - 1) // BITS


def seal(buf, number, layout_tag):
    """Write the trailer of block `number` (buf: its 512 bytes, data in place)."""
    buf[504] = number & 0xFF
    buf[505] = number >> 8 & 0xFF
    buf[506] = number >> 16 & 0xFF
    buf[507] = layout_tag
    s = sum(memoryview(buf)[:508])
    buf[508] = s & 0xFF
    buf[509] = s >> 8 & 0xFF
    buf[510] = s >> 16 & 0xFF
    buf[511] = END


def head(layout):
    """Block 0 of a layout's card (bytes)."""
    n = layout.size
    buf = bytearray(BLOCK)
    buf[0:4] = MAGIC
    buf[4] = n
    count = table_blocks(n)
    for k in range(4):
        buf[5 + k] = count >> (8 * k) & 0xFF
    buf[9:9 + n] = bytes(layout.files)
    buf[9 + n:9 + 2 * n] = bytes(layout.ranks)
    name = (layout.name or "").encode()[:BLOCK - 8 - NAME]
    buf[NAME:NAME + len(name)] = name
    seal(buf, 0, tag(layout))
    return bytes(buf)


class Card:
    """The tables of one layout on a card; a lookup reads at most one block."""

    magic = MAGIC  # attila.opponent.opening's table has its own
    kind = "an Attila card"
    what = "card"  # in the note when it fails
    whole = True  # every position (the opening table: the first turn only)
    lost = True  # step()'s -1: the position is lost (the opening table: or not in it)

    def __init__(self, source, layout, start=0, where=FILE):
        self.layout = layout
        self._src = source
        self._dev = hasattr(source, "readblocks")
        self._start = start
        self.where = where
        self._buf = bytearray(BLOCK)
        self._body = memoryview(self._buf)[:508]
        self._tag = tag(layout)
        self._at = -1  # the block in _buf
        n = self._n = layout.size
        self._nrest = choose(n - 3, 3)
        bits = row_bits(n)
        self._q = bits // BITS  # row * bits = row * (_q * BITS + _r): small ints
        self._r = bits % BITS
        self._m = n - 2 * KNIGHTS
        self.reads = 0  # blocks read
        self.fault = ""  # the last failure (CardError's message), "" while all is well
        self._me = self._opp = self._sc = self._free = self._me1 = 0  # ask()'s search
        self._left = self._ends = self._f = 0
        self._a = self._b = -1
        self._root = False  # the position itself is still to look up
        self._scorch_only = False  # the move is made: only its scorches are tried
        self._read(0)
        b = self._buf
        if b[0:4] != self.magic:
            raise CardError("%s: not %s" % (where, self.kind))
        end = NAME
        while end < 504 and b[end]:
            end += 1
        self.title = bytes(b[NAME:end]).decode() or "unnamed"  # the layout's name in the head
        if b[4] != n or b[9:9 + n] != bytes(layout.files) \
                or b[9 + n:9 + 2 * n] != bytes(layout.ranks):
            raise CardError("%s: the tables are for another layout (%s, %d squares)"
                            % (where, self.title, b[4]))
        if b[507] != self._tag:
            raise CardError("%s: the head is damaged" % where)
        self.blocks = b[5] | b[6] << 8 | b[7] << 16 | b[8] << 24
        if self.blocks != self._size(b):
            raise CardError("%s: the head is damaged" % where)
        self._read(self.blocks)  # the last block: the file is whole
        self._read(1)

    def close(self):
        """Close the file the tables are read from (a block device, which has
        no close(), stays its owner's)."""
        close = getattr(self._src, "close", None)
        if close is not None:
            close()

    def _size(self, head):
        """The blocks after the head, as the layout's size sets them."""
        return table_blocks(self._n)

    def _read(self, block):
        if block == self._at:
            return
        self._at = -1
        buf = self._buf
        try:
            if self._dev:
                self._src.readblocks(self._start + block, buf)
            else:
                self._src.seek(block * BLOCK)
                if self._src.readinto(buf) != BLOCK:
                    raise CardError("%s: cut short at block %d" % (self.where, block))
        except OSError as e:
            self.fault = "%s: block %d unreadable (%s)" % (self.where, block, e)
            raise CardError(self.fault)
        want = self._tag if block else buf[507]  # the head: any layout's, told apart next
        if (buf[504] | buf[505] << 8 | buf[506] << 16) != block & 0xFFFFFF \
                or buf[507] != want or buf[511] != END \
                or sum(self._body) != buf[508] | buf[509] << 8 | buf[510] << 16:
            self.fault = "%s: block %d is damaged or out of place" % (self.where, block)
            raise CardError(self.fault)
        self._at = block
        self.reads += 1

    def block(self, number):
        """Read block `number` and check its trailer (CardError when it fails)."""
        self._read(number)

    def won(self, mover, other, scorched):
        """1 when the side to move (knights `mover`) wins with perfect play, else 0."""
        row = rank(other) * self._nrest + rank(squeeze(mover, other))
        x = row * self._r + squeeze(scorched, mover | other)
        self._read(1 + row * self._q + x // BITS)
        x %= BITS
        return self._buf[x >> 3] >> (x & 7) & 1

    def winning_turn(self, game):
        """A winning turn for the side to act, packed 1 << 18 | a << 12 | b << 6 | c;
        -1 when it has none (or the game is not for the card: setup, another
        supply). In the scorch step, a scorch after the move made. CardError
        when the card contradicts itself (damaged)."""
        if not self.ask(game):
            return -1
        turn = -2
        while turn == -2:
            turn = self.step(64, 64)
        return turn

    def ask(self, game):
        """Set up the search for a winning turn of the side to act, reading
        nothing: step() does the lookups, a few at a time (the board's loop
        goes on meanwhile), the position's own first. In the scorch step the
        scorches after the move made are tried. False when the game is not for
        the card (setup, another supply, over)."""
        phase = game.phase
        if game.supply != self._m or (phase != MOVE and phase != SCORCH):
            return False
        side = game.side
        me = self._me = game.knights[side]
        self._opp = game.knights[side ^ 1]
        self._sc = game.scorched
        free = self._free = game.free()
        self._ends = 0  # squares the knight on _a may still jump to
        scorch = self._scorch_only = phase == SCORCH
        self._root = not scorch
        if scorch:  # the move is made: its scorches only, lost when none wins
            entry = game.history[-1]
            self._left = 0
            self._a = entry >> 8 & 0xFF
            self._b = entry & 0xFF
            self._me1 = me
            self._f = free
        else:
            self._left = me  # knights whose moves are still to try
            self._f = 0  # scorch squares still to try after the move _a-_b
            self._a = self._b = -1
            self._me1 = 0  # the knights after the move _a-_b
        return True

    def step(self, lookups, reads):
        """Go on with the search ask() set up: at most `lookups` lookups and
        `reads` blocks read. The winning turn, packed; -2 while not found yet;
        -1 when the position is lost (or, in the scorch step, no scorch wins).
        CardError when won and no turn wins (the card contradicts itself: damaged)."""
        start = self.reads
        knight = self.layout.knight
        while lookups > 0 and self.reads - start < reads:
            f = self._f
            if self._root:
                self._root = False
                lookups -= 1
                if not self.won(self._me, self._opp, self._sc):
                    return -1
            elif f:
                z = f & -f
                self._f = f ^ z
                lookups -= 1
                if not self.won(self._opp, self._me1, self._sc | z):
                    return 1 << 18 | self._a << 12 | self._b << 6 | lowest(z)
            elif self._ends:
                y = self._ends & -self._ends
                self._ends ^= y
                x = 1 << self._a
                self._b = lowest(y)
                self._me1 = self._me ^ x ^ y
                self._f = self._free ^ x ^ y
            elif self._left:
                x = self._left & -self._left
                self._left ^= x
                self._a = lowest(x)
                self._ends = knight[self._a] & self._free
            elif self._scorch_only:
                return -1
            else:
                self.fault = "%s: won, yet no turn wins: the tables are damaged" % self.where
                raise CardError(self.fault)
        return -2
