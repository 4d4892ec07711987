"""The rules of Attila on bitboards: setup, move, scorch, undo, the end.

A Game keeps one bitmask per side for the knights, one for scorched earth,
the side to act and the phase. Every action is checked; an illegal one
raises IllegalAction and changes nothing. The history holds one small int
per action so undo can walk back through setup and play alike.

Our rulings where the rules (docs/pages/play/rules.md) are silent: a side that has no legal setup
placement loses; a side to move with no scorched-earth tile left in the
supply loses (only possible with a supply smaller than the default).
"""

from attila.compat import const
from attila.errors import IllegalAction
from attila.game.geometry import popcount

ROMANS = const(0)
HUNS = const(1)
SIDES = "RH"
SIDE_NAMES = ("Romans", "Huns")
KNIGHT_NAMES = ("Roman", "Hun")  # as an adjective: "a Roman knight"
KNIGHTS = const(3)  # per side

SETUP = const(0)
MOVE = const(1)
SCORCH = const(2)
OVER = const(3)
PHASE_NAMES = ("setup", "move", "scorch", "over")

# History entries: kind << 16 | a << 8 | b (a, b square indices), the kinds:
PLACED = const(0)  # a knight placed on a
MOVED = const(1)  # a knight moved from a to b
SCORCHED = const(2)  # a tile put on a


def scorched_words(name):
    """Why a knight cannot go to the scorched square `name`: the rules and the
    simulator's hands say it alike (not "taken", which would have the
    player lift the tile)."""
    return "%s is scorched: a knight cannot land there" % name


def traps(knight, knights, free):
    """Bitmask of the knights (in `knights`) that have no free square to jump to."""
    out = 0
    i = 0
    m = knights
    while m:
        if m & 1 and not knight[i] & free:
            out |= 1 << i
        m >>= 1
        i += 1
    return out


def placements(knight, full, knights, blocked):
    """Bitmask of setup squares where a knight may go without trapping any knight.

    full: all squares; knights: every knight on the board; blocked: knights and
    scorched earth. A square is out if a knight there could not jump anywhere,
    or if it is the last free landing square of a knight already on the board
    (then that knight would be trapped). If a knight is trapped already, no
    placement can help it, so none is allowed.
    """
    free = full & ~blocked
    forbid = 0
    m = knights
    i = 0
    while m:
        if m & 1:
            n = knight[i] & free
            if not n:
                return 0
            if not n & (n - 1):
                forbid |= n
        m >>= 1
        i += 1
    out = 0
    m = free & ~forbid
    i = 0
    while m:
        # knight[i] never holds i itself, so `free` is the board after placing.
        if m & 1 and knight[i] & free:
            out |= 1 << i
        m >>= 1
        i += 1
    return out


def placement_bits(kb, knights, free):
    """The no-trap rule of `placements` for search code that walks squares as bits.

    kb[square bit] -> knight-jump mask. Legal setup squares among `free`:
    a knight there can move, and every knight in `knights` still can.
    """
    out = 0
    cs = free
    while cs:
        c = cs & -cs
        cs ^= c
        after = free ^ c
        if not kb[c] & after:
            continue
        k = knights
        ok = True
        while k:
            x = k & -k
            k ^= x
            if not kb[x] & after:
                ok = False
                break
        if ok:
            out |= c
    return out


