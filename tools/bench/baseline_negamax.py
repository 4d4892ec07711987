"""The plain memoised negamax, kept as the yardstick for the solver.

Boolean negamax over (knights to move, other knights, free squares) with a
dict memo and nothing else: no symmetry, no move ordering, no grouping of
scorch squares. Every turn (knight, destination, scorch) is tried in square
order; the first win found ends the node. Play phase only.

    python tools/bench/baseline_negamax.py POSITION
"""

import sys
import time

from attila.game.notation import parse_position
from attila.game.rules import MOVE


def _bits(mask):
    i = 0
    while mask:
        if mask & 1:
            yield i
        mask >>= 1
        i += 1


class Baseline:
    def __init__(self, layout, extra):
        self.knight = layout.knight
        self.extra = extra  # tiles - free squares, constant through play
        self.memo = {}
        self.nodes = 0

    def win(self, me, opp, free):
        key = (me, opp, free)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.nodes += 1
        result = False
        if bin(free).count("1") + self.extra > 0:
            for a in _bits(me):
                for b in _bits(self.knight[a] & free):
                    me1 = me ^ (1 << a) ^ (1 << b)
                    free1 = (free | 1 << a) & ~(1 << b)
                    for c in _bits(free1):
                        if not self.win(opp, me1, free1 & ~(1 << c)):
                            result = True
                            break
                    if result:
                        break
                if result:
                    break
        self.memo[key] = result
        return result


def solve(text):
    """(win?, nodes) of a play position, for the side to move."""
    game = parse_position(text)
    if game.phase != MOVE:
        raise ValueError("baseline solves positions in play only")
    side = game.side
    free = game.free()
    base = Baseline(game.layout, game.tiles() - bin(free).count("1"))
    won = base.win(game.knights[side], game.knights[side ^ 1], free)
    return won, base.nodes


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    sys.setrecursionlimit(10000)
    t = time.perf_counter()
    c = time.process_time()
    won, nodes = solve(" ".join(argv))
    print("%s nodes=%d seconds=%.2f cpu=%.2f" % ("win" if won else "loss", nodes,
                                                  time.perf_counter() - t, time.process_time() - c))


if __name__ == "__main__":
    main()
