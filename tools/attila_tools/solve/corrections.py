"""The corrections table: the board's second turn of play as the first placer,
where its own search would throw the win (attila.opponent.opening's third part).

    searcher = Searcher()                                   # MicroPython unix, cached
    plan = Corrections(tables, book, searcher)              # the positions, searched
    records = plan.records()                                # [(key, answer)], sorted

Placing first from its setup book, the board moves first: its first turn of
play comes from the opening table, its second after the player's first
turn, with 12 free squares on 4x5. There its search keeps most wins, but
not all, and the positions the book and the table lead to are too many for
a table of them all (the records of attila.opponent.opening are 6 bytes).
The search is deterministic at a node budget, so only the positions where
it would throw the win need a record: each is searched here as the board
searches it, at each port's budget (the strong level's own, its hard stage
included, as MicroPython's viper kernel searches it; CircuitPython's smaller
budget), and judged by the retrograde tables. A position gets a record,
folded by the layout's symmetries, when the search throws it at any budget
in any orientation the board can meet it in: the record's winning turn is
never worse than the search's. The search of each position is kept in
build/corrections/ (a stopped run goes on where it stopped; a change to the
opponent's or the game's code starts afresh).
"""

import hashlib
import io
import os
import subprocess
import sys
import tempfile

from attila.game.notation import format_position, parse_turn
from attila.game.rules import MOVE, Game
from attila.opponent.opening import Opening, correction_key
from attila_tools.solve.replies import book_setups, image_of, turns, winning_turn
from attila_tools.solve.retro import ROOT, Progress
from attila_tools.solve.symmetry import automorphisms

FIRMWARE = os.path.join(ROOT, "firmware")
CACHE = os.path.join(ROOT, "build", "corrections")
BATCH = 256  # positions a MicroPython process searches (its answers are kept after each)
# The board's own budget (the strong level's, its hard stage included): a
# node budget of None, as attila.opponent.planner.choose takes it.
BOARD = None


def circuitpython_nodes():
    """The strong level's node budget on CircuitPython (attila.opponent.levels'
    pace of that port: one budget in every stage, for the portable kernel)."""
    from attila.opponent.levels import STRONG, pace

    return pace("circuitpython", STRONG)[2]


def budgets():
    """The node budgets the board's search runs at: a Pico's (None) and CircuitPython's."""
    return (BOARD, circuitpython_nodes())


def budget_name(nodes):
    return "board" if nodes is None else "%d nodes" % nodes


def position_text(layout, mover, other, scorched):
    """A position text with `mover` to move (as the Romans: the side's name is
    nothing to the search)."""
    game = Game(layout, 0)
    game.knights = [mover, other]
    game.scorched = scorched
    game.side = 0
    return format_position(game)


# The code the search's choices come from: a change to any of it starts the
# kept answers afresh (the tables beside the search, the card's, are not in it).
SEARCH_CODE = ("opponent/search.py", "opponent/kernel.py", "opponent/kernelv.py",
               "opponent/levels.py", "opponent/planner.py", "game/")


def _game(layout, mover, other, scorched):
    """A Game at the position, `mover` to move."""
    game = Game(layout, 0)
    game.knights = [mover, other]
    game.scorched = scorched
    game.side = 0
    game.settle(MOVE)
    return game


def _sources():
    """A digest of the code the search's choices come from."""
    h = hashlib.sha256()
    for part in SEARCH_CODE:
        path = os.path.join(FIRMWARE, "attila", part)
        names = [path] if part.endswith(".py") else \
            [os.path.join(path, n) for n in sorted(os.listdir(path)) if n.endswith(".py")]
        for name in names:
            with open(name, "rb") as f:
                h.update(os.path.basename(name).encode() + b"\0" + f.read())
    return h.hexdigest()[:12]


def micropython():
    """The venv's MicroPython unix (make install), or None."""
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else None


