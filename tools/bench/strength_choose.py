"""The strong level's choice for each position of a file (a helper of bench_strength.py).

    micropython tools/bench/strength_choose.py POSITIONS [NODES]   (MICROPYPATH=firmware)

POSITIONS: one position text a line ("RH.../... R"). Prints, a line each,
the strong level's action and the nodes it searched. The time budget never
runs out: the level's node budget (opponent.NODES[STRONG], read when it
runs; NODES instead when given) decides, so the choices are those of a board. Under MicroPython unix
the viper kernel runs: it visits the same nodes as the portable kernel
(tests/portable/test_opponent_choices.py), about 30 times faster.
"""

import sys

from attila import opponent
from attila.notation import parse_position

NEVER = 10 ** 9


def main(path, nodes):
    with open(path) as f:
        for line in f:
            text = line.strip()
            if not text:
                continue
            game = parse_position(text)
            action = opponent.choose(game, opponent.STRONG, budget_ms=NEVER, nodes=nodes)
            print(action, opponent.stats()[0])


main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else None)
