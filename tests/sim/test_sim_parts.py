"""The simulator's small parts: the table of pieces, the action lines, the loop."""

import pytest

from attila.game.notation import parse_position
from attila.opponent.levels import PORTABLE_SLICE, SLICE
from attila_sim import actions
from attila_sim.actions import ActionError
from attila_sim.hardware import VirtualButtons, VirtualStrip
from attila_sim.rig import Rig
from attila_sim.table import RESERVE, Table, TableError

import simkit


def layout():
    return simkit.load()[0]


def test_table_hands():
    lay = layout()
    t = Table(lay, 14)
    assert t.occupied() == 0 and len(t.reserve("x")) == 14
    t.take("R")
    t.put(0)
    assert t.occupied() == 1 and t.text(0) == "R"
    with pytest.raises(TableError, match="a1 is taken"):
        t.take("H") and t.put(0)
    t.drop()
    assert len(t.reserve("H")) == 3
    p = t.lift(0)
    assert p.kind == "R" and t.occupied() == 0 and t.held() is p
    with pytest.raises(TableError, match="b1 is empty"):
        t.lift(1)
    t.put(5)
    for _ in range(3):
        t.take("H")
    t.drop(), t.drop(), t.drop()
    for _ in range(3):
        t.take("H")
    with pytest.raises(TableError, match="no Hun knight left"):
        t.take("H")
    t.clear()
    assert t.occupied() == 0 and t.hand == []
    assert all(p.where == RESERVE for p in t.pieces)


def test_table_arrange_and_sense():
    lay = layout()
    t = Table(lay, 14)
    t.arrange(0b11, 0b1100, 0b110000)
    assert "".join(t.text(i) for i in range(6)) == "RRHHxx"
    t.sense(0b1000001)
    assert t.occupied() == 0b1000001
    assert t.text(0) == "R" and t.text(6) == "o"
    t.lift(6)
    t.drop()  # an unknown magnet was never one of the pieces
    assert len(t.pieces) == 6 + 14


def test_action_lines():
    lay = layout()
    a1, c2, d4 = lay.index("a1"), lay.index("c2"), lay.index("d4")
    assert actions.parse(lay, "  # comment") == []
    assert actions.parse(lay, "@a1") == [("take", "?"), ("put", a1)]
    assert actions.parse(lay, "a1-c2,d4") == [
        ("lift", a1), ("put", c2), ("take", "x"), ("put", d4)]
    assert actions.parse(lay, "a1-c2") == [("lift", a1), ("put", c2)]
    assert actions.parse(lay, ",d4") == [("take", "x"), ("put", d4)]
    assert actions.parse(lay, "put c2 H") == [("take", "H"), ("put", c2)]
    assert actions.parse(lay, "undo") == [("press", "undo", actions.SHORT_PRESS_MS)]
    assert actions.parse(lay, "hold menu 1500") == [("press", "menu", 1500)]
    assert actions.parse(lay, "sense a1,c2") == [("sense", 1 << a1 | 1 << c2)]
    assert actions.parse(lay, "sense -") == [("sense", 0)]
    assert actions.parse(lay, "next all") == [("next", -1)]
    for bad, why in (("lift", "lift SQ, put SQ"), ("put c2 Q", "must be R, H or x"),
                     ("wait soon", "not a number"), ("a1-", "expected a turn"),
                     ("a1-c2,", "scorch after ',' is missing"), ("@z1", "z1 is not a square"),
                     ("next 0", "not a number of steps")):
        with pytest.raises(ActionError, match=why):
            actions.parse(lay, bad)
    with pytest.raises(ActionError, match="moves.txt line 3: "):
        actions.parse_lines(lay, ["@a1", "", "@q"], "moves.txt")


def test_virtual_strip_latches_on_write():
    s = VirtualStrip(2)
    s[1] = (1, 2, 3)
    assert s.sent == bytes(6)
    s.write()
    assert s.sent == b"\0\0\0\1\2\3" and s.writes == 1
    s.fill((9, 9, 9))
    s.show()
    assert s.sent == bytes([9] * 6)
    b = VirtualButtons()
    b.held = 2
    assert b.read() == 2


def test_the_window_loop_runs_and_quits():
    pygame = pytest.importorskip("pygame")
    from attila_sim.rig import Rig
    from attila_sim.window import Window

    lay, modules, tiles = simkit.load()
    rig = Rig(lay, modules, tiles, speed=4)
    window = Window(rig)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PLUS, mod=0, unicode="+"))
    assert window.run(exit_after_ms=300) == 0
    assert rig.speed == 8
    assert rig.now > 60
    window = Window(rig)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert window.run(exit_after_ms=5000) == 0


def test_a_quick_tap_still_presses_the_button():
    from attila_sim.rig import Rig

    lay, modules, tiles = simkit.load()
    rig = Rig(lay, modules, tiles)
    rig.do(actions.parse(lay, "@a1"))
    # Down and up within one frame of the window: the board must still see it.
    rig.button_down("undo")
    rig.button_up("undo")
    rig.advance(100)
    assert rig.controller.game.history == []
    assert rig.buttons.held == 0


def test_the_simulators_opponent_searches_at_a_picos_pace():
    """The simulator's board decides as a Pico does, a slice a loop step: the
    viper kernel's pace (attila.opponent.levels.SLICE, the one a Pico's
    Planner takes: tests/portable/test_planner.py), not the portable kernel's
    that runs here."""
    rig = Rig.from_file(simkit.LAYOUT_4X5, computer=1)
    planner = rig.controller.plan.opponent
    planner.node_budget = 2000  # (a short decision: the pace is the point)
    planner.start(parse_position("x..../RH.../..R.x/.H.RH R"), 0)
    per_step = []
    while planner.busy:
        before = planner.nodes
        planner.step(0)
        per_step.append(planner.nodes - before)
    assert PORTABLE_SLICE < max(per_step) <= SLICE