class Searcher:
    """The board's search at a node budget, position by position: MicroPython
    unix (the viper kernel, as on a Pico) when `make install` put it in the
    venv, else here (the portable kernel: the same choices, far slower).
    Answers are kept in `cache` (a folder; None: none kept); `quiet`: no
    progress bar."""

    def __init__(self, cache=CACHE, quiet=False, exe="venv"):
        self.cache = cache
        self.quiet = quiet
        self.exe = micropython() if exe == "venv" else exe
        self.searched = 0  # positions searched (not from the cache)
        self._known = {}  # (layout, nodes) -> {position text: action}: this run's

    def _path(self, layout, nodes):
        name = "%s-%s-%s.txt" % (layout.name or "layout", _sources(),
                                 "board" if nodes is None else nodes)
        return os.path.join(self.cache, name)

    def choices(self, layout, texts, nodes, label="searching"):
        """{position text: the search's action} for each of `texts`."""
        known = self._known.setdefault((tuple(layout.names), nodes), {})
        path = None
        if self.cache is not None:
            path = self._path(layout, nodes)
            if not known and os.path.exists(path):
                with open(path) as f:
                    for line in f:
                        parts = line.split()
                        if len(parts) == 3:  # (a line cut short by a stop is searched again)
                            known[parts[0] + " " + parts[1]] = parts[2]
        todo = sorted(set(t for t in texts if t not in known))
        progress = None if self.quiet or not todo else Progress(len(todo), label=label)
        for at in range(0, len(todo), BATCH):
            part = todo[at:at + BATCH]
            got = self._search(part, nodes)
            self.searched += len(part)
            known.update(zip(part, got))
            if path is not None:
                os.makedirs(self.cache, exist_ok=True)
                with open(path, "a") as f:
                    f.write("".join("%s %s\n" % (t, a) for t, a in zip(part, got)))
            if progress is not None:
                progress.show(at + len(part))
        if progress is not None:
            progress.end()
        return {t: known[t] for t in texts}

    def _search(self, texts, nodes):
        if self.exe is None:
            from attila.game.notation import parse_position
            from attila.opponent.levels import STRONG
            from attila.opponent.planner import choose

            return [choose(parse_position(t), STRONG, budget_ms=10 ** 9, nodes=nodes)
                    for t in texts]
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("\n".join(texts) + "\n")
            name = f.name
        try:
            script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "board_search.py")
            out = subprocess.run(
                [self.exe, script, name, "-" if nodes is None else str(nodes)],
                env=dict(os.environ, MICROPYPATH=FIRMWARE), check=True,
                stdout=subprocess.PIPE, universal_newlines=True).stdout.split()
        finally:
            os.unlink(name)
        got = out[0::2]
        if len(got) != len(texts):
            raise RuntimeError("board_search.py answered %d of %d positions"
                               % (len(got), len(texts)))
        return got


