"""How well a static evaluation predicts the solved 4x5 game (a research tool).

    python3 tools/bench/fit_evaluation.py [--positions N] [--seed S] [--weights FILE]

Needs numpy (not a dependency of the project: `pip install numpy` in the
interpreter that runs it) and the retrograde tables (build/retro/, solved
first if missing, as for bench_strength.py).

Positions come from games played as bench_strength.py plays them (a random
legal setup, then each side a random turn or, one time in two, a turn that
keeps its exact value); every play position where the side to act can move
and cannot trap the opponent at once (the leaves the search evaluates) is
labelled won or lost by the tables. For each stage (free squares), on a
held-out fifth of the positions, the table compares:

- mobility: the search's evaluation (mobility() here, as in
  attila/opponent/kernel.py), as one logistic feature;
- graph: a logistic regression over features of the layout's knight graph,
  cheap on bitmasks (for each side: knights by their number of exits, 0 to
  8+; exits the other side also reaches; squares only it reaches; squares
  both reach; a constant), fitted stage by stage.

Accuracy: how often the sign of the score names the winner; log-loss: the
mean negative log-likelihood of the labels. --weights writes the graph
model's weights (24 a stage, 100 x log-odds, rounded) as Python.
"""

import argparse
import random
import sys
import time

from benchkit import LAYOUT  # (first: the paths)

from attila.game.layoutfile import load
from attila_tools.solve.retro import Tables

POSITIONS = 100000
SEED = 1
GRAPH = 23  # graph features (the constant apart)


def bits(m):
    while m:
        b = m & -m
        m ^= b
        yield b


class Games:
    """Positions of play from seeded games, labelled by the tables."""

    def __init__(self, tables, seed):
        self.tables = tables
        self.kb = list(tables.layout.knight)
        self.all = tables.layout.all
        self.rng = random.Random(seed)

    def exits(self, b, free):
        return self.kb[b.bit_length() - 1] & free

    def can_move(self, knights, free):
        return any(self.exits(k, free) for k in bits(knights))

    def setup(self):
        """(first player's knights, the other's) from random legal placements."""
        while True:
            sides = [0, 0]
            side = self.rng.randint(0, 1)
            first = side
            for _ in range(6):
                occ = sides[0] | sides[1]
                legal = [c for c in bits(self.all & ~occ)
                         if all(self.exits(k, self.all & ~(occ | c)) for k in bits(occ | c))]
                if not legal:
                    break
                sides[side] |= self.rng.choice(legal)
                side ^= 1
            else:
                return sides[first], sides[first ^ 1]

    def turns(self, me, opp, sc):
        free = self.all & ~(me | opp | sc)
        for a in bits(me):
            for b in bits(self.exits(a, free)):
                f1 = (free | a) ^ b
                for c in bits(f1):
                    yield me ^ a ^ b, sc | c

    def traps(self, me, opp, free):
        """True when a move of `me` leaves the opponent at most one exit (we scorch it)."""
        reach = 0
        for k in bits(opp):
            reach |= self.exits(k, self.all)
        for a in bits(me):
            for b in bits(self.exits(a, free)):
                orr = reach & ((free | a) ^ b)
                if not orr & (orr - 1):
                    return True
        return False

    def play(self, out):
        """One game: its evaluated positions as (me, opp, free, won) into out."""
        won = self.tables.won
        me, opp = self.setup()
        sc = 0
        while True:
            free = self.all & ~(me | opp | sc)
            if not self.can_move(me, free):
                return
            if not self.traps(me, opp, free):
                out.append((me, opp, free, won(me, opp, sc)))
            options = list(self.turns(me, opp, sc))
            if self.rng.random() < 0.5:
                options = [t for t in options if not won(opp, t[0], t[1])] or options
            me1, sc1 = self.rng.choice(options)
            me, opp, sc = opp, me1, sc1


def reach(kbits, knights):
    r = 0
    for k in bits(knights):
        r |= kbits[k]
    return r


def mobility(kbits, me, opp, free):
    """The search's evaluation (attila/opponent/kernel.py): exits, knights that can move and
    a spare exit, against the opponent's; +6 for the side to act."""
    score = 6
    for knights, sign in ((me, 1), (opp, -1)):
        for k in bits(knights):
            x = bin(kbits[k] & free).count("1")
            if x:
                score += sign * (8 * x + 30 + (12 if x > 1 else 0))
    return score


