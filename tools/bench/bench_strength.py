"""The strong level against perfect play, stage by stage (make bench).

    python tools/bench/bench_strength.py [--per N] [--seed S] [--nodes N] [--cpython] [--no-opening]

Positions from play on the 4x5 board: a random legal setup (either side
placing first), then turns in which each side plays a random turn or, one
time in two, a turn that keeps its exact value (a winning turn when it has
one). For each stage (free squares left, 14 down to 1) and each side to act,
N positions (seeded: the same every run) are taken from such games, and the
strong level chooses its turn in each as a flashed board without an SD card:
with its opening table (boards/solved/4x5.opening, attila.opponent.opening: the first
turn of play; --no-opening: the search alone) and the board's node budget
(opponent.NODES[STRONG] read at run time, DEEP times that in its hard stage,
opponent.DEEP_FREE; or --nodes in every stage; the time budget never runs
out, so every machine makes the same choices). Its choices come from
MicroPython unix (the viper kernel, tools/bench/strength_choose.py), or
with --cpython from the portable kernel here (same choices, 30x slower).

The exact values come from the retrograde tables (attila_tools.solve.retro,
build/retro/, solved first if missing: about a minute and 1.6 GB):
- won positions: how often the chosen turn keeps the win (the position
  after it is lost for the opponent);
- lost positions: the opponent's winning replies after the chosen turn,
  against the fewest any turn leaves, and how often the choice leaves the
  fewest (a turn after which the winner has few winning turns is the
  hardest to beat: the cheap measure of holding out).
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from attila import opponent  # noqa: E402
from attila.game.layoutfile import load  # noqa: E402
from attila.game.notation import format_position, parse_position, parse_turn  # noqa: E402
from attila.game.rules import MOVE, SETUP, Game  # noqa: E402
from attila_tools.solve.retro import Tables  # noqa: E402
from attila_tools.squares import bits  # noqa: E402

LAYOUT = os.path.join(ROOT, "boards", "4x5.json")
STAGES = range(14, 0, -1)
PER = 150  # positions per stage and side to act
WON = 500  # won positions per stage and side to act, for the kept share's intervals
SEED = 20261201
MORE = (4, 16)  # what more search buys: the won positions of OPENING again at these times the budget
OPENING = range(14, 8, -1)
TABLE = os.path.join(ROOT, "boards", "solved", "4x5.opening")  # the board's opening table


def turns(layout, me, opp, scorched):
    """Every whole turn (a, b, c) of the side `me`, and the position after it."""
    free = layout.all & ~(me | opp | scorched)
    for a in bits(me):
        for b in bits(layout.knight[a] & free):
            me1 = me ^ (1 << a | 1 << b)
            f1 = (free | 1 << a) & ~(1 << b)
            for c in bits(f1):
                yield a, b, c, me1, scorched | 1 << c


def winning(tables, me, opp, scorched):
    """The turns after which the other side is lost."""
    return [(a, b, c) for a, b, c, me1, sc1 in turns(tables.layout, me, opp, scorched)
            if not tables.won(opp, me1, sc1)]


def replies(tables, me, opp, scorched):
    """For each turn of `me`: the opponent's number of winning replies after it."""
    out = {}
    for a, b, c, me1, sc1 in turns(tables.layout, me, opp, scorched):
        out[a, b, c] = tables.winning_turns(opp, me1, sc1)
    return out


def _setup(rng, layout):
    while True:
        game = Game(layout, rng.randint(0, 1))
        while game.phase == SETUP:
            legal = list(bits(game.placements()))
            if not legal:
                break
            game.place(rng.choice(legal))
        if game.phase == MOVE:
            return game


def sample(tables, per=PER, seed=SEED, won_only=False):
    """{(stage, side to act): [position text, ...]}, per positions each, from
    seeded games (won_only: only positions the side to act wins)."""
    rng = random.Random(seed)
    layout = tables.layout
    out = {(s, side): [] for s in STAGES for side in (0, 1)}
    todo = len(out)
    while todo:
        game = _setup(rng, layout)
        stage = rng.choice(STAGES)
        while game.phase == MOVE and bin(game.free()).count("1") > stage:
            side = game.side
            me, opp = game.knights[side], game.knights[side ^ 1]
            options = winning(tables, me, opp, game.scorched) if rng.random() < 0.5 else None
            if not options:
                options = [(a, b, c) for a, b, c, _, _ in turns(layout, me, opp, game.scorched)]
            if not options:
                break
            a, b, c = rng.choice(options)
            game.move(a, b)
            game.scorch(c)
        if game.phase != MOVE or not game.movable():
            continue
        key = (bin(game.free()).count("1"), game.side)
        if won_only and not tables.won(game.knights[game.side], game.knights[game.side ^ 1],
                                       game.scorched):
            continue
        if len(out[key]) < per:
            out[key].append(format_position(game))
            if len(out[key]) == per:
                todo -= 1
    return out


