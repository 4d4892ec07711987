"""Solve the position of a Game (attila.game.rules) with the bitboard Solver.

The bridge between the game as the rules keep it (phase, side, knights,
history) and the Solver's bit masks: which side acts, what is still due in
this turn, how many tiles are left beyond the free squares, and the best
action written back in the game's notation.
"""

import time

from attila.game.rules import KNIGHTS, MOVE, OVER, SCORCH, SETUP

from attila_tools.solve.solver import Solver
from attila_tools.solve.symmetry import single_bits


def _index(bit):
    return bit.bit_length() - 1


def solve_game(game, resist=True, solver=None, budget_s=None, progress=None):
    """Solve the position of a Game for the side to act.

    Returns dict(result="win"|"loss", best=action text or None, nodes, seconds).
    A position in the scorch step is solved for the scorch still due (best is
    then the whole turn, the move already made included). progress: as
    Solver.solve's.
    """
    from attila.errors import IllegalAction

    layout = game.layout
    names = layout.names
    t0 = time.perf_counter()
    if solver is None or solver.layout != layout:
        solver = Solver(layout)
    solver.nodes = 0
    side = game.side
    me = game.knights[side]
    opp = game.knights[side ^ 1]
    free = game.free()
    deadline = t0 + budget_s if budget_s else None
    if game.phase == OVER:
        won, best = False, None
    elif game.phase == SCORCH:
        entry = game.history[-1]
        a, b = entry >> 8 & 0xFF, entry & 0xFF
        solver.set_extra(game.tiles() - free.bit_count())
        won, best = False, None
        cs = list(single_bits(free))
        for c in cs:
            if not solver.win(opp, me, free ^ c):
                won, best = True, (1 << a, 1 << b, c)
                break
        if not won:
            best = (1 << a, 1 << b, cs[0])
    else:
        if game.phase == SETUP:
            left = 2 * KNIGHTS - (game.knights[0] | game.knights[1]).bit_count()
            extra = game.supply - (free.bit_count() - left)
        elif game.phase == MOVE:
            extra = game.tiles() - free.bit_count()
        else:  # pragma: no cover - phases are exhaustive
            raise IllegalAction("unknown phase")
        won, best = solver.solve(me, opp, free, extra, resist, deadline, progress)
    text = None
    if best is not None:
        if len(best) == 1:
            text = "@" + names[_index(best[0])]
        else:
            a, b, c = best
            text = "%s-%s,%s" % (names[_index(a)], names[_index(b)], names[_index(c)])
    return {
        "result": "win" if won else "loss",
        "best": text,
        "nodes": solver.nodes,
        "seconds": round(time.perf_counter() - t0, 3),
    }
