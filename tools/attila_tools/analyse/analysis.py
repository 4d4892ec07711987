"""Every action of a game judged with the exact values of the retrograde tables.

    review = Review(tables, first, items)   # a game log from the empty board
    review.row(k)                           # the k-th action (0-based), computed once
    review.rows()                           # all of them
    review.summary()                        # one line: who won, who threw a win away
    review.short_summary()                  # the same for a narrow panel (action numbers)

A row says, for the side that acted, whether its position was won or lost
before the action and after it (perfect play by both sides from there), and
when a win was thrown away, a winning action it had instead. Values in
setup come from a search over the placements on top of the tables
(retro_setup.SetupValues, one memo for the whole game).

Turns to the end: the tables keep no distances, so they come from a
depth-bounded search ("does the game end within d turns?", d deepened two
at a time) in which the winner tries only its winning turns (the table
says which) and the loser every turn, keeping bounds of each position's
distance for the whole game. That is cheap late in the game only: it is
tried from DISTANCE_FREE free squares down, within a node budget, else the
row says won/lost alone. A "turn" here is one side's turn; "won in 3"
means the game ends three turns from there.
"""

from attila.game.notation import format_turn, play, replay
from attila.game.rules import OVER, SCORCH, SETUP, SIDE_NAMES, Game
from attila_tools.squares import bits
from attila_tools.solve.retro_setup import SetupValues

DISTANCE_FREE = 10  # turns to the end are searched from this many free squares down
DISTANCE_NODES = 50000  # ... and given up beyond this many positions per action


class _TooDeep(Exception):
    """The distance search ran out of its node budget."""


class Value:
    """Won or lost for one side, and the turns to the end when known (else None)."""

    __slots__ = ("won", "turns", "over")

    def __init__(self, won, turns=None, over=False):
        self.won = won
        self.turns = turns
        self.over = over

    def text(self):
        word = "won" if self.won else "lost"
        if self.over:
            return word + ", over"
        if self.turns is None:
            return word
        return "%s in %d" % (word, self.turns)

    def __repr__(self):
        return "Value(%r)" % self.text()


class Row:
    """One action of the game and what it did to the value of the side that acted."""

    __slots__ = ("number", "side", "action", "before", "after", "better", "winning")

    def __init__(self, number, side, action, before, after, better=None, winning=0):
        self.number = number  # 1-based, as `attila games show` numbers them
        self.side = side
        self.action = action
        self.before = before  # Value for `side` before the action
        self.after = after  # ... and after it
        self.better = better  # a winning action instead, when the win was thrown away
        self.winning = winning  # how many winning actions there were then

    @property
    def threw(self):
        """True when the action turned a won position into a lost one."""
        return self.before.won and not self.after.won

    def note(self):
        if not self.threw:
            return ""
        many = "the only winning one" if self.winning == 1 else \
            "one of %d winning %s" % (self.winning,
                                      "placements" if self.better[0] == "@" else "turns")
        return "threw the win away: %s wins (%s)" % (self.better, many)