def wilson(k, n, z=1.96):
    """The 95% Wilson interval (low, high) of a share k of n."""
    if not n:
        return 0.0, 1.0
    p = float(k) / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else None


def choices(texts, nodes=None, cpython=False, table=TABLE):
    """The strong level's (action, nodes) for each position text (table: the
    opening table's path, or None)."""
    exe = None if cpython else micropython()
    if exe is None:
        from attila.opponent.opening import Opening

        out = []
        opening = None
        for text in texts:
            game = parse_position(text)
            if table and opening is None:
                opening = Opening(open(table, "rb"), game.layout, table)
            action = opponent.choose(game, opponent.STRONG, budget_ms=10 ** 9, nodes=nodes,
                                     card=opening)
            out.append((action, opponent.stats()[0]))
        return out
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(texts) + "\n")
        path = f.name
    try:
        script = os.path.join(HERE, "strength_choose.py")
        env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware"))
        cmd = [exe, script, path, str(nodes) if nodes is not None else "-", table or "-"]
        lines = subprocess.run(cmd, env=env, cwd=ROOT, check=True,
                               stdout=subprocess.PIPE, universal_newlines=True).stdout.split("\n")
    finally:
        os.unlink(path)
    out = []
    for line in lines:
        if line.strip():
            action, n = line.split()
            out.append((action, int(n)))
    if len(out) != len(texts):
        raise SystemExit("strength_choose.py answered %d of %d positions" % (len(out), len(texts)))
    return out


def judge(tables, text, action):
    """(won, kept, chosen replies, fewest replies): kept and the replies as they apply."""
    game = parse_position(text)
    side = game.side
    me, opp, sc = game.knights[side], game.knights[side ^ 1], game.scorched
    a, b, c = parse_turn(game.layout, action)
    me1 = me ^ (1 << a | 1 << b)
    if tables.won(me, opp, sc):
        return True, not tables.won(opp, me1, sc | 1 << c), None, None
    counts = replies(tables, me, opp, sc)
    return False, None, counts[a, b, c], min(counts.values())


def _more(tables, stages, budget, own, more, cpython, table):
    """Both sides together, 14 to 9 free: kept at the budget (`own`, as the
    board has it) and at its multiples, in every stage."""
    opening = [s for s in OPENING if s in stages]
    texts = [t for s in opening for t, _ in stages[s]]
    kept = {m: [judge(tables, t, a)[1]
                for t, (a, _) in zip(texts, choices(texts, budget * m, cpython, table))]
            for m in more}
    print()
    print("what more search buys: the won positions of 14 to 9 free squares (both sides) "
          "again at %s the budget" % " and ".join("%dx" % m for m in more))
    print("| free | won | " + " | ".join([own] + ["%d nodes" % (budget * m) for m in more])
          + " |")
    print("|---|---|" + "---|" * (1 + len(more)))
    k = 0
    for s in opening:
        rows = stages[s]
        cells = [sum(keep for _, keep in rows)]
        cells += [sum(kept[m][k:k + len(rows)]) for m in more]
        k += len(rows)
        print("| %d | %d | %s |" % (s, len(rows), " | ".join(
            "%d (%.1f%%)" % (c, 100.0 * c / len(rows)) for c in cells)))


