"""The controller on the boards' wrapping clocks (attila.ticks).

MicroPython's time.ticks_ms() wraps every 2**30 ms, CircuitPython's
supervisor.ticks_ms() every 2**29 ms (and starts 65 s before its first
wrap). Every time the controller measures must come out the same across the
wrap as anywhere else.
"""

import pytest
from ctltable import Table

from attila.play.modes import CLEAR, PLAY, SELFTEST
from attila.play.presses import BUTTON_MENU
from attila.game.geometry import from_rows

RECT = from_rows(["....."] * 4)
SETUP6 = "@a1 @b1 @c1 @d1 @e1 @a2".split()
PERIODS = pytest.mark.parametrize("wrap", [1 << 30, 1 << 29], ids=["micropython", "circuitpython"])


def near_the_wrap(wrap, before):
    """A board whose clock wraps `before` ms from now, with setup done."""
    t = Table(RECT, t=wrap - before - 5000, wrap=wrap)
    for item in SETUP6:
        t.act(item)
    t.at(wrap - before)
    return t


@PERIODS
def test_two_hints_before_the_wrap_and_one_after_are_not_a_triple_press(wrap):
    t = near_the_wrap(wrap, 5000)
    t.menu()
    t.menu()
    t.at(t.t + 30000)  # 30 s later, past the wrap
    t.menu()
    assert t.c.mode == PLAY and len(t.c.game.history) == 6


@PERIODS
def test_three_presses_across_the_wrap_start_a_new_game(wrap):
    t = near_the_wrap(wrap, 150)
    t.menu()
    t.menu()  # the wrap comes between these two
    t.menu()
    assert t.c.mode == CLEAR


@PERIODS
@pytest.mark.parametrize("ms, mode", [(1400, PLAY), (1600, CLEAR)])
def test_menu_held_across_the_wrap(wrap, ms, mode):
    t = near_the_wrap(wrap, 10000)
    t.menu()  # an earlier press, long before
    t.at(t.t + 9000)
    t.hold(BUTTON_MENU, ms)  # pressed 0.8 s before the wrap
    assert t.c.mode == mode


@PERIODS
def test_the_self_test_sweep_ends_across_the_wrap(wrap):
    t = near_the_wrap(wrap, 1000)
    t.c.self_test(t.now())
    assert t.c.mode == SELFTEST
    t.at(t.t + 150 * 3 * 20 + 100)  # every LED swept, the wrap on the way
    assert t.c.status().startswith("Self-test: put a magnet on each lit square")
