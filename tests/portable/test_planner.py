"""The resumable opponent: a decision in slices across the board's loop steps."""

import check
from attila.opponent.levels import DEEP, EASY, NODES, NORMAL, STRONG, deepening, reseed
from attila.opponent.chooser import action_text
from attila.opponent.planner import Planner, choose, chooser, stats
from attila.errors import IllegalAction
from attila.game.notation import parse_position, play
from attila.game.rules import SCORCH

BIG = 10 ** 9
MIDGAME = "x..../RH.../..R.x/.H.RH R"
SETUP = ".RH../H..../...R./..... R"


def steps_until_done(p, t0=0, period=10, wrap=0):
    """Step every `period` ms from t0 until decided; (steps, nodes searched per step)."""
    t = t0
    per_step = []
    while True:
        t += period
        before = p.nodes
        done = p.step(t % wrap if wrap else t)
        per_step.append(p.nodes - before)
        if done:
            return len(per_step), per_step


def test_a_decision_in_slices_is_the_blocking_one():
    for text, level in ((MIDGAME, STRONG), (SETUP, STRONG),
                        (MIDGAME, EASY)):
        for size in (1, 8, 50):
            p = Planner(level, BIG, slice_nodes=size)
            p.node_budget = 2000
            reseed(3)
            game = parse_position(text)
            p.start(game, 0)
            assert p.busy and p.result() == -1
            steps, per_step = steps_until_done(p)
            assert not p.busy
            assert max(per_step) <= size, (size, per_step)
            want = choose(parse_position(text), level, BIG, nodes=2000, seed=3)
            got = action_text(game.layout, p.result())
            assert got == want, (text, level, size, got, want)
            assert p.nodes == stats()[0]


def run_on_the_loop_clock(t0=0, wrap=0, slice_nodes=16):
    p = Planner(STRONG, 2000, slice_nodes=slice_nodes)
    p.start(parse_position(MIDGAME), t0 % wrap if wrap else t0)
    steps, per_step = steps_until_done(p, t0, wrap=wrap)
    return steps, per_step, p.nodes, p.result()


def test_the_budget_counts_the_loop_clock():
    # A 10 ms loop and a 2 s budget, four times in the strong level's hard
    # stage (MIDGAME: 12 free squares): decided at the 800th step, by the clock.
    assert deepening(STRONG, 12) == DEEP == 4
    steps, per_step, nodes, text = run_on_the_loop_clock()
    assert steps == 800 and per_step[-1] == 0, (steps, per_step[-1])
    assert stats() == (nodes, True)
    # A root action searched counts 8 nodes of its step's slice (the Planner's own
    # work): with the strong level's null-window scouts they are many and small.
    assert nodes == sum(per_step) and max(per_step) <= 16 < 8 * 799 < nodes <= 16 * 799
    # The same loop, the same decision: node for node.
    assert run_on_the_loop_clock() == (steps, per_step, nodes, text)
    assert run_on_the_loop_clock(slice_nodes=8)[2] < nodes


def test_a_blocking_call_keeps_to_budget_ms_in_the_hard_stage_too():
    # (a watchdog fed around the call holds: attila.profile)
    now = [0]

    def clock():
        now[0] += 1  # a millisecond between readings (64 nodes)
        return now[0]

    choose(parse_position(MIDGAME), STRONG, 200, clock=clock)
    nodes, stopped = stats()
    assert stopped and 0 < nodes <= 64 * 200 < NODES[STRONG]
    assert now[0] == 201  # started at 1 ms: stopped by the first reading 200 ms later


class _LostCard:
    """A card (attila.opponent.card.Card's part the Planner asks) for which every
    position is lost: the search holds out."""

    what = "the card"
    reads = 0
    lost = True  # step()'s -1: the position is lost

    def ask(self, game):
        return True

    def step(self, lookups, reads):
        return -1  # lost: no winning turn


class _Lacking(_LostCard):
    """A table that lacks the position (attila.opponent.opening's corrections):
    its -1 says nothing of the position, and the search decides in full."""

    lost = False


