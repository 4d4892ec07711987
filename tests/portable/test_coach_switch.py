"""The coach switched on and off on the board: MENU while a new game is cleared
(a file of its own: each test file gets a fresh MicroPython heap of 512 KB).

card_9.tbl: see test_card.py.
"""

from attila.play import words  # noqa: F401 - compiled first, while the heap is whole (unix: 512 KB)
from attila.play.coach import QUIET, Coach
from attila.play.controller import Controller
from attila.play.modes import CLEAR
from attila.play.painter import COACH_MS
from attila.play.presses import BUTTON_MENU, HOLD_NEW_MS
from test_card import NINE, Card, Disk

GREEN = bytes((0, 255, 0)) * NINE.size
DIM_WHITE = bytes((64, 64, 64)) * NINE.size


def _clearing(coach):
    """A controller with a knight placed on a1, then MENU held: the board is being cleared."""
    c = Controller(NINE, coach=coach)
    c.sense(0, 0)
    c.sense(1 << NINE.index("a1"), 100)
    assert c.game.history  # the placement
    c.press(BUTTON_MENU, 1000)
    c.tick(1000 + HOLD_NEW_MS)
    c.release(BUTTON_MENU, 1000 + HOLD_NEW_MS)
    assert c.mode == CLEAR
    return c


def test_menu_while_a_new_game_is_cleared_switches_the_coach_and_shows_it():
    coach = Coach(Card(Disk(), NINE), False)
    c = _clearing(coach)
    assert c.status() == ("New game: take every piece off the board "
                          "(1 left: a1; UNDO: back; MENU: turn the coach on)")
    t = 3000
    c.press(BUTTON_MENU, t)
    c.tick(t)
    c.release(BUTTON_MENU, t + 100)
    assert coach.on and c.mode == CLEAR
    assert bytes(c.frame) == GREEN  # the whole board green: on
    c.tick(t + COACH_MS - 50)
    assert bytes(c.frame) == GREEN
    c.tick(t + COACH_MS)
    assert bytes(c.frame) != GREEN  # back to the clearing blink
    assert c.status().endswith("; UNDO: back; MENU: turn the coach off)")
    t = 5000
    c.press(BUTTON_MENU, t)
    c.tick(t)
    c.release(BUTTON_MENU, t + 100)
    assert not coach.on and coach.verdict == QUIET
    assert bytes(c.frame) == DIM_WHITE  # dim white: off
    assert c.status().endswith("; UNDO: back; MENU: turn the coach on)")
    c.sense(0, 6000)  # the board empty: the new game starts, the coach as it was left
    assert c.mode != CLEAR and not c.game.history and not coach.on


def test_without_a_card_there_is_no_coach_to_switch():
    c = _clearing(None)  # (painted at 1000 + HOLD_NEW_MS)
    assert c.status() == ("New game: take every piece off the board "
                          "(1 left: a1; UNDO: back)")
    c.press(BUTTON_MENU, 1000 + HOLD_NEW_MS)
    assert not c.tick(1000 + HOLD_NEW_MS)  # the press changed nothing the LEDs show
    c.release(BUTTON_MENU, 1100 + HOLD_NEW_MS)
    assert c.mode == CLEAR
