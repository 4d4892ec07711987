"""Layout geometry: a layout is a set of squares on a grid.

Squares are numbered 0..n-1 in reading order from a1 (rank by rank from the
bottom, file by file from the left), so a set of squares is one integer
bitmask. Knight jumps are precomputed once per layout; a jump may pass over
places with no square but must land on a square of the layout.
"""

from attila.compat import const

from attila.errors import LayoutError

MAX_SQUARES = const(64)
MAX_SIDE = const(26)
_NONE = const(255)

# Knight jumps as (file, rank) offsets.
_JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def square_name(file, rank):
    """Chess-like name of a place: file letter from a, rank number from 1."""
    return chr(97 + file) + str(rank + 1)


def place_name(file, rank):
    """A place's name for an error about a text grid; beyond file z, its numbers."""
    if file < MAX_SIDE:
        return square_name(file, rank)
    return "rank %d, place %d" % (rank + 1, file + 1)


def popcount(mask):
    """Number of squares in a bitmask."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def lowest(mask):
    """Index of the lowest square of a non-empty bitmask."""
    i = 0
    while not mask & 1:
        mask >>= 1
        i += 1
    return i


class Layout:
    """The squares of one layout, their names and their knight neighbours."""

    def __init__(self, width, height, places, name=""):
        # places: iterable of (file, rank), 0-based, rank 0 at the bottom.
        if not 1 <= width <= MAX_SIDE or not 1 <= height <= MAX_SIDE:
            raise LayoutError(
                "layout is %dx%d; each side must be 1..%d" % (width, height, MAX_SIDE)
            )
        grid = bytearray(width * height)
        for i in range(len(grid)):
            grid[i] = _NONE
        cells = sorted(set(places), key=lambda p: (p[1], p[0]))
        if not cells:
            raise LayoutError("layout has no square")
        if len(cells) > MAX_SQUARES:
            raise LayoutError(
                "layout has %d squares; at most %d are supported"
                % (len(cells), MAX_SQUARES)
            )
        for i, (f, r) in enumerate(cells):
            if not (0 <= f < width and 0 <= r < height):
                raise LayoutError(
                    "square %s lies outside the %dx%d grid"
                    % (square_name(f, r), width, height)
                )
            grid[r * width + f] = i
        self.name = name
        self.width = width
        self.height = height
        self.size = len(cells)
        self.all = (1 << self.size) - 1
        self.files = bytes(f for f, _ in cells)
        self.ranks = bytes(r for _, r in cells)
        self._grid = bytes(grid)
        self.names = tuple(square_name(f, r) for f, r in cells)
        knight = []
        for f, r in cells:
            m = 0
            for df, dr in _JUMPS:
                j = self.at(f + df, r + dr)
                if j >= 0:
                    m |= 1 << j
            knight.append(m)
        self.knight = tuple(knight)

    def at(self, file, rank):
        """Square index at a place of the grid, or -1 where there is none."""
        if 0 <= file < self.width and 0 <= rank < self.height:
            i = self._grid[rank * self.width + file]
            if i != _NONE:
                return i
        return -1

    def index(self, name):
        """Square index of a name like 'b3'; LayoutError if it is no square."""
        if (
            isinstance(name, str)
            and len(name) >= 2
            and "a" <= name[0] <= "z"
            and name[1:].isdigit()
            and name[1] != "0"
        ):
            i = self.at(ord(name[0]) - 97, int(name[1:]) - 1)
            if i >= 0:
                return i
            raise LayoutError("%s is not a square of this layout" % name)
        raise LayoutError("%r is not a square name (like b3)" % (name,))

    def rows(self):
        """The layout as text rows from the top rank down: '.' square, '-' none."""
        out = []
        for r in range(self.height - 1, -1, -1):
            out.append(
                "".join("." if self.at(f, r) >= 0 else "-" for f in range(self.width))
            )
        return out

    def __eq__(self, other):
        return (
            isinstance(other, Layout)
            and self.width == other.width
            and self.height == other.height
            and self._grid == other._grid
        )

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self._grid) ^ self.width

    def __repr__(self):
        return "<Layout %s %dx%d, %d squares>" % (
            self.name or "/".join(self.rows()),
            self.width,
            self.height,
            self.size,
        )


def from_rows(rows, name=""):
    """Layout from text rows (top rank first): '-' is no square, anything else is one.

    The rows must be the layout's bounding box (no row or column without a
    square at the edges), so that square names start at a1 as on the board.
    """
    height = len(rows)
    width = len(rows[0]) if rows else 0
    places = []
    for k, row in enumerate(rows):
        if len(row) != width:
            raise LayoutError(
                "row %d has %d places, row 1 has %d; every row needs the same length"
                % (k + 1, len(row), width)
            )
        for f, ch in enumerate(row):
            if ch != "-":
                places.append((f, height - 1 - k))
    if not places:
        raise LayoutError("layout has no square")
    for k in (0, height - 1):
        if rows[k] == "-" * width:
            raise LayoutError(
                "row %d (rank %d) has no square; leave out empty edge rows"
                % (k + 1, height - k)
            )
    for f in (0, width - 1):
        if not any(p[0] == f for p in places):
            raise LayoutError(
                "column %d (file %s) has no square; leave out empty edge columns"
                % (f + 1, chr(97 + f))
            )
    return Layout(width, height, places, name)


def bounded(places, name=""):
    """Layout over the bounding box of the places, which must start at a1."""
    places = list(places)
    if not places:
        raise LayoutError("layout has no square")
    minf = min(p[0] for p in places)
    minr = min(p[1] for p in places)
    if minf or minr:
        raise LayoutError(
            "layout starts at file %s, rank %d; move it so its squares reach "
            "file a and rank 1" % (chr(97 + minf), minr + 1)
        )
    width = max(p[0] for p in places) + 1
    height = max(p[1] for p in places) + 1
    return Layout(width, height, places, name)
