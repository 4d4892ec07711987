"""The table beside the board: the physical pieces and the player's hand.

The sensors only see whether a square is occupied; the person playing knows
which piece is which. The table keeps that knowledge for drawing: every piece
is a Roman knight ("R"), a Hun knight ("H") or a scorched-earth tile ("x"),
and lies on a square, in the reserve beside the board, or in the hand.
Nothing here knows the rules: the controller decides what a change means.
"""

from attila.game.geometry import popcount
from attila.game.rules import scorched_words

ROMAN = "R"
HUN = "H"
TILE = "x"
UNKNOWN = "o"  # a magnet of a sensor log: some piece, nobody knows which
KINDS = (ROMAN, HUN, TILE)
KIND_NAMES = {ROMAN: "Roman knight", HUN: "Hun knight", TILE: "scorched-earth tile",
              UNKNOWN: "piece"}

RESERVE = -1
HAND = -2


class TableError(ValueError):
    """A hand movement that cannot be done (empty square, square taken...)."""


class Piece:
    """One physical piece: its kind and where it lies."""

    def __init__(self, kind, where=RESERVE):
        self.kind = kind
        self.where = where  # square index, RESERVE or HAND
        self.origin = RESERVE  # where it was picked up from, while in the hand

    def __repr__(self):
        return "<Piece %s at %s>" % (self.kind, self.where)


class Table:
    """Pieces on the board, in the reserve and in the hand."""

    def __init__(self, layout, tiles):
        self.layout = layout
        self.pieces = [Piece(ROMAN) for _ in range(3)]
        self.pieces += [Piece(HUN) for _ in range(3)]
        self.pieces += [Piece(TILE) for _ in range(tiles)]
        self.hand = []  # pieces held, last lifted last

    # -- what lies where --------------------------------------------------------

    def on(self, square):
        """The piece on a square, or None."""
        for p in self.pieces:
            if p.where == square:
                return p
        return None

    def occupied(self):
        """Bitmask of the squares with a piece (what the reed switches see)."""
        m = 0
        for p in self.pieces:
            if p.where >= 0:
                m |= 1 << p.where
        return m

    def reserve(self, kind):
        """Pieces of a kind lying beside the board."""
        return [p for p in self.pieces if p.kind == kind and p.where == RESERVE]

    def held(self):
        """The piece in the hand (the last one lifted), or None."""
        return self.hand[-1] if self.hand else None

    # -- what hands do ------------------------------------------------------------

    def lift(self, square):
        """Pick up the piece on a square; it goes into the hand."""
        p = self.on(square)
        if p is None:
            raise TableError("%s is empty: nothing to lift" % self.layout.names[square])
        p.where = HAND
        p.origin = square
        self.hand.append(p)
        return p

    def take(self, kind):
        """Pick up a piece of a kind from the reserve."""
        free = self.reserve(kind)
        if not free:
            raise TableError("no %s left beside the board" % KIND_NAMES[kind])
        p = free[0]
        p.where = HAND
        p.origin = RESERVE
        self.hand.append(p)
        return p

    def put(self, square, piece=None, scorched=False):
        """Put the held piece (or a given held one) down on a free square
        (`scorched`: the game has scorched it, for the words of a refusal)."""
        if piece is None:
            piece = self.held()
        if piece is None or piece not in self.hand:
            raise TableError("the hand is empty: lift or take a piece first")
        if self.on(square) is not None:
            name = self.layout.names[square]
            if self._on_scorch(square, piece, scorched):
                raise TableError(scorched_words(name))
            raise TableError("%s is taken: lift its piece first" % name)
        self.hand.remove(piece)
        piece.where = square
        return piece

    def blocked(self, square, piece=None, scorched=False):
        """Why the held piece (or `piece`) cannot go down on `square`, "" when it can.

        A tile on a square the game has scorched (`scorched`) is scorched earth:
        a knight is told it cannot land there, not to lift the tile, which
        stays for the rest of the game. Any other piece is in the way.
        """
        if self.on(square) is None:
            return ""
        name = self.layout.names[square]
        if self._on_scorch(square, piece or self.held(), scorched):
            return scorched_words(name)
        return "%s is taken" % name

    def _on_scorch(self, square, piece, scorched):
        """True when a piece other than a tile would go onto scorched earth."""
        there = self.on(square)
        return (scorched and there is not None and there.kind == TILE
                and (piece is None or piece.kind != TILE))

    def drop(self, piece=None):
        """Put the held piece back beside the board."""
        if piece is None:
            piece = self.held()
        if piece is None or piece not in self.hand:
            raise TableError("the hand is empty")
        self.hand.remove(piece)
        piece.where = RESERVE
        if piece.kind == UNKNOWN:
            self.pieces.remove(piece)  # it was never one of ours
        return piece

    def clear(self):
        """Every piece back beside the board (a new game)."""
        self.pieces = [p for p in self.pieces if p.kind != UNKNOWN]
        for p in self.pieces:
            p.where = RESERVE
        self.hand = []

    def sense(self, mask):
        """Make exactly the squares of `mask` occupied (a sensor log's reading).

        Pieces leave the squares outside the mask for the reserve; squares
        newly in it get an unknown piece (the sensors cannot say which).
        """
        for p in list(self.pieces):
            if p.where >= 0 and not mask >> p.where & 1:
                if p.kind == UNKNOWN:
                    self.pieces.remove(p)
                else:
                    p.where = RESERVE
        have = self.occupied()
        for i in range(self.layout.size):
            if mask >> i & 1 and not have >> i & 1:
                self.pieces.append(Piece(UNKNOWN, i))

    def arrange(self, romans, huns, scorched):
        """Lay the pieces out as a position (bitmasks); the rest in the reserve."""
        need = {ROMAN: romans, HUN: huns, TILE: scorched}
        for kind, mask in need.items():
            if popcount(mask) > len([p for p in self.pieces if p.kind == kind]):
                raise TableError("not enough %ss for that position" % KIND_NAMES[kind])
        self.clear()
        for kind, mask in need.items():
            i = 0
            for p in self.pieces:
                if p.kind != kind:
                    continue
                while mask and not mask >> i & 1:
                    i += 1
                if not mask:
                    break
                p.where = i
                mask &= ~(1 << i)

    def snapshot(self):
        """Where every piece is now, for restore()."""
        return list(self.pieces), [(p, p.where, p.origin) for p in self.pieces], list(self.hand)

    def restore(self, snap):
        """Put every piece back where snapshot() saw it."""
        pieces, places, hand = snap
        self.pieces = list(pieces)
        for p, where, origin in places:
            p.where = where
            p.origin = origin
        self.hand = list(hand)

    def text(self, square):
        """One character for a square: R, H, x or '.'."""
        p = self.on(square)
        return p.kind if p is not None else "."
