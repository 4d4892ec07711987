"""Record the opponent's choices at fixed node budgets (the reference for its tests).

    .venv/bin/python tests/opponent/record_choices.py   -> tests/portable/opponent_choices.json

The file was written by the recursive search of commit c5b44c9 (before
the search became resumable), and recorded again by this script when the
strong level's root got its null-window scout (levels 0-2 came out the
same; level 3 changed 5 choices and 51 node counts). Both kernels must pick
the same action after visiting the same number of nodes
(tests/opponent/test_same_choices.py, tests/portable/test_opponent_choices.py).
Rerun it only when the choices change on purpose, and say so in the commit.

Each entry: position text (the layout with it), tile supply, the half turn already
made (scorch step) or "", level, node budget, seed -> choice and nodes.
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.setrecursionlimit(20000)

from brute import random_game, random_layout, squares  # noqa: E402

from attila.opponent.planner import choose, stats
from attila.game.geometry import from_rows  # noqa: E402
from attila.game.notation import format_position  # noqa: E402
from attila.game.rules import MOVE, OVER, SCORCH  # noqa: E402

OUT = os.path.join(ROOT, "tests", "portable", "opponent_choices.json")

BOARDS = (
    [".....", ".....", ".....", "....."],
    ["--..--", "--..--", "......", "......", "--..--", "--..--"],
    ["..----", "..----", "..----", "..----", "......", "......"],
    ["-------...", "-----.....", "--.....---", ".....-----", "..--------"],
    ["..........", ".........."],
    ["......", "......", "--..--", "--..--", "--..--", "--..--"],
    ["..--..", "..--..", "......", "......"],
    ["...---..", "...---..", "--.....-", "--.....-"],
)
BIG = ["........"] * 8  # 64 squares: the portable path only
BUDGETS = ((0, 300), (1, 300), (2, 600), (2, 3000), (3, 300), (3, 3000), (3, 20000))


def _entry(rows, game, half, level, nodes, seed):
    text = choose(game, level=level, budget_ms=10 ** 9, nodes=nodes, seed=seed)
    searched, _ = stats()
    return {"pos": format_position(game) if not half else _before(game),
            "tiles": game.supply, "half": half, "level": level, "nodes": nodes,
            "seed": seed, "choice": text, "searched": searched}


def _before(game):
    """Position text before the half turn of a game in its scorch step."""
    entry = game.history[-1]
    a, b = entry >> 8 & 0xFF, entry & 0xFF
    game.undo()
    text = format_position(game)
    game.move(a, b)
    return text


def _positions(rng):
    """(rows, game, half) of varied positions: setup, play, scorch step, short supply."""
    out = []
    layouts = [(rows, from_rows(rows)) for rows in BOARDS]
    for _ in range(12):
        layout = random_layout(rng, max_side=6)
        if layout.size <= 30:
            layouts.append((layout.rows(), layout))
    for rows, layout in layouts:
        for kind in ("setup", "play", "late", "scorch", "short"):
            for _ in range(20):
                tiles = rng.randint(2, layout.size - 6) if kind == "short" else None
                game = random_game(rng, layout, stop_in_setup=kind == "setup",
                                   free_left=rng.randint(3, 9) if kind == "late" else None,
                                   tiles=tiles)
                if game is not None and game.phase != OVER:
                    break
            else:
                continue
            half = ""
            if kind == "scorch" and game.phase == MOVE:
                a = rng.choice(squares(game.movable()))
                b = rng.choice(squares(game.destinations(a)))
                game.move(a, b)
                half = "%s-%s" % (layout.names[a], layout.names[b])
            out.append((rows, game, half))
    big = from_rows(BIG)
    for k in range(4):
        game = random_game(rng, big, stop_in_setup=k == 0,
                           free_left=None if k < 2 else rng.randint(40, 56))
        if game is not None and game.phase != OVER:
            out.append((BIG, game, ""))
    return out


def main():
    rng = random.Random(20260705)
    entries = []
    for rows, game, half in _positions(rng):
        big = len(rows) * len(rows[0]) > 30
        for level, nodes in BUDGETS:
            if big and nodes > 3000:
                continue
            seed = rng.randint(0, 65536)
            entries.append(_entry(rows, game, half, level, nodes, seed))
            if game.phase == SCORCH:
                assert entries[-1]["choice"].startswith(half + ",")
    with open(OUT, "w") as f:
        f.write("[\n")
        f.write(",\n".join(json.dumps(e, sort_keys=True) for e in entries))
        f.write("\n]\n")
    print("%d choices written to %s" % (len(entries), os.path.relpath(OUT, ROOT)))


if __name__ == "__main__":
    main()
