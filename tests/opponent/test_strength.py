"""The strong level keeps the win in hard won positions of the stages where it is weakest.

Won positions of the 4x5 board with 12 to 14 free squares (the stages where
the strong level most often throws a win away: tools/bench/bench_strength.py),
from the bench's seeded games, each with one to five winning turns among
60 to 112. The winning turns are those of the retrograde tables
(attila_tools.solve.retro: every turn after which the other side is lost), written
here so that the test needs no 1.6 GB table. The node budget is fixed at
30,000, about the board's on an RP2040 (the same search makes the same
choice at the same nodes on every machine); the last position is one the
search threw away before the root's null-window scout.
"""

import pytest

from attila import opponent
from attila.notation import parse_position

NODES = 30000
WON = (
    ("R..../R...H/..RHH/..... R", {"a4-c3,c1"}),
    (".RH.R/....H/...RH/..... R", {"e4-c3,c1", "e4-c3,d4"}),
    (".R.R./.R.../..xH./.H.H. R", {"d4-e2,b2"}),
    ("..H../..R../.HHxR/..R.. R", {"c1-d3,a3", "c1-d3,e3"}),
    ("x...H/...../HRH.R/...Rx R", {"d1-c3,d2"}),
    ("H.H../..x.R/.Rx../.RH.. R", {"b2-d3,b2"}),
    ("R..../.HxR./...H./RHx.. R", {"a4-b2,a3", "a4-b2,c4", "a4-b2,d4", "a4-b2,e2", "a4-b2,e3"}),
)


@pytest.mark.parametrize("text,winning", WON)
def test_the_strong_level_keeps_the_win(text, winning):
    game = parse_position(text)
    action = opponent.choose(game, opponent.STRONG, budget_ms=10 ** 9, nodes=NODES)
    assert action in winning, (text, action)
