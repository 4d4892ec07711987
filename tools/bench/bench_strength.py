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
(NODES[STRONG] read at run time, DEEP times that in its hard stage,
DEEP_FREE; or --nodes in every stage; the time budget never runs
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
import sys
import time

from benchkit import (LAYOUT, TABLE, choices, judge, micropython,  # (first: the paths)
                      sample, wilson)

from attila.opponent.levels import DEEP, DEEP_FREE, NODES, STRONG
from attila.game.layoutfile import load
from attila.game.notation import parse_position
from attila_tools.solve.retro import Tables

PER = 150  # positions per stage and side to act
WON = 500  # won positions per stage and side to act, for the kept share's intervals
SEED = 20261201
MORE = (4, 16)  # what more search buys: the won positions of OPENING again at these times the budget
OPENING = range(14, 8, -1)


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
    budget = args.nodes if args.nodes is not None else NODES[STRONG]
    own = "%d nodes" % budget
    if args.nodes is None:  # the board's own: its hard stage searches DEEP times the budget
        own += " (%d at %s free squares)" % (budget * DEEP, "-".join(
            str(f) for f in sorted(DEEP_FREE)))
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