def features(kb, me, opp, free):
    """The graph features of a position, in the order of the weights (24 with the constant)."""
    kbits = {1 << i: m for i, m in enumerate(kb)}
    mr = reach(kbits, me)
    orr = reach(kbits, opp)
    f = [0] * (GRAPH + 1)
    for knights, other, base in ((me, orr, 0), (opp, mr, 10)):
        for k in bits(knights):
            e = kbits[k] & free
            f[base + min(bin(e).count("1"), 8)] += 1
            f[base + 9] += bin(e & other).count("1")
    f[20] = bin(mr & free & ~orr).count("1")
    f[21] = bin(orr & free & ~mr).count("1")
    f[22] = bin(mr & orr & free).count("1")
    f[23] = 1
    return f


def logistic(np, X, y, l2=1e-3, steps=30):
    """Weights of a logistic regression (Newton's method, a little L2)."""
    w = np.zeros(X.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(X @ w)))
        g = X.T @ (p - y) / len(y) + l2 * w
        h = (X * (p * (1 - p))[:, None]).T @ X / len(y) + l2 * np.eye(len(w))
        w -= np.linalg.solve(h, g)
    return w


def quality(np, X, y, w):
    z = X @ w
    p = np.clip(1 / (1 + np.exp(-z)), 1e-9, 1 - 1e-9)
    return (float(np.mean((z > 0) == (y > 0.5))),
            float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--positions", type=int, default=POSITIONS)
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--weights", help="write the graph model's weights (Python) to this file")
    args = p.parse_args(argv)
    try:
        import numpy as np
    except ImportError:
        print("fit_evaluation.py: needs numpy (pip install numpy in this interpreter)",
              file=sys.stderr)
        return 2
    layout = load(LAYOUT)[0]
    t0 = time.time()
    tables = Tables.load(layout)
    games = Games(tables, args.seed)
    rows = []
    while len(rows) < args.positions:
        games.play(rows)
    t1 = time.time()
    kb = list(layout.knight)
    kbits = {1 << i: m for i, m in enumerate(kb)}
    y = np.array([r[3] for r in rows], dtype=float)
    stage = np.array([bin(r[2]).count("1") for r in rows])
    X = np.array([features(kb, r[0], r[1], r[2]) for r in rows], dtype=float)
    mob = np.array([[mobility(kbits, r[0], r[1], r[2]) / 100.0, 1.0] for r in rows])
    test = np.random.default_rng(args.seed).random(len(y)) < 0.2
    print("evaluations against the solved 4x5 game: %d positions (seed %d), "
          "held-out fifth" % (len(rows), args.seed))
    print("| free | positions | won | mobility: accuracy / log-loss "
          "| graph: accuracy / log-loss |")
    print("|---|---|---|---|---|")
    weights = {}
    for s in range(14, -1, -1):
        m = stage == max(s, 3)  # 0 to 2 free: the weights of 3
        fit = m & ~test
        if fit.sum() < 100:
            weights[s] = [0] * (GRAPH + 1)
            continue
        w = logistic(np, X[fit], y[fit])
        weights[s] = [int(round(100 * v)) for v in w]
        if s < 3 or not (m & test).any():
            continue
        wm = logistic(np, mob[fit], y[fit])
        print("| %d | %d | %.0f%% | %.1f%% / %.3f | %.1f%% / %.3f |" % (
            (s, m.sum(), 100 * y[m].mean())
            + tuple(v * k for v, k in zip(quality(np, mob[m & test], y[m & test], wm), (100, 1)))
            + tuple(v * k for v, k in zip(quality(np, X[m & test], y[m & test], w), (100, 1)))))
    print("sampling %.0f s, fitting %.0f s" % (t1 - t0, time.time() - t1))
    if args.weights:
        with open(args.weights, "w") as f:
            f.write("WEIGHTS = (\n")
            for s in range(15):
                f.write("    %s,  # %d free\n" % (", ".join(map(str, weights[s])), s))
            f.write(")\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
