"""The board's own side and hints: shown on the LEDs, carried out by hand."""

from ctltable import AMBER, AMBER_DIM, BLUE, RED, WHITE, Table

from attila.play.modes import CLEAR, CORRECT, PLAY
from attila.opponent.chooser import action_text
from attila.play.plan import first_action
from attila.game.geometry import from_rows
from attila.game.notation import log
from attila.game.rules import HUNS, MOVE, ROMANS, SCORCH

RECT = from_rows(["....."] * 4)
SETUP6 = "@a1 @b1 @c1 @d1 @e1 @a2".split()


def slow_on(t):
    t.at(t.t // 1000 * 1000 + 1000)  # SLOW blink, lit half


def slow_off(t):
    t.at(t.t // 1000 * 1000 + 1500)  # SLOW blink, dark half


def test_board_plays_the_huns_with_the_trivial_chooser():
    t = Table(RECT, computer=HUNS)
    c = t.c
    t.put("a1")
    # The board's placement: b1 blinks amber, nothing else is lit.
    slow_on(t)
    assert t.lit() == {"b1": AMBER}
    slow_off(t)
    assert t.lit() == {}
    assert c.status() == "The board plays the Huns: put a knight on b1"
    # The human puts the Hun knight elsewhere: refused, shown as an error.
    t.put("c3")
    assert c.mode == CORRECT
    assert c.status() == "The board plays: put a Hun knight on b1. First: take the piece off c3"
    t.lift("c3")
    t.put("b1")
    assert c.mode == PLAY and c.game.knights[HUNS] == t.bit("b1")
    for item in SETUP6[2:]:
        t.act(item)
    assert c.game.phase == MOVE and c.game.side == ROMANS
    t.act("a1-c2,a1")
    # The board's turn: the knight to lift blinks, its destination is lit.
    assert c.status() == "The board plays the Huns: lift the knight on b1"
    slow_on(t)
    assert t.lit() == {"b1": AMBER, "d2": AMBER}
    slow_off(t)
    assert t.lit() == {"d2": AMBER}
    # Lifting another Hun knight is a correction.
    t.lift("d1")
    assert c.mode == CORRECT
    t.put("d1")
    t.lift("b1")
    assert c.mode == PLAY
    assert t.lit() == {"b1": AMBER_DIM, "d2": AMBER}
    assert c.status() == "The board plays the Huns: put the knight on d2"
    t.put("a3")  # a legal jump, but not the board's
    assert c.mode == CORRECT
    t.lift("a3")
    t.put("d2")
    assert c.game.phase == SCORCH
    slow_on(t)
    assert t.lit() == {"d2": AMBER_DIM, "b1": WHITE}
    assert c.status() == "The board plays the Huns: put a tile on b1"
    t.put("b1")
    assert c.game.side == ROMANS and log(c.game).endswith("a1-c2,a1 b1-d2,b1")


def test_board_uses_the_opponent_and_falls_back_on_a_bad_answer():
    asked = []

    def opponent(game):
        asked.append(log(game))
        return "@e4" if len(game.history) == 1 else "nonsense"

    t = Table(RECT, computer=HUNS, opponent=opponent)
    t.put("a1")
    slow_on(t)
    assert t.lit() == {"e4": AMBER}
    t.put("e4")
    t.put("b1")
    slow_on(t)
    assert t.lit() == {"c1": AMBER}  # "nonsense": the first legal placement
    assert asked == ["@a1", "@a1 @e4 @b1"]


def test_broken_opponent_does_not_stop_the_game():
    def opponent(game):
        raise RuntimeError("out of memory")

    t = Table(RECT, computer=ROMANS, opponent=opponent)
    slow_on(t)
    assert t.lit() == {"a1": BLUE}


def test_board_turn_after_undo_into_its_scorch_step():
    t = Table(RECT, computer=HUNS)
    for item in SETUP6:
        t.act(item)
    t.act("a1-c2,a1")
    t.act("b1-d2,b1")
    t.undo()  # the board's scorch taken back: its scorch step again
    assert t.c.game.phase == SCORCH and t.c.game.side == HUNS
    t.lift("b1")
    slow_on(t)
    assert t.lit() == {"d2": AMBER_DIM, "b1": WHITE}


def test_hint_shows_the_best_action_and_goes_away_after_an_action():
    t = Table(RECT)
    for item in SETUP6:
        t.act(item)
    c = t.c
    t.menu()
    assert c.status() == "Romans: lift a knight that can move (a1 c1 e1) (hint: move the Roman knight on a1 to c2, then put a tile on a1)"
    slow_on(t)
    assert t.lit() == {"a1": BLUE, "c1": BLUE, "e1": BLUE, "c2": BLUE}
    slow_off(t)
    assert t.lit() == {"c1": BLUE, "e1": BLUE, "c2": BLUE}
    # A hint is advice: another move is fine.
    t.carry("c1", "e2")
    assert c.game.phase == SCORCH and c.mode == PLAY
    slow_on(t)
    assert "hint" not in c.status()
    slow_off(t)
    assert t.rgb("c1") == WHITE and t.rgb("c2") == WHITE  # steady: no hint any more


def test_three_menu_presses_start_a_new_game():
    t = Table(RECT)
    for item in SETUP6:
        t.act(item)
    t.menu()
    t.menu()
    assert t.c.mode == PLAY
    t.menu()
    assert t.c.mode == CLEAR
    t.undo()  # changed our mind
    assert t.c.mode == PLAY and len(t.c.game.history) == 6


def test_first_action_is_legal():
    t = Table(RECT)
    assert first_action(t.c.game) == RECT.index("a1")


def test_holding_menu_starts_a_new_game_then_the_self_test():
    t = Table(RECT)
    for item in SETUP6:
        t.act(item)
    c = t.c
    t.hold(1, 1400)  # the press: a hint; held 1.4 s: nothing more
    assert c.mode == PLAY and len(c.game.history) == 6
    t.hold(1, 1500)  # held 1.5 s: new game
    assert c.mode == CLEAR
    t.undo()  # changed our mind
    assert c.mode == PLAY and len(c.game.history) == 6
    t.hold(1, 5000)  # held 5 s: new game, then the self-test
    assert c.mode == 5
    t.menu()  # skip the LED sweep
    t.menu()  # finish the magnets
    t.menu()  # leave: back to clearing the board for the new game
    assert c.mode == CLEAR
    t.undo()  # and the old game after all
    assert c.mode == PLAY and len(c.game.history) == 6


def test_a_whole_game_against_the_real_opponent():
    from attila.opponent.levels import EASY
    from attila.opponent.planner import choose

    def opponent(game):
        return choose(game, level=EASY, clock=lambda: 0, seed=7)

    t = Table(RECT, computer=HUNS, opponent=opponent)
    c = t.c
    g = c.game
    names = RECT.names
    while g.phase != 3:
        if g.side == HUNS:
            # The human carries out what the LEDs show for the board's side.
            if g.phase == 0:
                t.put(names[c.plan.src])
            else:
                t.carry(names[c.plan.src], names[c.plan.dst])
                assert g.phase == SCORCH
                t.put(names[c.plan.tile])
        else:
            t.act(action_text(g.layout, first_action(g)))
        assert c.mode in (PLAY, 2), c.status()
    assert c.mode == 2
    again = Table(RECT)
    for item in log(g).split():
        again.act(item)
    assert again.c.game.winner == g.winner




def test_a_hint_is_the_strong_levels_action_whatever_the_opponents_level():
    """A hint made at a beginner opponent's level could throw a win: the
    hint is the strong level's decision (its node budget, no noise); the
    opponent's own decisions stay at its level."""
    from attila.opponent.levels import BEGINNER, NODES, STRONG
    from attila.opponent.planner import Planner, choose
    from attila.game.notation import parse_turn
    planner = Planner(BEGINNER, 10 ** 9, slice_nodes=64)
    t = Table(RECT, opponent=planner)
    c = t.c
    for item in SETUP6 + ["a1-c2,a1"]:
        t.act(item)
    t.menu()  # the Huns ask
    t.rest()
    assert c.plan.ready() and planner.level == BEGINNER
    assert planner.nodes == NODES[STRONG]
    strong = choose(c.game, STRONG, budget_ms=10 ** 9)
    assert (c.plan.src, c.plan.dst, c.plan.tile) == parse_turn(RECT, strong)
    planner(c.game)  # its own decision: the beginner's one ply
    assert 0 < planner.nodes < NODES[BEGINNER]


class _Console:
    """A port's console: status lines, and lines told once (attila.console)."""

    def __init__(self):
        self.lines = []

    def __call__(self, text):
        self.lines.append(("status", text))

    def tell(self, text):
        self.lines.append(("told", text))


def test_the_boards_action_is_told_once_as_a_whole_before_its_steps():
    from ctlboard import Rack

    console = _Console()
    rack = Rack(computer=HUNS, console=console)
    rack.put("a1")
    rack.run(1000)
    told = [k for k, (kind, _) in enumerate(console.lines) if kind == "told"]
    assert [console.lines[k] for k in told] == [("told", "Huns: @b1 (a knight on b1)")]
    assert console.lines[told[0] + 1] == ("status", "The board plays the Huns: put a knight on b1")
    for square in ("b1", "c1", "d1", "e1", "a2"):  # the board's placements as it asks
        rack.put(square)
        rack.run(1000)
    del console.lines[:]
    rack.lift("a1")
    rack.put("c2")
    rack.put("a1")
    rack.run(1000)
    # Its turn: notation and words, once, then each step's own line.
    k = console.lines.index(("told", "Huns: b1-d2,b1 (the knight on b1 to d2, then scorch b1)"))
    assert console.lines[k + 1] == ("status", "The board plays the Huns: lift the knight on b1")
    rack.lift("b1")
    rack.put("d2")
    rack.put("b1")
    rack.run(1000)
    assert [kind for kind, _ in console.lines].count("told") == 1
    assert console.lines[-1] == ("status", "Romans: lift a knight that can move (c1 e1 c2)")
    # A console without tell() gets the line as any other, in the same order.
    lines = []
    rack = Rack(computer=HUNS, console=lines.append)
    rack.put("a1")
    rack.run(1000)
    k = lines.index("Huns: @b1 (a knight on b1)")
    assert lines[k + 1] == "The board plays the Huns: put a knight on b1"