class Game:
    """One game on one layout, from the empty board to the end."""

    def __init__(self, layout, first=ROMANS, tiles=None):
        self.layout = layout
        self.first = first
        # Default supply: one tile for every square left free after setup
        # (14 on the 20-square boards, as in the box).
        if tiles is None:
            tiles = layout.size - 2 * KNIGHTS
        self.supply = tiles if tiles > 0 else 0
        self.reset()

    def reset(self):
        """Back to the empty board, first player to place."""
        self.knights = [0, 0]
        self.scorched = 0
        self.side = self.first
        self.lifted = -1  # square the knight moved to, while its scorch is due
        self.history = []
        self.settle(SETUP)

    # -- what the board looks like -----------------------------------------

    def occupied(self):
        """Squares with a piece on them (knight or tile): what the sensors see."""
        return self.knights[0] | self.knights[1] | self.scorched

    def free(self):
        """Squares a knight may land on or a tile may go on."""
        return self.layout.all & ~self.occupied()

    def tiles(self):
        """Scorched-earth tiles still in the supply."""
        return self.supply - popcount(self.scorched)

    def placed(self, side):
        return popcount(self.knights[side])

    def side_at(self, square):
        """ROMANS or HUNS for a knight on the square, else -1."""
        b = 1 << square
        if self.knights[0] & b:
            return ROMANS
        if self.knights[1] & b:
            return HUNS
        return -1

    def trapped(self):
        """Knights of either side that cannot move."""
        return traps(self.layout.knight, self.knights[0] | self.knights[1], self.free())

    def placements(self):
        """Legal setup squares for the side to place (0 outside setup)."""
        if self.phase != SETUP:
            return 0
        k = self.knights[0] | self.knights[1]
        return placements(self.layout.knight, self.layout.all, k, k | self.scorched)

    def destinations(self, square):
        """Where the side to move may jump from `square` (0 if not its knight)."""
        if self.phase != MOVE or not self.knights[self.side] >> square & 1:
            return 0
        return self.layout.knight[square] & self.free()

    def movable(self):
        """Knights of the side to move that have a legal move."""
        if self.phase != MOVE:
            return 0
        return self.knights[self.side] & ~self.trapped()

    def scorchable(self):
        """Squares that may be scorched now (0 outside the scorch step)."""
        return self.free() if self.phase == SCORCH else 0

    # -- actions --------------------------------------------------------------

    def place(self, square):
        """Put a knight of the side to place on `square`."""
        if self.phase != SETUP:
            raise IllegalAction("no placement now: the game is in its %s phase"
                                % PHASE_NAMES[self.phase])
        self._on_board(square)
        b = 1 << square
        if not self.placements() & b:
            raise IllegalAction(self._why_not_placed(square))
        self.knights[self.side] |= b
        self.history.append(PLACED << 16 | square << 8)
        self.side ^= 1
        self.settle(SETUP)

    def move(self, start, end):
        """Jump a knight of the side to move from `start` to `end`."""
        names = self.layout.names
        if self.phase != MOVE:
            raise IllegalAction("no move now: the game is in its %s phase"
                                % PHASE_NAMES[self.phase])
        self._on_board(start)
        self._on_board(end)
        if not self.knights[self.side] >> start & 1:
            raise IllegalAction("%s: no %s knight there"
                                % (names[start], KNIGHT_NAMES[self.side]))
        if not self.layout.knight[start] >> end & 1:
            raise IllegalAction("%s-%s is not a knight's jump"
                                % (names[start], names[end]))
        if not self.free() >> end & 1:
            raise IllegalAction("%s-%s: %s" % (names[start], names[end], self._taken(end)))
        self.knights[self.side] ^= 1 << start | 1 << end
        self.lifted = end
        self.history.append(MOVED << 16 | start << 8 | end)
        self.phase = SCORCH  # type: int

    def scorch(self, square):
        """Put a scorched-earth tile on a free square, ending the turn."""
        if self.phase != SCORCH:
            raise IllegalAction("no scorch now: the game is in its %s phase"
                                % PHASE_NAMES[self.phase])
        self._on_board(square)
        if not self.free() >> square & 1:
            raise IllegalAction(self._taken(square, "%s is scorched already"))
        self.scorched |= 1 << square
        self.lifted = -1
        self.history.append(SCORCHED << 16 | square << 8)
        self.side ^= 1
        self.settle(MOVE)

    def undo(self):
        """Take back the last action; returns its history entry, or -1 if none."""
        if not self.history:
            return -1
        entry = self.history.pop()
        kind, a, b = entry >> 16, entry >> 8 & 0xFF, entry & 0xFF
        if kind == MOVED:
            side = self.side
            self.knights[side] ^= 1 << a | 1 << b
            self.lifted = -1
            self.phase = MOVE
            self.winner = -1
            return entry
        self.side ^= 1
        if kind == PLACED:
            self.knights[self.side] &= ~(1 << a)
            self.settle(SETUP)
        else:
            self.scorched &= ~(1 << a)
            # Back to the scorch step of the turn that placed this tile.
            last = self.history[-1] if self.history else -1
            self.lifted = last & 0xFF if last >> 16 == MOVED else -1
            self.phase = SCORCH
            self.winner = -1
        return entry

    def describe(self, entry):
        """Notation of one history entry: '@b1', 'b1-c3' or ',d4'."""
        names = self.layout.names
        kind, a, b = entry >> 16, entry >> 8 & 0xFF, entry & 0xFF
        if kind == PLACED:
            return "@" + names[a]
        if kind == MOVED:
            return names[a] + "-" + names[b]
        return "," + names[a]

    # -- internals -------------------------------------------------------------

    def _on_board(self, square):
        if not 0 <= square < self.layout.size:
            raise IllegalAction("square %r is not on the board" % square)

    def _taken(self, square, scorched=None):
        """Why `square` is not free, in words: scorched, or whose knight stands there."""
        name = self.layout.names[square]
        if self.scorched >> square & 1:
            return scorched_words(name) if scorched is None else scorched % name
        return "%s is taken by a %s knight" % (name, KNIGHT_NAMES[self.side_at(square)])

    def _why_not_placed(self, square):
        names = self.layout.names
        b = 1 << square
        if self.occupied() & b:
            return "@%s: the square is taken" % names[square]
        after = self.free() & ~b
        if not self.layout.knight[square] & after:
            return "@%s: a knight there could not move" % names[square]
        stuck = traps(self.layout.knight, self.knights[0] | self.knights[1], after)
        i = 0
        while not stuck >> i & 1:
            i += 1
        return "@%s: the knight on %s could not move" % (names[square], names[i])

    def settle(self, phase):
        """Enter `phase` at a turn boundary and decide whether the game is over."""
        self.phase = phase
        self.lifted = -1
        self.winner = -1
        if phase == SETUP:
            if self.placed(0) == KNIGHTS and self.placed(1) == KNIGHTS:
                self.phase = phase = MOVE
                self.side = self.first
            elif self.placed(self.side) == KNIGHTS:
                # The other side still places (positions given mid-setup).
                self.side ^= 1
        if phase == SETUP:
            if not self.placements():
                self.phase = OVER
                self.winner = self.side ^ 1
            return
        # A turn needs a knight that can move and a tile to scorch with. The
        # rules never run out of tiles with the default supply; with a smaller
        # one our ruling is that the side that cannot finish a turn loses.
        if not (self.knights[self.side] & ~self.trapped()) or self.tiles() <= 0:
            self.phase = OVER
            self.winner = self.side ^ 1