class Corrections:
    """The board's second turn of play as the first placer, wherever its setup
    book and opening table lead: the positions, the search's turns at each
    budget, and the records of those it throws."""

    def __init__(self, tables, book, searcher, nodes=None, parts=None):
        self.tables = tables
        self.layout = tables.layout
        self.book = book
        self.searcher = searcher
        self.nodes = budgets() if nodes is None else tuple(nodes)
        self.positions = {}  # budget -> {(mover, other, scorched)} won for the mover
        self.thrown = {}  # budget -> [(mover, other, scorched)] the search throws
        self.on_lines = None  # budget -> the same on the strong level's lines (lines())
        self.parts = parts  # the opening table's other parts (opening_file.opening_parts)

    def first_turns(self, nodes):
        """{(board, player): (a, b, c)}: the board's first turn of play after each
        setup its book leads to placing first, as it plays it: the opening
        table's first winning turn in the position's own orientation (the
        order attila.opponent.card's step() tries them), or the search's where
        the setup is lost."""
        tables = self.tables
        out = {}
        lost = []
        for board, player in sorted(book_setups(self.layout, self.book, True)):
            turn = winning_turn(tables, board, player, 0)
            if turn is None:
                lost.append((board, player))
            else:
                out[board, player] = turn
        texts = [position_text(self.layout, b, p, 0) for b, p in lost]
        got = self.searcher.choices(self.layout, texts, nodes, "first turns, lost")
        for (b, p), text in zip(lost, texts):
            out[b, p] = parse_turn(self.layout, got[text])
        return out

    def second_turns(self, nodes):
        """{(mover, other, scorched)}: the board's second turn of play, won, after
        each first turn of the board's and every turn of the player's."""
        layout = self.layout
        out = set()
        for (board, player), (a, b, c) in self.first_turns(nodes).items():
            me1 = board ^ (1 << a | 1 << b)
            for _a, _b, d, opp1 in turns(layout, player, me1, 1 << c):
                out.add((me1, opp1, 1 << c | 1 << d))
        return {p for p in out if self.tables.won(*p)}

    def search(self):
        """Search every position at every budget; the thrown ones by budget."""
        layout = self.layout
        tables = self.tables
        for nodes in self.nodes:
            won = sorted(self.second_turns(nodes))
            self.positions[nodes] = won
            texts = [position_text(layout, *p) for p in won]
            got = self.searcher.choices(layout, texts, nodes,
                                        "second turns, %s" % budget_name(nodes))
            thrown = []
            for (me, opp, sc), text in zip(won, texts):
                a, b, c = parse_turn(layout, got[text])
                if tables.won(opp, me ^ (1 << a | 1 << b), sc | 1 << c):
                    thrown.append((me, opp, sc))
            self.thrown[nodes] = thrown
        return self.thrown

    def _parts(self):
        if self.parts is None:
            from attila_tools.solve.opening_file import opening_parts

            self.parts = opening_parts(self.tables, self.book)
        return self.parts

    def _reader(self, thrown):
        """The board's opening table (attila.opponent.opening), its corrections
        those of `thrown` (positions), open from memory."""
        from attila_tools.solve.opening_file import opening_bytes

        data = opening_bytes(self.layout, self._parts(), self._fold(thrown))
        return Opening(io.BytesIO(data), self.layout)

    def _decide(self, reader, positions, nodes):
        """({position: (a, b, c)}: the board's turn at each (mover, other,
        scorched), as it plays it: its table's where `reader` has one, else
        its search's; [the positions searched])."""
        layout = self.layout
        out = {}
        searched = []
        for p in positions:
            game = _game(layout, *p)
            turn = -1
            if reader.ask(game):
                turn = -2
                while turn == -2:
                    turn = reader.step(64, 64)
            if turn >= 0:
                out[p] = (turn >> 12 & 63, turn >> 6 & 63, turn & 63)
            else:
                searched.append(p)
        texts = [position_text(layout, *p) for p in searched]
        got = self.searcher.choices(layout, texts, nodes, "lines, %s" % budget_name(nodes))
        for p, text in zip(searched, texts):
            out[p] = parse_turn(layout, got[text])
        return out, searched

    def lines(self):
        """The positions the search throws at 12 and 11 free squares (the second
        turn of play of each side) in the games where, after any setup one side
        placed from the book (the other anywhere), both sides play as the board
        does at its strong level (the board itself, or a player following its
        hints), with the corrections found so far: {budget: [position]}."""
        if not self.thrown:
            self.search()
        layout = self.layout
        tables = self.tables
        setups = book_setups(layout, self.book, True) | book_setups(layout, self.book, False)
        at = {nodes: sorted((first, second, 0) for first, second in setups)
              for nodes in self.nodes}
        found = {nodes: [] for nodes in self.nodes}
        known = [p for thrown in self.thrown.values() for p in thrown]
        for stage in range(4):  # 14 to 11 free squares on 4x5: the first turns, the second
            reader = self._reader(known)
            new = []
            for nodes in self.nodes:
                turns_, searched = self._decide(reader, set(at[nodes]), nodes)
                if stage < 2:
                    continue
                for p in searched:
                    a, b, c = turns_[p]
                    me, opp, sc = p
                    if tables.won(*p) and tables.won(opp, me ^ (1 << a | 1 << b), sc | 1 << c):
                        found[nodes].append(p)
                        new.append(p)
            if new:  # the lines go on with their records' turns
                known += new
                reader = self._reader(known)
            for nodes in self.nodes:
                turns_ = self._decide(reader, set(at[nodes]), nodes)[0]
                after = []
                for me, opp, sc in at[nodes]:
                    a, b, c = turns_[me, opp, sc]
                    p = (opp, me ^ (1 << a | 1 << b), sc | 1 << c)
                    if _game(layout, *p).movable():
                        after.append(p)
                at[nodes] = after
        self.on_lines = found
        return found

    def _fold(self, thrown):
        """[(key, answer)], sorted: a record for each position of `thrown`, in its
        canonical orientation (the symmetry, the identity first, of the
        smallest key) with the first winning turn there, packed a << 10 |
        b << 5 | c."""
        layout = self.layout
        perms = automorphisms(layout)
        n = layout.size
        out = {}
        for mover, other, scorched in thrown:
            best = None
            for perm in perms:
                me, opp, sc = image_of(perm, mover), image_of(perm, other), image_of(perm, scorched)
                key = correction_key(n, me, opp, sc)
                if best is None or key < best[0]:
                    best = (key, me, opp, sc)
            key, me, opp, sc = best
            if key not in out:
                a, b, c = winning_turn(self.tables, me, opp, sc)
                out[key] = a << 10 | b << 5 | c
        return sorted(out.items())

    def records(self, lines=True):
        """The corrections' records, sorted (as _fold): every position thrown at
        some budget, in the board's second turn of play as the first placer,
        and with `lines` on the strong level's lines (lines())."""
        if not self.thrown:
            self.search()
        thrown = [p for t in self.thrown.values() for p in t]
        if lines:
            if self.on_lines is None:
                self.lines()
            thrown += [p for t in self.on_lines.values() for p in t]
        return self._fold(thrown)
