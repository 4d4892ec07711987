"""An independent, slow model of the rules: squares as (file, rank) pairs in sets.

Written from the rules (docs/pages/play/rules.md) alone, without bitmasks and without importing the core,
so that the property tests compare two implementations that share no code.
"""

JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def name(sq):
    return chr(ord("a") + sq[0]) + str(sq[1] + 1)


def squares_of_rows(rows):
    """The set of squares of position rows (top rank first, '-' = no square)."""
    height = len(rows)
    return {
        (f, height - 1 - k)
        for k, row in enumerate(rows)
        for f, ch in enumerate(row)
        if ch != "-"
    }


class State:
    """A position: the board's squares, knights, scorched squares, side to act."""

    def __init__(self, squares, romans=(), huns=(), scorched=(), side="R", supply=None):
        self.squares = frozenset(squares)
        self.romans = frozenset(romans)
        self.huns = frozenset(huns)
        self.scorched = frozenset(scorched)
        self.side = side
        self.supply = len(self.squares) - 6 if supply is None else supply

    @classmethod
    def parse(cls, text, supply=None):
        rows_text, side = text.split(" ")
        rows = rows_text.split("/")
        height = len(rows)
        pieces = {"R": set(), "H": set(), "x": set()}
        for k, row in enumerate(rows):
            for f, ch in enumerate(row):
                if ch in pieces:
                    pieces[ch].add((f, height - 1 - k))
        return cls(squares_of_rows(rows), pieces["R"], pieces["H"], pieces["x"], side, supply)

    def text(self):
        width = 1 + max(f for f, _ in self.squares)
        height = 1 + max(r for _, r in self.squares)
        rows = []
        for r in range(height - 1, -1, -1):
            row = ""
            for f in range(width):
                sq = (f, r)
                if sq not in self.squares:
                    row += "-"
                elif sq in self.romans:
                    row += "R"
                elif sq in self.huns:
                    row += "H"
                elif sq in self.scorched:
                    row += "x"
                else:
                    row += "."
            rows.append(row)
        return "/".join(rows) + " " + self.side

    # -- the rules ----------------------------------------------------------

    def own(self):
        return self.romans if self.side == "R" else self.huns

    def knights(self):
        return self.romans | self.huns

    def free(self):
        return self.squares - self.knights() - self.scorched

    def targets(self, sq):
        """Squares of the layout a knight on sq could land on (free or not)."""
        return {(sq[0] + df, sq[1] + dr) for df, dr in JUMPS} & self.squares

    def can_move(self, sq, free):
        return any(t in free for t in self.targets(sq))

    def in_setup(self):
        return len(self.romans) < 3 or len(self.huns) < 3

    def trapped(self):
        free = self.free()
        return {k for k in self.knights() if not self.can_move(k, free)}

    def placements(self):
        if not self.in_setup():
            return set()
        out = set()
        for sq in self.free():
            after = self.free() - {sq}
            if all(self.can_move(k, after) for k in self.knights() | {sq}):
                out.add(sq)
        return out

    def moves(self):
        """(from, to) pairs of the side to move; none if it cannot take a turn."""
        if self.in_setup() or self.supply - len(self.scorched) <= 0:
            return set()
        free = self.free()
        return {(k, t) for k in self.own() for t in self.targets(k) if t in free}

    def _with(self, romans, huns, scorched):
        other = "H" if self.side == "R" else "R"
        return State(self.squares, romans, huns, scorched, other, self.supply)

    def plies(self):
        """[(notation, next state)] for every legal ply (placement or full turn)."""
        out = []
        if self.in_setup():
            for sq in sorted(self.placements()):
                romans, huns = set(self.romans), set(self.huns)
                (romans if self.side == "R" else huns).add(sq)
                out.append(("@" + name(sq), self._with(romans, huns, self.scorched)))
            return out
        for a, b in sorted(self.moves()):
            romans, huns = set(self.romans), set(self.huns)
            mine = romans if self.side == "R" else huns
            mine.discard(a)
            mine.add(b)
            free_after = (self.free() - {b}) | {a}
            for c in sorted(free_after):
                text = "%s-%s,%s" % (name(a), name(b), name(c))
                out.append((text, self._with(romans, huns, self.scorched | {c})))
        return out

    def over(self):
        return not self.plies()

    def perft(self, depth):
        if depth == 0:
            return 1
        return sum(s.perft(depth - 1) for _, s in self.plies())
