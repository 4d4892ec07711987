"""`attila verify CERT [--sample N]`: check a certificate of a solved layout independently.

Nothing of the retrograde solver is used. The strategy tree is replayed
through the rules (attila.game.rules.Game): every placement must be legal, the
winner has exactly one placement at each of its turns, the other side every
legal placement at each of its turns, and each line ends at a completed
setup (or a side that cannot place) whose value says the winner wins. Then
the completed setups (all, or N drawn at random) are solved again by the
search solver (attila_tools.solve.solver) and must have the value written. The
book's answers must be legal and, where the strategy tree says what the
winner plays, the same.

Exit status 0: the certificate holds; 1: it does not (the first problem is
named); 2: the file cannot be read.
"""

import random
import sys
import time

from attila.errors import IllegalAction
from attila.game.rules import MOVE, OVER, SETUP, SIDES, Game
from attila_tools.errors import UsageError
from attila_tools.options import Parser
from attila_tools.solve.retro_cert import layout_of, read


class Refuted(Exception):
    """The certificate is wrong; the message says where."""


def tree_of(lines):
    """The strategy lines as a trie: {square name: subtree}, a leaf is its value word."""
    root = {}
    for number, line in enumerate(lines, 1):
        words = line.split() if isinstance(line, str) else []
        if len(words) < 2 or words[-1] not in ("win", "loss"):
            raise Refuted("strategy line %d: %r is not placements and a value" % (number, line))
        node = root
        for w in words[:-2]:
            nxt = node.setdefault(w, {})
            if not isinstance(nxt, dict):
                raise Refuted("strategy line %d: goes on after a completed setup" % number)
            node = nxt
        last = words[-2]
        if last in node:
            raise Refuted("strategy line %d: %s comes twice or goes on after it"
                          % (number, " ".join(words[:-1])))
        node[last] = words[-1]
    return root


def check_tree(cert, layout):
    """Replay the strategy tree; returns (leaves, winner positions {(f, s): square})."""
    first_wins = cert["first_placer_wins"]
    root = tree_of(cert["strategy"])
    game = Game(layout)
    leaves = []
    chosen = {}

    def path():
        return " ".join(game.describe(e) for e in game.history) or "the empty board"

    def walk(node):
        winner_places = (game.side == game.first) == first_wins
        legal = game.placements()
        names = sorted(node)
        if winner_places:
            if len(names) != 1:
                raise Refuted("after %s the winner has %d placements in the tree, not one"
                              % (path(), len(names)))
        else:
            want = sorted("@" + layout.names[i] for i in range(layout.size) if legal >> i & 1)
            if names != want:
                missing = sorted(set(want) - set(names))
                extra = sorted(set(names) - set(want))
                raise Refuted("after %s the tree lists %s; the legal placements are %s%s%s"
                              % (path(), len(names), len(want),
                                 " (missing %s)" % " ".join(missing) if missing else "",
                                 " (not legal %s)" % " ".join(extra) if extra else ""))
        for name in names:
            if not name.startswith("@"):
                raise Refuted("after %s: %r is not a placement" % (path(), name))
            try:
                square = layout.index(name[1:])
                if winner_places:
                    chosen[(game.knights[game.first], game.knights[game.first ^ 1])] = square
                game.place(square)
            except (IllegalAction, ValueError) as e:
                raise Refuted("after %s: %s" % (path(), e))
            sub = node[name]
            if isinstance(sub, dict):
                if game.phase != SETUP:
                    raise Refuted("the tree goes on after %s, where setup is over" % path())
                walk(sub)
            else:
                leaf(sub)
            game.undo()

    def leaf(value):
        if game.phase == MOVE:
            # The first placer moves first: its value is the winner's claim.
            if (value == "win") != first_wins:
                raise Refuted("after %s the value is %r: the winner does not win there"
                              % (path(), value))
            leaves.append((list(game.history), value))
        elif game.phase == OVER:
            if value != "loss" or (game.winner == game.first) != first_wins:
                raise Refuted("after %s the side to place is stuck: %s win, not as written"
                              % (path(), SIDES[game.winner]))
        else:
            raise Refuted("the line %s stops before the setup is complete" % path())

    walk(root)
    return leaves, chosen