class Review:
    """The analysis of one game: a log of placements and turns from the empty board."""

    def __init__(self, tables, first, items, distance_free=DISTANCE_FREE,
                 distance_nodes=DISTANCE_NODES):
        self.tables = tables
        self.layout = tables.layout
        self.first = first
        self.items = list(items)
        self.distance_free = distance_free
        self.distance_nodes = distance_nodes
        self.setup = SetupValues(tables)
        self._rows = []
        self._game = Game(self.layout, first)
        self._bounds = {}  # position -> [lowest, highest] distance it may still have
        self._nodes = 0

    # -- values --------------------------------------------------------------------

    def value(self, game):
        """Value for the side to act in a game (a phase of any kind)."""
        side = game.side
        me, opp = game.knights[side], game.knights[side ^ 1]
        if game.phase == OVER:
            return Value(False, 0, over=True)
        if game.phase == SETUP:
            return Value(self.setup.wins(game.knights[game.first], game.knights[game.first ^ 1]))
        if game.phase == SCORCH:
            return Value(self.tables.value(game)[0])
        won = self.tables.won(me, opp, game.scorched)
        return Value(won, self.turns(me, opp, game.scorched, won))

    def turns(self, me, opp, scorched, won):
        """Turns to the end with perfect play (the winner hurries, the loser holds
        out), or None when the position is too early or the search too large."""
        free = self.layout.all & ~(me | opp | scorched)
        if bin(free).count("1") > self.distance_free:
            return None
        self._nodes = 0
        try:
            return self._distance(me, opp, scorched, won)
        except _TooDeep:
            return None

    def _children(self, me, opp, scorched):
        """(mover's knights after, scorched after, a, b, c) of every whole turn."""
        knight = self.layout.knight
        free = self.layout.all & ~(me | opp | scorched)
        for a in bits(me):
            for b in bits(knight[a] & free):
                me1 = me ^ (1 << a | 1 << b)
                free1 = (free | 1 << a) & ~(1 << b)
                for c in bits(free1):
                    yield me1, scorched | 1 << c, a, b, c

    def _distance(self, me, opp, scorched, won):
        """Turns to the end: the least d (odd when won, even when lost) the game ends within."""
        d = 1 if won else 0
        while not self._within(me, opp, scorched, won, d):
            d += 2
        return d

    def _within(self, me, opp, scorched, won, d):
        """Does the game end within d turns (the winner hurrying, the loser holding out)?

        Bounds of each position's distance are kept, so deepening d again
        and again costs little more than the last search.
        """
        key = (me, opp, scorched)
        got = self._bounds.get(key)
        if got is None:
            # Each turn takes a free square: no game lasts longer than that.
            free = bin(self.layout.all & ~(me | opp | scorched)).count("1")
            got = self._bounds[key] = [1 if won else 0, free]
        if got[1] <= d:
            return True
        if got[0] > d:
            return False
        self._nodes += 1
        if self._nodes > self.distance_nodes:
            raise _TooDeep()
        tables = self.tables
        if won:
            result = False
            for me1, sc1, _a, _b, _c in self._children(me, opp, scorched):
                if not tables.won(opp, me1, sc1) and self._within(opp, me1, sc1, False, d - 1):
                    result = True
                    break
        else:
            result = True
            for me1, sc1, _a, _b, _c in self._children(me, opp, scorched):
                if not self._within(opp, me1, sc1, True, d - 1):
                    result = False
                    break
        if result:
            got[1] = d
        else:
            got[0] = d + 1
        return result

    # -- the winning alternatives ----------------------------------------------------

    def winning_actions(self, game, quickest=True):
        """The winning actions of the side to act: texts, the quickest first when
        `quickest` and the turns to the end are known (else in square order)."""
        layout = self.layout
        side = game.side
        if game.phase == SETUP:
            first, second = game.knights[game.first], game.knights[game.first ^ 1]
            return ["@" + layout.names[c] for c in self.setup.winning(first, second)]
        me, opp = game.knights[side], game.knights[side ^ 1]
        found = []
        for me1, sc1, a, b, c in self._children(me, opp, game.scorched):
            if not self.tables.won(opp, me1, sc1):
                d = self.turns(opp, me1, sc1, False) if quickest else None
                found.append((d if d is not None else 1 << 20, len(found),
                               format_turn(layout, a, b, c)))
        found.sort()
        return [text for _d, _k, text in found]

    # -- the rows --------------------------------------------------------------------

    def row(self, k):
        """The analysis of the k-th action (0-based)."""
        while len(self._rows) <= k:
            self._rows.append(self._next())
        return self._rows[k]

    def rows(self):
        return [self.row(k) for k in range(len(self.items))]

    def _next(self):
        game = self._game
        k = len(self._rows)
        item = self.items[k]
        side = game.side
        before = self.value(game)
        play(game, item)
        after = self.value(game)
        if game.phase != SCORCH:
            # The other side acts next (a half turn at the end of a log: still us).
            after = Value(not after.won, after.turns, after.over)
        better, winning = None, 0
        if before.won and not after.won:
            # The quickest win when the distance of the position was within reach.
            options = self.winning_actions(replay(Game(self.layout, self.first),
                                                  " ".join(self.items[:k])),
                                           before.turns is not None)
            better, winning = options[0], len(options)
        return Row(k + 1, side, item, before, after, better, winning)

    def short_summary(self):
        """The summary for a narrow panel: the result and the actions that threw a win away."""
        rows = self.rows()
        parts = [self._result()]
        for side in (self.first, self.first ^ 1):
            threw = [str(r.number) for r in rows if r.side == side and r.threw]
            if threw:
                parts.append("%s threw the win away at %s" % (SIDE_NAMES[side], ", ".join(threw)))
        if len(parts) == 1:
            parts.append("no win thrown away")
        return "; ".join(parts)

    def _result(self):
        game = self._game
        if game.phase == OVER:
            return "%s won" % SIDE_NAMES[game.winner]
        now = self.value(game)
        verb = "scorch" if game.phase == SCORCH else "place" if game.phase == SETUP else "play"
        return "not over: %s to %s, %s with perfect play" % (
            SIDE_NAMES[game.side], verb, "won" if now.won else "lost")

    def summary(self):
        """One line: the result, and every win thrown away by each side."""
        rows = self.rows()
        parts = [self._result()]
        for side in (self.first, self.first ^ 1):
            mine = [r for r in rows if r.side == side]
            threw = [r for r in mine if r.threw]
            name = SIDE_NAMES[side]
            if not mine:
                continue
            if threw:
                parts.append("%s threw the win away at %s" % (name, ", ".join(
                    "action %d (%s; %s would have won)" % (r.number, r.action, r.better)
                    for r in threw)))
            elif any(r.before.won for r in mine):
                parts.append("%s kept the win" % name)
            else:
                parts.append("%s never had a win" % name)
        return "; ".join(parts)

