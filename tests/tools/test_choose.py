"""`attila choose`: the board's own decision, position by position."""

import os
import subprocess
import sys

import pytest

from attila.opponent.chooser import action_text
from attila.opponent.levels import NODES, STRONG, deepening
from attila.opponent.planner import stats
from attila.game.geometry import popcount
from attila.game.notation import parse_position

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_SCRIPT = os.path.join(os.path.dirname(sys.executable), "attila")
ATTILA = [_SCRIPT] if os.path.exists(_SCRIPT) else [sys.executable, "-m", "attila_tools.cli"]

EMPTY = "...../...../...../..... R"
T_EMPTY = "....../....../--..--/--..--/--..--/--..-- R"
T_SETUP = "..R.../...H../--..--/--..--/--..--/--..-- R"  # not in the book
OVER = ".xRH./xR.Rx/.x.H./x.x.H R"  # the Romans cannot move
PLAY = (  # won positions of tests/opponent/test_strength.py, and the strong level's turn
    ("R..../R...H/..RHH/..... R", "a4-c3,c1"),
    (".RH.R/....H/...RH/..... R", "e4-c3,c1"),  # a first turn: boards/solved/4x5.opening's
    ("..H../..R../.HHxR/..R.. R", "c1-d3,a3"),
    ("R.x.H/.x.../H.x.R/..HR. R", "a4-c3,d2"),
)


def run(*args, stdin=None):
    proc = subprocess.run(ATTILA + ["choose"] + list(args), capture_output=True, text=True,
                          cwd=ROOT, timeout=300, input=stdin)
    return proc.returncode, proc.stdout, proc.stderr


def test_setup_comes_from_the_layouts_book_at_the_strong_level():
    assert run(EMPTY) == (0, "@c2\n", "")
    assert run(T_EMPTY) == (0, "@c4\n", "")  # boards/solved/t-shape.book
    assert run("--level", "easy", T_EMPTY) == (0, "@e5\n", "")  # searched, noise
    assert run(T_SETUP) == (0, "@c4\n", "")  # searched: 5/8 of the strong level's budget


def test_the_beginner_searches_its_setup_with_its_noise():
    assert run("--level", "beginner", EMPTY) == (0, "@c4\n", "")


def test_one_position_a_line_from_stdin():
    text = "".join(pos + "\n" for pos, _ in PLAY)
    assert run("-", stdin=text) == (0, "".join(action + "\n" for _, action in PLAY), "")


def test_bad_positions_one_line_each_the_rest_go_on_exit_2():
    text = "\n".join([EMPTY, "", "bad", PLAY[0][0], EMPTY[:-1] + "X", OVER]) + "\n"
    code, out, err = run("-", stdin=text)
    assert (code, out) == (2, "@c2\n%s\n" % PLAY[0][1])
    assert err == (
        "attila choose: line 3: position 'bad': expected ROWS SIDE, like 'R.x.H/.x.../H.x.R/..HR. R'\n"
        "attila choose: line 5: position: side to move must be R or H, not 'X'\n"
        "attila choose: line 6: the game is over: nothing to choose\n")


def test_a_position_off_the_given_layout_and_the_card_are_refused():
    assert run("--layout", "boards/cross.json", EMPTY) == (
        2, "", "attila choose: not on the layout of boards/cross.json\n")
    assert run("--layout", "boards/4x5.json", EMPTY) == (0, "@c2\n", "")
    assert run("--card", "card", EMPTY) == (
        2, "", "attila choose: card: No such file or directory (write it with attila card "
        "LAYOUT FOLDER)\n")
    code, out, err = run()
    assert (code, out) == (2, "") and err.count("\n") == 1 and "POSITION" in err


@pytest.mark.parametrize("text,action", PLAY)
def test_the_same_decision_as_the_board_thinking_in_its_loop(text, action):
    """The board's Planner, a Pico's slice a loop step (a step every
    THINK_STEP_MS while it thinks, as main.py's loop), its budget_ms: it
    stops on the node budget (four times both in the strong level's hard
    stage, DEEP_FREE) and plays what `attila choose` prints."""
    from attila_tools.board.build import opening_table
    from attila_sim.rig import THINK_STEP_MS, opponent_for

    game = parse_position(text)
    table = opening_table(os.path.join(ROOT, "boards", "4x5.json"), game.layout)
    p = opponent_for(STRONG, 2000, card=table)
    now = 0
    p.start(game, now)
    while not p.step(now):
        now += THINK_STEP_MS
    deep = deepening(STRONG, popcount(game.free()))
    if p.nodes:  # searched: to the node budget, within the time budget
        assert stats() == (NODES[STRONG] * deep, True)
    assert now < 2000 * deep and action_text(game.layout, p.result()) == action