def check_book(cert, layout, chosen):
    """Every book answer is a legal placement, and the tree's where the tree has one."""
    for entry in cert["book"]:
        try:
            first, second, answer = entry
            f = s = 0
            for name in first.split():
                f |= 1 << layout.index(name)
            for name in second.split():
                s |= 1 << layout.index(name)
            a = layout.index(answer)
        except (ValueError, TypeError) as e:
            raise Refuted("book entry %r: %s" % (entry, e))
        game = _stand(layout, f, s)
        if game is None or not game.placements() >> a & 1:
            raise Refuted("book entry %r: not a legal placement there" % (entry,))
        if chosen.get((f, s), a) != a:
            raise Refuted("book entry %r: the strategy tree plays %s there"
                          % (entry, layout.names[chosen[(f, s)]]))


def _stand(layout, first, second):
    """A Game at a setup position (first placer: Romans), or None if it cannot arise."""
    game = Game(layout)
    fs = [i for i in range(layout.size) if first >> i & 1]
    ss = [i for i in range(layout.size) if second >> i & 1]
    try:
        while fs or ss:
            todo = fs if game.side == game.first else ss
            if not todo:
                return None
            game.place(todo.pop(0))
    except IllegalAction:
        return None
    return game


def resolve(layout, leaves, out, quiet):
    """Solve the leaves again with the search solver; the first disagreement is raised."""
    from attila_tools.solve.game import solve_game
    from attila_tools.solve.solver import Solver

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    for k, (history, value) in enumerate(leaves, 1):
        game = Game(layout)
        for entry in history:
            game.place(entry >> 8 & 0xFF)
        t = time.perf_counter()
        got = solve_game(game, resist=False, solver=Solver(layout))["result"]
        line = " ".join(game.describe(e) for e in history)
        if not quiet:
            out.write("  %d/%d  %s: %s (%.1f s)\n" % (k, len(leaves), line, got,
                                                     time.perf_counter() - t))
            out.flush()
        if got != value:
            raise Refuted("after %s the search solver finds a %s, the certificate says %s"
                          % (line, got, value))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    p = Parser(prog="attila verify",
                                description="Check a certificate of a solved layout.")
    p.add_argument("certificate", metavar="CERT")
    p.add_argument("--sample", type=int, metavar="N",
                   help="re-solve N completed setups drawn at random (default: all)")
    p.add_argument("--seed", type=int, default=1, help="seed of the draw (default 1)")
    p.add_argument("--quiet", action="store_true", help="no line per re-solved setup")
    args = p.parse_args(argv)
    out = sys.stdout
    t0 = time.perf_counter()
    cert = read(args.certificate)
    layout = layout_of(cert, args.certificate)
    if args.sample is not None and args.sample < 0:
        raise UsageError("--sample must be 0 or more")
    name = args.certificate
    try:
        leaves, chosen = check_tree(cert, layout)
        check_book(cert, layout, chosen)
        who = "first" if cert["first_placer_wins"] else "second"
        out.write("%s: the strategy tree is complete and legal: the %s placer wins all %s "
                  "completed setups it reaches; the book's %s answers are legal\n"
                  % (name, who, format(len(leaves), ","), format(len(cert["book"]), ",")))
        out.flush()
        todo = leaves
        if args.sample is not None and args.sample < len(leaves):
            todo = random.Random(args.seed).sample(leaves, args.sample)
        resolve(layout, todo, out, args.quiet)
    except Refuted as e:
        out.write("%s: REFUTED: %s\n" % (name, e))
        return 1
    out.write("%s: %d of %s completed setups re-solved by the search solver: all agree "
              "(%.0f s)\n" % (name, len(todo), format(len(leaves), ","),
                              time.perf_counter() - t0))
    return 0
