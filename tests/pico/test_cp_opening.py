"""The opening table (layout.opening) on CircuitPython 10.2.1 in the emulated Pico.

The board plays the Romans at the strong level (the CircuitPython reference
profile with "game": {"computer": "R", "level": "strong"}), its CIRCUITPY as
`attila flash --drive` fills it: placements from its setup book, then its
first turn of play with 14 free squares. There the port's search (the
portable kernel at the port's pace: attila.opponent.levels.pace) throws the win away; the opening
table, read from CIRCUITPY a block at a time, plays a winning turn. (A
damaged table, given up once with the trouble sign while the search plays:
tests/pico/test_pico_opening.py on MicroPython's build, the same core, and
tests/ports on CircuitPython's fakes.)
"""

import os
import re

import pytest

from attila.game.layoutfile import load
from attila.opponent.opening import Opening

from conftest import LAYOUT, PROFILES, ROOT
from tools.pico import circuitpy
from tools.pico.board import PicoBoard

OPENING = os.path.join(ROOT, "boards", "solved", "4x5.opening")
BOOT_MS = 8000
# (square, the board's own placement): the board's are its book's answers to
# the Huns' placements (by hand).
SETUP = [("c2", True), ("e2", False), ("b3", True), ("e3", False), ("d1", True), ("d3", False)]
# The Romans to move win ("R" below); the port's search alone plays d1-b2,c3
# (504 nodes, 126 loop steps), after which the Huns win; the table plays
# d1-c3,b4 (checked on the host below: the port's Planner and the table's
# own answers).
POSITION = "...../.R.HH/..R.H/...R. R"
TABLE_TURN = ("d1", "c3", "b4")
SEARCH_TURN = ("d1", "b2", "c3")


def romans_profile(tmp_path):
    import json

    with open(os.path.join(PROFILES, "circuitpython-pico.json")) as f:
        data = json.load(f)
    data["game"] = {"computer": "R", "level": "strong"}
    path = tmp_path / "cp-romans.json"
    path.write_text(json.dumps(data))
    return str(path)


def console(board):
    """The serial output since power-up, a line each, without CircuitPython's
    terminal-title escapes (ESC ] 0 ; ... ESC \\)."""
    return re.sub("\x1b\\][^\x1b]*\x1b\\\\", "", board.pico.output(0)).splitlines()


def shown(pico, words, since):
    """(the square the status line names after `words`, where it is): the
    first such line after `since` (the trouble sign's reason may follow it)."""
    at = pico.wait_for(words, max_ms=3000, since=since)
    end = pico.wait_for("\n", max_ms=100, since=at)
    return pico.serial[at + len(words):end].decode().split()[0], at


def play_first_turn(board):
    """Setup as SETUP, then the game's first turn of play as the board shows it:
    (the knight it lifts, where it goes, the square it scorches)."""
    pico = board.pico
    sq = board.layout.index
    lead = "The board plays the Romans: "
    squares = 0
    pico.wait_for("Romans", max_ms=3000, since=0)
    for name, own in SETUP:
        if own:
            pico.wait_for(lead + "put a knight on " + name, max_ms=3000, since=0)
        squares |= 1 << sq(name)
        board.set_squares(squares)
        board.run_ms(600)
    a, at = shown(pico, lead + "lift the knight on ", 0)
    squares &= ~(1 << sq(a))
    board.set_squares(squares)
    b, at = shown(pico, lead + "put the knight on ", at)
    squares |= 1 << sq(b)
    board.set_squares(squares)
    c, at = shown(pico, lead + "put a tile on ", at)
    squares |= 1 << sq(c)  # a tile: the square reads as occupied
    board.set_squares(squares)
    pico.wait_for("Huns: lift a knight that can move", max_ms=1000, since=at)
    # The whole turn was said once on the console, before its first step.
    out = pico.output(0)
    told = "Romans: %s-%s,%s (the knight on %s to %s, then scorch %s)\n" % (a, b, c, a, b, c)
    assert out.count(told) == 1 and lead + "lift" in out[out.find(told):], out
    return a, b, c


@pytest.fixture
def cp_romans(tmp_path):
    why = circuitpy.available()
    if why:
        pytest.skip("no CIRCUITPY volume can be made here: %s" % why)

    def make(extra=None):
        return PicoBoard.flashed(str(tmp_path / "board"), LAYOUT, romans_profile(tmp_path),
                                 extra=extra)

    return make


def test_the_position_is_won_and_the_search_alone_throws_it_away():
    """The host's own check of POSITION and the two turns: the table's answers,
    and the port's strong Planner (its pace, attila.opponent.levels.pace, and
    the portable kernel) with and without the table, a slice per 10 ms step."""
    from attila.opponent.chooser import action_text
    from attila.opponent.levels import BUDGET_MS, STRONG
    from attila.opponent.planner import chooser
    from attila.game.notation import parse_position

    game = parse_position(POSITION)
    layout = load(LAYOUT)[0]
    assert game.side == 0 and not game.scorched and bin(game.free()).count("1") == 14
    sq = layout.index
    for r, h in zip(("c2", "b3", "d1"), ("e2", "e3", "d3")):
        assert game.knights[0] >> sq(r) & 1 and game.knights[1] >> sq(h) & 1
    with open(OPENING, "rb") as f:
        table = Opening(f, layout)
        romans, huns = game.knights
        assert table.won(romans, huns, 0) == 1
        for (a, b, c), huns_win in ((TABLE_TURN, 0), (SEARCH_TURN, 1)):
            after = romans & ~(1 << sq(a)) | 1 << sq(b)
            assert table.won(huns, after, 1 << sq(c)) == huns_win
        for card, turn in ((table, TABLE_TURN), (None, SEARCH_TURN)):
            planner = chooser(STRONG, BUDGET_MS, card=card, port="circuitpython")
            now = 0
            planner.start(game, now)
            while not planner.step(now):
                now += 10
            assert action_text(layout, planner.result()) == "%s-%s,%s" % turn
            assert now < BUDGET_MS  # the node budget decides, never budget_ms


def test_the_boards_first_turn_of_play_comes_from_the_opening_table(cp_romans, tmp_path):
    board = cp_romans()
    drive = circuitpy.folder_files(str(tmp_path / "board" / "CIRCUITPY"))
    with open(OPENING, "rb") as f:
        assert drive["layout.opening"] == f.read()
    with board:
        assert board.boot(BOOT_MS) == "attila: 4x5 on circuitpython-pico, 20 squares"
        assert play_first_turn(board) == TABLE_TURN
        lines = console(board)
        assert board.pico.resets == [] and board.pico.events == []
    said = [x for x in lines if x.startswith("attila:")]
    assert said == ["attila: 4x5 on circuitpython-pico, 20 squares",
                    "attila: opening table: the game's first turn of play is exact"], said
    assert not [x for x in lines if "[" in x], lines  # no trouble sign
