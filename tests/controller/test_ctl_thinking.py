"""The board thinks while its loop runs on, and only on settled squares (attila.play.settling).

The board's own action and hints are searched a slice per loop tick through
a Planner (here a fake one that needs a fixed number of slices), started
only once the squares have been still for CALM_MS after a change, and
cancelled when the position changes. A tick that repaints the LEDs (the
thinking light, every QUANTUM) thinks no slice, and the decision is shown
from the tick after its last slice: on an RP2040 a slice, a repaint and a
status line do not all fit one 10 ms loop. The game is saved then too: once
per settled position, not once per square a sliding piece crosses.
"""

from ctlboard import LOOP_MS, Rack
from ctltable import AMBER, BLUE, BLUE_DIM, DARK, Table
from fakeplanner import FakePlanner

from attila.play.modes import CORRECT, GAME_OVER, PLAY
from attila.play.presses import BUTTON_MENU
from attila.play.settling import CALM_MS
from attila.leds.palette import QUANTUM
from attila.game.geometry import from_rows
from attila.game.notation import log
from attila.opponent.chooser import action_text
from attila.play.plan import first_action
from attila.game.rules import HUNS, ROMANS, SCORCH
from attila.saves.store import MemoryStore

RECT = from_rows(["....."] * 4)
SETUP6 = "@a1 @b1 @c1 @d1 @e1 @a2"


def rgb(r, name):
    k = 3 * r.layout.index(name)
    f = r.c.frame
    return (f[k], f[k + 1], f[k + 2])


def lit(r):
    return {n: rgb(r, n) for n in r.layout.names if rgb(r, n) != DARK}


def play(r, items):
    """Carry out a game log by hand on a Rack, resting after each action."""
    for item in items.split():
        if item[0] == "@":
            r.put(item[1:])
        else:
            r.lift(item[0:2])
            r.put(item[3:5])
            r.put(item[6:8])
        r.run(CALM_MS)


def until_sensed(r, name, present):
    """Loop by loop until the board's reading of square `name` is `present`;
    the number of loops it took."""
    loops = 0
    while bool(r.c.mask & r.bit(name)) != present:
        r.t += LOOP_MS
        r.step()
        loops += 1
    return loops


