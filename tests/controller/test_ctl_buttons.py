"""Buttons through the whole board: presses, holds, the first press after start-up."""

import pytest
from ctlboard import Rack
from ctltable import Table

from attila.play.modes import CLEAR, CORRECT, GAME_OVER, PLAY, RESUME, SELFTEST
from attila.play.presses import BUTTON_MENU, BUTTON_UNDO
from attila.game.geometry import from_rows
from attila.saves.store import MemoryStore

RECT = from_rows(["....."] * 4)
GAME = (
    "@a1 @b1 @c1 @d1 @e1 @a2 a1-c2,a1 b1-d2,b1 c1-e2,c1 d1-b2,d1 e1-d3,e1 "
    "a2-c3,a2 c2-a3,c2 b2-a4,b2 e2-d4,e2 d2-b3,d2 a3-c4,a3 c3-e4,c3 d3-b4,d3"
)


def test_the_first_long_menu_press_after_start_up_starts_a_new_game():
    r = Rack()
    r.put("a1")
    assert r.c.mode == PLAY and len(r.c.game.history) == 1
    r.hold(BUTTON_MENU, 1600)
    assert r.c.mode == CLEAR


def test_the_first_menu_hold_of_5_s_after_start_up_starts_the_self_test():
    r = Rack()
    r.put("a1")
    r.hold(BUTTON_MENU, 5100)
    assert r.c.mode == SELFTEST


def test_a_short_press_is_a_hint_and_no_more():
    r = Rack()
    r.put("a1")
    r.hold(BUTTON_MENU, 1400)
    assert r.c.mode == PLAY and len(r.c.game.history) == 1


def test_undo_held_is_one_undo():
    r = Rack()
    r.put("a1")
    r.put("b1")
    r.hold(BUTTON_UNDO, 6000)
    assert r.c.mode == CORRECT and len(r.c.game.history) == 1


def game_over():
    t = Table(RECT)
    for item in GAME.split():
        t.act(item)
    assert t.c.mode == GAME_OVER
    return t


def correcting():
    t = Table(RECT)
    t.act("@a1")
    t.mask |= t.bit("c3") | t.bit("d3")  # two pieces at once
    t.sense()
    assert t.c.mode == CORRECT
    return t


def resuming():
    store = MemoryStore()
    t = Table(RECT, store=store)
    t.act("@a1")
    t = Table(RECT, mask=t.mask, t=t.t, store=store)
    assert t.c.mode == RESUME
    return t


@pytest.mark.parametrize("start", [correcting, game_over, resuming])
@pytest.mark.parametrize("ms, mode", [(1600, CLEAR), (5100, SELFTEST)])
def test_the_first_hold_counts_in_every_mode(start, ms, mode):
    t = start()
    t.hold(BUTTON_MENU, ms)  # no earlier press, no earlier release
    assert t.c.mode == mode


@pytest.mark.parametrize("ms, mode", [(1600, "clear"), (5100, "selftest")])
def test_the_issue_script_in_the_simulator(ms, mode):
    """`@a1` then `hold menu 1600` (or 5100), as reported: the simulator runs the same Board."""
    import io
    import json

    from attila.game import layoutfile
    from attila_sim import script
    from attila_sim.rig import Rig

    import simroot

    rig = Rig(*layoutfile.load(simroot.LAYOUT_4X5))
    out = io.StringIO()
    assert script.run(rig, ["@a1", "hold menu %d" % ms], out, "json", "-") == 0
    assert json.loads(out.getvalue().splitlines()[-1])["mode"] == mode


@pytest.mark.parametrize("ms, mode", [(1490, PLAY), (1500, CLEAR), (1510, CLEAR)])
def test_a_long_press_is_menu_held_1500_ms_or_more(ms, mode):
    """One rule for the board, the README (`hold menu 1500`: a long press) and
    the tools: held 1.5 s or more, however the release falls between two loop
    steps, is a new game; less is a hint."""
    r = Rack()
    r.put("a1")
    r.hold(BUTTON_MENU, ms)
    assert r.c.mode == mode and len(r.c.game.history) == 1


@pytest.mark.parametrize("ms, mode", [(1490, "play"), (1500, "clear")])
def test_hold_menu_1500_in_the_simulator_is_a_long_press(ms, mode):
    import io
    import json

    from attila.game import layoutfile
    from attila_sim import script
    from attila_sim.rig import Rig

    import simroot

    rig = Rig(*layoutfile.load(simroot.LAYOUT_4X5))
    out = io.StringIO()
    assert script.run(rig, ["@a1", "hold menu %d" % ms], out, "json", "-") == 0
    assert json.loads(out.getvalue().splitlines()[-1])["mode"] == mode