def _intervals(tables, args, own, table):
    """The kept share with its 95% interval, on --won won positions a stage and side."""
    groups = sample(tables, args.won, args.seed + 1, won_only=True)
    keys = sorted(groups, key=lambda k: (-k[0], k[1]))
    texts = [t for k in keys for t in groups[k]]
    picked = choices(texts, args.nodes, args.cpython, table)
    kept = {}
    for text, (action, _n) in zip(texts, picked):
        stage = bin(parse_position(text).free()).count("1")
        kept.setdefault(stage, []).append(judge(tables, text, action)[1])
    print()
    print("won positions of random games, both sides together: %d a stage and side "
          "(seed %d)" % (args.won, args.seed + 1))
    print("| free | won positions | kept the win at %s | 95%% interval |" % own)
    print("|---|---|---|---|")
    for s in sorted(kept, reverse=True):
        rows = kept[s]
        k = sum(rows)
        lo, hi = wilson(k, len(rows))
        print("| %d | %d | %d (%.1f%%) | %.1f-%.1f%% |" % (
            s, len(rows), k, 100.0 * k / len(rows), 100 * lo, 100 * hi))
    k = sum(sum(v) for v in kept.values())
    n = sum(len(v) for v in kept.values())
    print("all stages: kept the win in %d of %d (%.2f%%)" % (k, n, 100.0 * k / n))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--per", type=int, default=PER, help="positions per stage and side")
    p.add_argument("--won", type=int, default=WON,
                   help="won positions per stage and side for the intervals (0: none)")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--nodes", type=int, help="the strong level's node budget (default: its own)")
    p.add_argument("--cpython", action="store_true", help="choose with the portable kernel here")
    p.add_argument("--no-opening", dest="opening", action="store_false",
                   help="the search alone in the first turn of play (no opening table)")
    p.add_argument("--failures", action="store_true", help="list the won positions thrown away")
    p.add_argument("--more", default=",".join(map(str, MORE)),
                   help="multiples of the budget to rerun the won positions of 14-9 free "
                        "at ('' for none)")
    args = p.parse_args(argv)
    layout = load(LAYOUT)[0]
    t0 = time.time()
    tables = Tables.load(layout)
    t1 = time.time()
    groups = sample(tables, args.per, args.seed)
    keys = sorted(groups, key=lambda k: (-k[0], k[1]))
    texts = [t for k in keys for t in groups[k]]
    t2 = time.time()
    table = TABLE if args.opening else None
    picked = choices(texts, args.nodes, args.cpython, table)
    t3 = time.time()
    budget = args.nodes if args.nodes is not None else opponent.NODES[opponent.STRONG]
    own = "%d nodes" % budget
    if args.nodes is None:  # the board's own: its hard stage searches DEEP times the budget
        own += " (%d at %s free squares)" % (budget * opponent.DEEP, "-".join(
            str(f) for f in sorted(opponent.DEEP_FREE)))
    print("strong level on 4x5 at %s a decision, %s; %d positions a stage and side "
          "(seed %d)" % (own, "with the opening table (the first turn of play)" if table
                         else "the search alone", args.per, args.seed))
    print("| free | to act | won | kept the win | lost | fewest winning replies left "
          "| winning replies left: chosen / fewest (mean) | nodes (mean) |")
    print("|---|---|---|---|---|---|---|---|")
    k = 0
    total_won = total_kept = 0
    failures = []
    stages = {}  # free squares -> [(won position text, kept at the budget)]
    for key in keys:
        won = kept = lost = fewest = 0
        chosen_sum = fewest_sum = nodes_sum = 0
        for text in groups[key]:
            action, n = picked[k]
            k += 1
            nodes_sum += n
            w, keep, chosen, least = judge(tables, text, action)
            if w:
                won += 1
                kept += keep
                stages.setdefault(key[0], []).append((text, keep))
                if not keep:
                    failures.append((key[0], text, action))
            else:
                lost += 1
                fewest += chosen == least
                chosen_sum += chosen
                fewest_sum += least
        total_won += won
        total_kept += kept
        print("| %d | %s | %d | %s | %d | %s | %s | %d |" % (
            key[0], "RH"[key[1]], won,
            "%d (%.0f%%)" % (kept, 100.0 * kept / won) if won else "-", lost,
            "%d (%.0f%%)" % (fewest, 100.0 * fewest / lost) if lost else "-",
            "%.1f / %.1f" % (chosen_sum / lost, fewest_sum / lost) if lost else "-",
            nodes_sum // len(groups[key])))
    print("all stages: kept the win in %d of %d won positions (%.1f%%)"
          % (total_kept, total_won, 100.0 * total_kept / max(1, total_won)))
    print()
    print("both sides together:")
    print("| free | won positions | kept the win at %s |" % own)
    print("|---|---|---|")
    for s in sorted(stages, reverse=True):
        rows = stages[s]
        kept = sum(keep for _, keep in rows)
        print("| %d | %d | %d (%.1f%%) |" % (s, len(rows), kept, 100.0 * kept / len(rows)))
    print("tables %.1f s, sampling %.1f s, %d choices %.1f s (%s), judging %.1f s"
          % (t1 - t0, t2 - t1, len(texts), t3 - t2,
             "CPython" if args.cpython or not micropython() else "MicroPython unix",
             time.time() - t3))
    t4 = time.time()
    if args.won:
        _intervals(tables, args, own, table)
        print("won sample: %.1f s" % (time.time() - t4))
        t4 = time.time()
    more = [int(m) for m in args.more.split(",") if m.strip()]
    if more:
        _more(tables, stages, budget, own, more, args.cpython, table)
        print("more search: %.1f s" % (time.time() - t4))
    if args.failures:
        for stage, text, action in failures:
            print("threw away: %2d free  %s  chose %s" % (stage, text, action))
    return 0


if __name__ == "__main__":
    sys.exit(main())
