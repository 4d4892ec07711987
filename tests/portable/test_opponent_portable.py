"""The computer opponent on every interpreter: legal, and it sees forced wins."""

import check
from attila.opponent.levels import NORMAL, STRONG
from attila.opponent.planner import CHOOSE_SLICE, choose, stats
from attila.errors import IllegalAction
from attila.game.geometry import from_rows
from attila.game.notation import format_position, parse_position, play
from attila.game.rules import MOVE, OVER, SCORCH, SETUP, Game

BIG = 10 ** 6  # a time budget that never runs out: the node budget decides

# Positions won in three turns (five plies) and every winning action, found
# by a brute force over the rules (tests/opponent/brute.py).
FORCED = (
    (".Hxx./xxHRx/.x.R./xH.xR R", ("d2-e4,d2", "d3-c1,a2", "d3-c1,a4", "d3-c1,e2")),
    (".Rxx./HR..x/RHx.x/xHxxx H", ("b1-c3,d3", "b1-d2,d3")),
    ("xRxHH/RxHxx/.xx.x/xxR.. R", ("b4-a2,d2", "c1-a2,d2")),
    ("xx.xH/HxRHx/.R.xx/R..x. R", ("a1-c2,a1", "a1-c2,a2", "a1-c2,b1", "a1-c2,c1",
                                   "a1-c2,c4", "a1-c2,e1")),
)


def test_strong_level_finds_the_forced_wins():
    for text, wins in FORCED:
        game = parse_position(text)
        got = choose(game, level=STRONG, budget_ms=BIG, nodes=BIG)
        assert got in wins, (text, got)


def test_immediate_win_at_every_level():
    # One turn of 28 (40) leaves the Huns stuck at once; every level sees it.
    for text, win in (("x.RH./xxRx./xx.RH/.Hx.. R", "c4-e3,c2"),
                      (".x.xH/R..Hx/.RRx./x.xH. R", "c2-e1,c3")):
        game = parse_position(text)
        for level in range(4):
            got = choose(game, level=level, budget_ms=BIG, nodes=2000, seed=level)
            assert got == win, (text, level, got)
        play(game, win)
        assert game.phase == OVER and game.winner == 0


def test_every_level_plays_legal_placements_and_turns():
    layout = from_rows(["....."] * 4)
    for level in range(4):
        game = Game(layout)
        while game.phase != OVER:
            before = len(game.history)
            play(game, choose(game, level=level, budget_ms=BIG, nodes=300,
                                       seed=level + 1))
            assert len(game.history) > before
        assert game.winner in (0, 1)


def test_scorch_step_gives_the_whole_turn():
    game = parse_position("xx.xH/HxRHx/.R.xx/R..x. R")
    game.move(game.layout.index("a1"), game.layout.index("c2"))
    assert game.phase == SCORCH
    text = choose(game, level=STRONG, budget_ms=BIG, nodes=BIG)
    assert text.startswith("a1-c2,"), text
    game.scorch(game.layout.index(text[6:]))
    assert game.phase == MOVE


def test_setup_placement_is_legal_on_an_odd_layout():
    game = parse_position("..--/..--/..../.... R")
    text = choose(game, level=NORMAL, budget_ms=BIG, nodes=500)
    play(game, text)
    assert game.phase == SETUP and game.side == 1


def test_game_over_is_refused():
    game = parse_position("RxH/xxx/RxH/xHR R")
    assert game.phase == OVER
    msg = check.raises(IllegalAction, choose, game)
    assert "over" in msg


def test_budget_stops_the_search_and_still_answers():
    game = parse_position("...../...../...../..... R")
    ticks = [0]

    def clock():
        ticks[0] += 1
        return ticks[0]

    # The clock is read at the start (1) and before each slice of nodes: the
    # slices at 2..50 search, the reading 51 finds the 50 ms gone.
    text = choose(game, level=STRONG, budget_ms=50, clock=clock)
    nodes, stopped = stats()
    assert stopped and ticks[0] == 51, ticks
    assert 35 * CHOOSE_SLICE < nodes <= 49 * CHOOSE_SLICE, nodes  # root actions count 8
    play(game, text)
    assert format_position(game).count("R") == 1
