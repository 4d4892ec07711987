"""The opponent's levels: how deep, how noisy and how many nodes a decision has.

The strong level plays the best it finds; the lower ones search shallower and
add noise from a seeded LCG (not `random`), so they are beatable and still
reproducible (reseed()). attila.opponent.planner reads these for each
decision.
"""

from attila.compat import const

BEGINNER = const(0)
EASY = const(1)
NORMAL = const(2)
STRONG = const(3)
LEVEL_NAMES = ("beginner", "easy", "normal", "strong")
DEPTH = (1, 2, 3, 64)  # deepest iteration per level, in plies
NOISE = (60, 16, 4, 0)  # score noise per level (a knight move is worth 8)
# Node budget per level: the level's search, the same on every machine.
# main.py's loop steps again at once while a search is under way (96 nodes a
# step, none in a step that repaints); the strong level's budget must be
# spent well within the default budget_ms (2000) on a real Pico, slower than
# the emulated one, so that budget_ms stays a cap the node budget reaches
# first (the speeds: docs/pages/inside/opponent.md).
# Beginner and easy always finish their depth (at most 140 and 499 nodes on
# 4x5); normal's depth 3 can take 9,000, so it stops at its budget: the
# lower levels keep the budgets they play at, and answer sooner.
# In setup a level searches 5/8 of its budget (setup_share): a setup node
# costs about 1.6 play nodes.
NODES = (400, 1200, 6000, 22000)  # by level: the node budget of a decision
# The strong level's hard stage: in play with 10 to 12 free squares, the
# board's second and third turns, its budget keeps too few won positions
# (the strength tables of docs/pages/inside/opponent.md, in positions and in
# games as a board plays them). There it searches DEEP times its budget, and
# budget_ms grows as much, so that the node budget still ends the search
# first: one or two turns a game for each side. Not where a card found the
# position lost: the search only holds out there.
DEEP = const(4)
DEEP_FREE = (10, 11, 12)  # free squares in play (4x5: 2 to 4 scorched)
EXACT = (1, 3, 5, 7)  # with this many turns left at most, go straight for the end
DECIDED = const(9000)  # |score| above this: a forced result


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
    """Setup's share of a slice or a level's budget: a setup node (the placement
    rule) costs the kernel about 1.6 play nodes on an RP2040."""
    return max(1, nodes * 5 // 8)
