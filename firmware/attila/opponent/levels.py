"""The opponent's levels and pace: how deep, how noisy, how many nodes, how many a loop step.

The strong level plays the best it finds; the lower ones search shallower
and add noise from a seeded LCG (not `random`), so they are beatable and
still reproducible (reseed()). attila.opponent.planner reads these for each
decision; why each figure is what it is: docs/pages/inside/opponent.md.
"""

from attila.compat import const

BEGINNER = const(0)
EASY = const(1)
NORMAL = const(2)
STRONG = const(3)
LEVEL_NAMES = ("beginner", "easy", "normal", "strong")
DEPTH = (1, 2, 3, 64)  # deepest iteration per level, in plies
NOISE = (60, 16, 4, 0)  # score noise per level (a knight move is worth 8)
# Node budget per level: the level's search, the same on every machine. The
# strong level's must run out well before BUDGET_MS on a real Pico, so that
# the time stays a cap the node budget reaches first. Beginner and easy
# always finish their depth; normal stops at its budget. In setup a level
# searches setup_share() of its budget.
NODES = (400, 1200, 6000, 22000)
BUDGET_MS = const(2000)  # the time a decision may take at most (a profile's game.budget_ms)
# The strong level's hard stage: in play with DEEP_FREE free squares (the
# board's second and third turns) it searches DEEP times its budget, and
# budget_ms grows as much. Not where a card found the position lost: the
# search only holds out there.
DEEP = const(4)
DEEP_FREE = (10, 11, 12)  # free squares in play (4x5: 2 to 4 scorched)
EXACT = (1, 3, 5, 7)  # with this many turns left at most, go straight for the end
DECIDED = const(9000)  # |score| above this: a forced result

# The pace of a decision in the board's loop: nodes a loop step (a slice, so
# that a step fits the 10 ms loop), and what the Planner's own work for one
# root action counts in a slice. With the viper kernel (MicroPython on a
# Pico; the simulator plays at this pace too):
SLICE = const(96)
ROOT_NODES = const(8)
# With the portable kernel where no port paced it (a computer's tests and tools):
PORTABLE_SLICE = const(1)
# CircuitPython has no viper: the portable kernel at its port's pace, and one
# node budget a level (no hard stage, no setup share), so that a decision
# stays well inside BUDGET_MS.
CIRCUITPYTHON_SLICE = const(8)
CIRCUITPYTHON_ROOT_NODES = const(4)
CIRCUITPYTHON_NODES = (400, 500, 500, 500)


def pace(port, level):
    """(slice, root nodes, node budget) of a Planner at `level` on a
    profile's `port`; a slice None is its kernel's (SLICE or
    PORTABLE_SLICE), a node budget None the level's (NODES)."""
    if port == "circuitpython":
        return CIRCUITPYTHON_SLICE, CIRCUITPYTHON_ROOT_NODES, CIRCUITPYTHON_NODES[level]
    return None, ROOT_NODES, None


def deepening(level, free):
    """How many times its budgets a level's decision in play has with `free`
    free squares (DEEP in the strong level's hard stage, else 1)."""
    return DEEP if level == STRONG and free in DEEP_FREE else 1


_seed = [12345]


def reseed(seed):
    """Restart the LCG behind the lower levels' noise (reproducible games)."""
    _seed[0] = seed % 65537


def draw(n):
    """Next number in 0..n-1 from the module's LCG (the ZX81's: small ints only)."""
    s = (_seed[0] * 75 + 74) % 65537
    _seed[0] = s
    return s % n if n > 0 else 0


def setup_share(nodes):
    """Setup's share of a slice or a level's budget: a setup node (the
    placement rule) costs the kernel more than a play node."""
    return max(1, nodes * 5 // 8)
