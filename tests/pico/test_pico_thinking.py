"""The board thinks in its loop's spare time, and its host twin decides in the same loop.

The emulated Pico plays the Romans at the strong level (the reference profile
with "game": {"computer": "R", "level": "strong"}): setup from its book (the
player's placements, good ones, leave its first turn of play lost: the
opening table says so, and it searches), then that turn searched a slice of
viper-kernel nodes a loop step in main.py's own loop. The host twin (tests/pico/twin.py: the same firmware stepped at the
chip's own loop times with its pins' readings) searches with the portable
kernel at the simulator's pace (attila_sim.rig.PICO_SLICE, the viper
kernel's SLICE). Every LED frame on the chip's pin equals the twin's strip
write, byte for byte and in order: the thinking light while it searches and
the decision on the very same loop step, node for node. The decision is
what `attila choose` prints for the position (tests/tools/test_choose.py).
"""

import json
import os

from attila.opponent.chooser import action_text
from attila.opponent.levels import NODES, STRONG
from attila_sim import actions
from attila_sim.rig import PICO_SLICE

from twin import Mirror, Twin

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The Huns' placements (by hand); the Romans' are the book's answers, their
# first turn the strong level's search (attila choose
# '....R/.R.../.HRH./..H.. R' -> e4-c3,d3). (Where the board places second,
# its first turn comes from the opening table's replies: no search.)
LINES = ["@c2", "@c1", "@b3", "@d2", "@e4", "@b2", "wait 2500", "e4-c3,d3"]
DECISION = "e4-c3,d3"


def test_the_strong_decision_on_the_same_loop_step_as_its_host_twin(flashed, tmp_path):
    with open(os.path.join(ROOT, "boards", "profiles", "pico.json")) as f:
        prof = json.load(f)
    prof["game"] = {"computer": "R", "level": "strong"}
    path = str(tmp_path / "pico-romans.json")
    with open(path, "w") as f:
        json.dump(prof, f)
    board = flashed(path)
    with board:
        assert board.boot() == "attila: 4x5 on pico, 20 squares"
        rig = Mirror(board)
        twin = Twin(board, rig.inputs, folder=str(tmp_path / "twin"))
        planner = twin.controller.plan.opponent
        assert planner.level == STRONG and planner.slice_nodes is None
        planner.slice_nodes = PICO_SLICE  # the host's portable kernel at a Pico's pace
        shown = None
        for number, text, steps in actions.parse_lines(rig.layout, LINES, "script"):
            rig.do(steps)
            board.pico.to_next_scan()  # the last step over, its LED frame latched
            twin.catch_up(board.pico.scans[:-1])
            assert not board.pico.led_errors()
            assert [f.data for f in board.pico.frames] == twin.writes, \
                "line %d %s: frames differ" % (number, text)
            if text.startswith("wait"):
                c = twin.controller
                shown = c.plan.ready() and c.own(), planner.nodes
        assert shown == (True, NODES[STRONG])
        assert action_text(rig.layout, planner.result()) == DECISION
        assert twin.controller.game.side == 1 and len(twin.controller.game.history) == 8
        assert board.pico.resets == []
