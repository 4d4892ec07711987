"""Record the won positions of tests/opponent/test_strength.py (needs the 4x5 tables).

    .venv/bin/python tests/opponent/record_strength.py   -> tests/opponent/strength_4x5.txt

The positions are make bench's own (tools/bench/bench_strength.py: its
seeded games, its seed): for each stage from 14 free squares down to 9 and
each side to act, the first PER won positions of the bench's sample, none
picked by hand. Each line: the stage, the position, and its winning turns
(those after which the other side is lost in the retrograde tables), so that
the test needs no 1.6 GB table. Rerun only when the sampling changes.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "bench"))

import benchkit  # noqa: E402  (first: the paths)
import bench_strength as bench  # noqa: E402

from attila.game.layoutfile import load  # noqa: E402
from attila.game.notation import format_turn, parse_position  # noqa: E402
from attila_tools.solve.retro import Tables  # noqa: E402

OUT = os.path.join(HERE, "strength_4x5.txt")
STAGES = range(14, 8, -1)
PER = 3  # won positions per stage and side to act


def main():
    layout = load(benchkit.LAYOUT)[0]
    tables = Tables.load(layout)
    groups = benchkit.sample(tables, bench.PER, bench.SEED)
    lines = []
    for stage in STAGES:
        for side in (0, 1):
            taken = 0
            for text in groups[stage, side]:
                game = parse_position(text)
                me, opp = game.knights[side], game.knights[side ^ 1]
                if not tables.won(me, opp, game.scorched):
                    continue
                wins = sorted(format_turn(game.layout, a, b, c)
                              for a, b, c in benchkit.winning(tables, me, opp, game.scorched))
                lines.append("%d  %s  %s" % (stage, text, " ".join(wins)))
                taken += 1
                if taken == PER:
                    break
    with open(OUT, "w") as f:
        f.write("# stage  position  winning turns (tests/opponent/record_strength.py)\n")
        f.write("\n".join(lines) + "\n")
    print("%d positions -> %s" % (len(lines), OUT))


if __name__ == "__main__":
    main()