def test_the_hard_stage_searches_four_times_unless_a_card_found_the_game_lost():
    game = parse_position(MIDGAME)  # 12 free squares
    choose(game, STRONG, BIG)
    assert stats() == (NODES[STRONG] * DEEP, True)
    # With a card, a lost position's search only holds out: the level's own budget.
    choose(game, STRONG, BIG, card=_LostCard())
    assert stats() == (NODES[STRONG], True)
    choose(game, STRONG, BIG, card=_Lacking())  # (not lost: the hard stage's, in full)
    assert stats() == (NODES[STRONG] * DEEP, True)
    # The other levels, and the stages either side, have no hard stage.
    choose(game, NORMAL, BIG, seed=1)
    assert stats() == (5718, False)  # its three plies, within its 6,000 nodes
    assert [deepening(STRONG, f) for f in (14, 13, 12, 11, 10, 9)] == [
        1, 1, 4, 4, 4, 1]


def test_the_budget_survives_the_tick_wrap():
    # MicroPython's ticks_ms wraps at 2**30, CircuitPython's at 2**29.
    want = run_on_the_loop_clock()
    for period in (1 << 30, 1 << 29):
        assert run_on_the_loop_clock(period - 300, period) == want, period


def test_the_position_is_copied_at_start():
    game = parse_position(MIDGAME)
    p = Planner(STRONG, BIG)
    p.node_budget = 800
    p.start(game, 0)
    play(game, "a3-c4,e4")  # the game goes on while the board thinks
    steps_until_done(p)
    assert action_text(game.layout, p.result()) == choose(parse_position(MIDGAME), nodes=800,
                                                          budget_ms=BIG)


def test_scorch_step_gives_the_whole_turn():
    game = parse_position("xx.xH/HxRHx/.R.xx/R..x. R")
    game.move(game.layout.index("a1"), game.layout.index("c2"))
    assert game.phase == SCORCH
    p = Planner(STRONG, BIG, slice_nodes=5)
    p.start(game, 0)
    steps_until_done(p)
    text = action_text(game.layout, p.result())
    assert text.startswith("a1-c2,"), text


def test_no_action_cancel_and_restart():
    over = parse_position("RxH/xxx/RxH/xHR R")
    p = Planner()
    p.start(over, 0)
    assert not p.busy and p.step(10) and p.result() == -1
    p.start(parse_position(MIDGAME), 0)
    assert not p.step(10) and p.busy
    p.cancel()
    assert not p.busy and p.step(20) and p.result() == -1
    p.node_budget = 300
    p.start(parse_position(SETUP), 0)  # a new decision replaces any other
    steps_until_done(p)
    setup = parse_position(SETUP)
    assert action_text(setup.layout, p.result()) == choose(setup, nodes=300, budget_ms=BIG)


def test_a_planner_is_the_controller_callable_too():
    p = chooser(STRONG, BIG)
    p.node_budget = 500
    assert p(parse_position(MIDGAME)) == choose(parse_position(MIDGAME), nodes=500,
                                                         budget_ms=BIG)
    msg = check.raises(IllegalAction, p, parse_position("RxH/xxx/RxH/xHR R"))
    assert "over" in msg


def test_a_decision_allocates_nothing_once_the_layout_has_its_rows():
    try:
        from micropython import heap_lock, heap_unlock
    except ImportError:
        check.skip("no micropython.heap_lock on CPython: nothing to prove")
    for native in (True, False):
        p = Planner(STRONG, BIG, slice_nodes=64, native=native)
        p.node_budget = 3000
        games = [parse_position(text) for text in (SETUP, MIDGAME, SETUP, MIDGAME)]
        for k, game in enumerate(games):
            # The first two make the layout's tables and rows; then not a byte.
            if k >= 2:
                heap_lock()
            try:
                p.start(game, 0)
                t = 0
                while not p.step(t):
                    t += 10
            finally:
                if k >= 2:
                    heap_unlock()
            assert p.nodes == 3000, p.nodes


def test_a_planner_paces_itself_at_its_kernels_slice():
    # The viper kernel's (a Pico's, and the simulator's: it sets it) or the
    # portable kernel's, attila.opponent.levels: a Planner no port paced
    # steps as one handed that slice, node for node.
    from attila.opponent import search
    from attila.opponent.levels import PORTABLE_SLICE, SLICE

    pace = SLICE if search.NATIVE else PORTABLE_SLICE
    runs = []
    for slice_nodes in (None, pace):
        p = Planner(STRONG, BIG, slice_nodes)
        p.node_budget = 400
        p.start(parse_position(MIDGAME), 0)
        runs.append(steps_until_done(p))
    assert runs[0] == runs[1] and max(runs[0][1]) <= pace
