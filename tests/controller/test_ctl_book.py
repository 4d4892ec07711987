"""The setup book on the board, through the controller.

With the layout's book the board places its own knights from it at NORMAL
and STRONG (no search: the answer is there at the first step), keeps its
search at BEGINNER and EASY, and a hint in setup comes from the book at any
level; a position the book lacks is searched as without a book.
"""

import os

import pytest
from ctltable import AMBER, BLUE, Table

from attila.opponent import book as books
from attila.opponent.levels import reseed
from attila.game.geometry import from_rows
from attila.game.notation import log
from attila.opponent.levels import BEGINNER, EASY, NORMAL, STRONG
from attila.opponent.planner import chooser
from attila.game.rules import HUNS, MOVE, ROMANS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOOK = os.path.join(ROOT, "boards", "solved", "4x5.book")
RECT = from_rows(["....."] * 4)


@pytest.fixture
def book():
    b = books.open(BOOK, RECT)
    yield b
    b.close()


def slow_on(t):
    t.at(t.t // 1000 * 1000 + 1000)  # SLOW blink, lit half


@pytest.mark.parametrize("level", [NORMAL, STRONG])
def test_the_board_places_its_huns_from_the_book(book, level):
    planner = chooser(level, 2000, book)
    t = Table(RECT, computer=HUNS, opponent=planner)
    c = t.c
    for mine, its in (("a1", "c2"), ("e4", "d2"), ("d1", "e3")):
        t.put(mine)
        assert c.status() == "The board plays the Huns: put a knight on %s" % its
        assert book.placement(c.game) == RECT.index(its)
        assert planner.nodes == 0  # the book's answer: nothing searched
        slow_on(t)
        assert t.lit() == {its: AMBER}
        t.put(its)
    assert c.game.phase == MOVE and log(c.game) == "@a1 @c2 @e4 @d2 @d1 @e3"


def test_the_board_places_its_romans_first_from_the_book(book):
    t = Table(RECT, computer=ROMANS, opponent=chooser(STRONG, 2000, book))
    c = t.c
    t.rest()
    assert c.status() == "The board plays the Romans: put a knight on c2"
    for its, mine in (("c2", "a1"), ("e1", "e4"), ("d2", "d1")):
        assert c.plan.src == RECT.index(its) == book.placement(c.game)
        slow_on(t)
        assert t.lit() == {its: BLUE}
        t.put(its)
        t.put(mine)
    assert log(c.game) == "@c2 @a1 @e1 @e4 @d2 @d1"


def _first_placement(level, book):
    reseed(7)
    planner = chooser(level, 2000, book)
    t = Table(RECT, computer=ROMANS, opponent=planner)
    t.rest()
    return t.c.plan.src, planner.nodes


@pytest.mark.parametrize("level", [BEGINNER, EASY])
def test_the_lower_levels_keep_their_search(book, level):
    with_book, nodes = _first_placement(level, book)
    without, _ = _first_placement(level, None)
    assert nodes > 0 and with_book == without


def test_a_hint_in_setup_comes_from_the_book_at_any_level(book):
    planner = chooser(BEGINNER, 2000, book)
    t = Table(RECT, opponent=planner)
    c = t.c
    t.menu()
    t.rest()
    assert c.status() == ("Romans: place a knight on a lit square (knight 1 of 3) "
                          "(hint: put a Roman knight on c2)")
    assert planner.nodes == 0 and not planner.busy
    t.put("a1")  # not the hint: the Huns' hint is the book's answer to a1
    t.menu()
    t.rest()
    assert c.status().endswith("(hint: put a Hun knight on c2)")
    assert planner.nodes == 0


def _hint_off_the_book(book):
    planner = chooser(STRONG, 2000, book)
    t = Table(RECT, opponent=planner)
    t.put("a1")
    t.put("b1")  # Huns on b1: a position the board never plays into
    t.menu()
    t.rest()
    assert t.c.plan.ready()
    return t.c.plan.src, planner.nodes, t.c.game


def test_a_position_the_book_lacks_is_searched(book):
    searched, nodes, game = _hint_off_the_book(book)
    assert book.placement(game) == -1
    assert nodes > 0 and (searched, nodes) == _hint_off_the_book(None)[:2]
