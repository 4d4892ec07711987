"""The strong level's choice for each position of a file (a helper of bench_strength.py).

    micropython tools/bench/strength_choose.py POSITIONS [NODES [OPENING]]   (MICROPYPATH=firmware)

POSITIONS: one position text a line ("RH.../... R"), or "POSITION;LEVEL;SEED"
for a lower level's choice (its own node budget and noise, reseeded with
SEED; no opening table: a player's model, bench_realplay.py). Prints, a
line each, the level's action and the nodes it searched. The time budget never
runs out: the level's node budget (NODES[STRONG], read when it
runs, DEEP times that in its hard stage; NODES in every stage instead when
given) decides, so the choices are those of a board. Under MicroPython unix
the viper kernel runs: it visits the same nodes as the portable kernel
(tests/portable/test_opponent_choices.py), about 30 times faster. OPENING:
the layout's opening table (attila.opponent.opening), as the board has it in flash
("-" for none).
"""

import sys

from attila.opponent.levels import STRONG, reseed
from attila.opponent.planner import choose, stats
from attila.game.notation import parse_position

NEVER = 10 ** 9


def main(path, nodes, opening_path):
    opening = None
    with open(path) as f:
        for line in f:
            text = line.strip()
            if not text:
                continue
            level = STRONG
            if ";" in text:
                text, lv, seed = text.split(";")
                level = int(lv)
                reseed(int(seed))
            game = parse_position(text)
            if level != STRONG:
                action = choose(game, level, budget_ms=NEVER)
                print(action, stats()[0])
                continue
            if opening is None and opening_path and opening_path != "-":
                from attila.opponent.opening import Opening

                opening = Opening(open(opening_path, "rb"), game.layout, opening_path)
            action = choose(game, STRONG, budget_ms=NEVER, nodes=nodes,
                                     card=opening)
            print(action, stats()[0])


main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] != "-" else None,
     sys.argv[3] if len(sys.argv) > 3 else None)