def test_the_search_starts_once_the_squares_settle_and_runs_a_slice_a_loop():
    planner = FakePlanner(slices=100)
    r = Rack(computer=HUNS, opponent=planner)
    r.mask |= r.bit("a1")
    until_sensed(r, "a1", True)
    sensed = r.t
    r.run(CALM_MS - LOOP_MS)
    assert planner.started == []  # still settling
    assert r.c.status() == "The board plays the Huns: thinking..."
    r.run(LOOP_MS)
    assert planner.started == [("@a1", sensed + CALM_MS)]
    writes = len(r.frames)
    r.run(90 * LOOP_MS)  # 90 loops of the search: the LEDs animate
    start = sensed + CALM_MS
    loops = [start + k * LOOP_MS for k in range(1, 91)]
    # A slice a loop, but for the loops that repaint the thinking light.
    assert planner.steps == [t for t in loops if t // QUANTUM == (t - LOOP_MS) // QUANTUM]
    assert len(planner.steps) == 72
    assert len(r.frames) - writes >= 9  # the thinking light moves on every 100 ms
    assert r.c.status() == "The board plays the Huns: thinking..."
    while planner.busy:
        r.t += LOOP_MS
        r.step()
    assert len(planner.steps) == 100 and planner.steps[-1] == r.t
    count = r.c.status_count
    shown = lit(r)
    assert list(shown.values()) == [AMBER]  # the last slice's loop: the thinking light
    r.t += LOOP_MS
    r.step()  # the next loop shows the decision
    assert r.c.status_count == count + 1 and lit(r) != shown
    assert r.c.status() == "The board plays the Huns: put a knight on b1"


def test_the_thinking_light_runs_over_the_squares_in_the_sides_colour():
    r = Rack(computer=HUNS, opponent=FakePlanner(slices=1000))
    r.put("a1")
    seen = []
    for _ in range(25):
        r.run(100)
        shown = lit(r)
        assert len(shown) == 1 and list(shown.values()) == [AMBER], shown
        seen.append(r.layout.index(list(shown)[0]))
    # One square after the other, in square order, round the board.
    assert all((b - a) % 20 == 1 for a, b in zip(seen, seen[1:]))


def test_a_lifted_knight_is_shown_at_once_while_a_hint_is_searched():
    planner = FakePlanner(slices=300)
    r = Rack(opponent=planner)
    play(r, SETUP6)
    r.press(BUTTON_MENU)  # a hint
    r.run(CALM_MS)
    assert planner.busy
    steps = len(planner.steps)
    r.mask &= ~r.bit("a1")  # the Roman knight on a1 lifted
    loops = until_sensed(r, "a1", False)
    # The loop that took the reading wrote the LEDs: a1 dim, its jumps lit.
    assert loops <= 4  # the 30 ms debounce, nothing more
    assert r.frames[-1] == bytes(r.c.frame)
    want = {"a1": BLUE_DIM, "c2": BLUE, "b3": BLUE}
    chase = r.layout.names[r.now() // 100 % 20]  # the thinking light, over it all
    if chase in want:
        del want[chase]
    else:
        want[chase] = BLUE
    assert lit(r) == want
    assert r.c.mode == PLAY and r.c.lifted == r.layout.index("a1")
    # The search went on: same position, a slice per loop (but for a loop that
    # repaints the thinking light), no restart.
    assert planner.busy and len(planner.started) == 1 and planner.cancelled == 0
    assert loops - 1 <= len(planner.steps) - steps <= loops
    r.put("a1")  # back down
    r.run(4000)  # 300 slices: a loop in five repaints the thinking light instead
    assert r.c.status() == ("Romans: lift a knight that can move (a1 c1 e1) "
                            "(hint: move the Roman knight on a1 to c2, then put a tile on a1)")


def test_the_search_is_cancelled_when_the_position_changes():
    planner = FakePlanner(slices=300)
    r = Rack(computer=HUNS, opponent=planner)
    r.put("a1")
    r.run(CALM_MS + 100)
    assert planner.busy
    r.lift("a1")  # the placement taken back (lifted again)
    assert planner.cancelled == 1 and not planner.busy
    assert r.c.mode == PLAY and r.c.game.history == []
    r.run(2000)  # the Romans' turn: nothing to search
    assert len(planner.started) == 1
    r.put("b1")
    r.run(CALM_MS + 100)
    assert [p for p, _ in planner.started] == ["@a1", "@b1"]


def test_a_tile_slid_over_four_squares_is_saved_and_planned_once():
    asked = []

    def opponent(game):
        asked.append(log(game))
        return action_text(game.layout, first_action(game))

    store = MemoryStore()
    r = Rack(store=store, computer=HUNS, opponent=opponent)
    r.put("a1")
    r.run(CALM_MS)
    for item in SETUP6.split()[1:]:
        # The board plays the Huns: its choice is the opponent's, first_action.
        game = r.c.game
        r.put(action_text(game.layout, first_action(game))[1:] if game.side == HUNS
              else item[1:])
        r.run(CALM_MS)
    assert r.c.game.phase == 1 and r.c.game.side == 0  # Romans to move
    r.lift("c1")
    r.put("b3")  # the Romans' move; the tile to scorch with comes next
    assert r.c.game.phase == SCORCH
    r.run(CALM_MS)
    saves = store.saves
    asked.clear()
    # A tile slid over d4, c4, b4 to a4: it rests on each square long enough
    # for the debounce, so each reads as a scorch, taken back as it moves on.
    r.mask |= r.bit("d4")
    r.run(150)
    for a, b in (("d4", "c4"), ("c4", "b4"), ("b4", "a4")):
        r.mask ^= r.bit(a) | r.bit(b)
        r.run(150)
    # No plan yet: still sliding. Each scorch the board showed was kept, one
    # write a reading (the take-back and the next scorch in one): the last is
    # on file as the tile stops.
    assert asked == [] and store.saves == saves + 4
    assert store.text.splitlines()[4].endswith("c1-b3,a4")
    r.run(CALM_MS)
    assert log(r.c.game).endswith("c1-b3,a4") and r.c.game.side == HUNS
    assert asked == [log(r.c.game)] and store.saves == saves + 4


def test_the_game_is_kept_as_the_board_accepts_an_action_and_once():
    store = MemoryStore()
    t = Table(RECT, store=store, rest=False)
    t.put("a1")
    assert "log @a1" in store.text and store.saves == 1  # before the LEDs show it
    t.at(t.t + CALM_MS - 100)
    assert t.c.busy()  # the squares have not settled: no plan yet
    t.at(t.t + 100)
    assert not t.c.busy()
    t.at(t.t + 5000)
    assert store.saves == 1  # once


def test_the_last_tile_slid_on_ends_the_game_where_it_stops():
    game = ("@a1 @b1 @c1 @d1 @e1 @a2 a1-c2,a1 b1-d2,b1 c1-e2,c1 d1-b2,d1 e1-d3,e1 "
            "a2-c3,a2 c2-a3,c2 b2-a4,b2 e2-d4,e2 d2-b3,d2 a3-c4,a3 c3-e4,c3")
    t = Table(RECT)
    for item in game.split():
        t.act(item)
    t.carry("d3", "b4")  # the winning move: only d3 and e3 are left free
    t.rests = False
    t.put("d3")  # the tile lands on d3: the Romans win ...
    assert t.c.mode == GAME_OVER
    t.mask ^= t.bit("d3") | t.bit("e3")  # ... and slides on to e3
    t.sense()
    assert t.c.mode == GAME_OVER and log(t.c.game) == game + " d3-b4,e3"
    t.rest()
    t.lift("e3")  # settled: the game is over, the pieces no longer matter
    assert t.c.mode == GAME_OVER and log(t.c.game) == game + " d3-b4,e3"


def test_a_tile_lifted_where_the_boards_knight_left_is_a_tile_while_it_thinks():
    """The board's last turn was a1-b3,a1; thinking on its next turn, the tile
    on a1 lifted is a tile to put back, not the board's knight in a hand (its
    last plan's squares are forgotten with the plan: TestHands found it)."""
    planner = FakePlanner(slices=3)
    r = Rack(computer=ROMANS, first=ROMANS, opponent=planner)
    r.run(CALM_MS + 20 * LOOP_MS)
    play(r, "@a1 @c2 @b1 @e2 @c1 @b4 a1-b3,a1")
    planner.slices = 50
    play(r, "c2-e1,e4")
    assert log(r.c.game) == "@a1 @c2 @b1 @e2 @c1 @b4 a1-b3,a1 c2-e1,e4"
    assert r.c.status() == "The board plays the Romans: thinking..."
    r.lift("a1")
    assert (r.c.mode, r.c.lifted) == (CORRECT, -1)
    assert r.c.status() == "The board is thinking: put the tile back on a1"
    r.put("a1")
    assert (r.c.mode, r.c.lifted) == (PLAY, -1)
    assert r.c.status() == "The board plays the Romans: thinking..."
