"""The board's strong search at each position of a file, run under MicroPython unix.

    MICROPYPATH=firmware micropython tools/attila_tools/solve/board_search.py POSITIONS [NODES]

A helper of attila_tools.solve.corrections: one position text a line
("RH.../... R"); prints, a line each, the strong level's turn and the nodes
it searched, with no table beside it (the search the board falls back on).
NODES: a node budget in every stage (CircuitPython's); "-" or none: the
level's own, the hard stage's included, as on a Pico. The time budget never
runs out, so the node budget decides, as on a board. Under MicroPython unix
the viper kernel runs, node for node the portable kernel's
(tests/portable/test_opponent_choices.py) and many times faster.
"""

import sys

from attila.game.notation import parse_position
from attila.opponent.levels import STRONG
from attila.opponent.planner import choose, stats

NEVER = 10 ** 9


def main(path, nodes):
    with open(path) as f:
        for line in f:
            text = line.strip()
            if text:
                action = choose(parse_position(text), STRONG, budget_ms=NEVER, nodes=nodes)
                print(action, stats()[0])


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] != "-" else None)
