"""Out of a correction the board reads no action (attila.play.reading).

The sensors cannot tell a knight from a tile, so an occupancy reached through
a correction may hold any piece anywhere: the board waits until the pieces
match the game again (or one knight of the side to move is in a hand) and
reads actions only from there.
"""

from ctltable import BLUE, BLUE_DIM, RED, Table
from test_ctl_stateful import L  # the L layout of the property test

from attila.play.modes import CORRECT, PLAY, RESUME
from attila.game.geometry import from_rows
from attila.game.notation import log
from attila.game.rules import HUNS, ROMANS, SCORCH
from attila.saves.store import MemoryStore

RECT = from_rows(["....."] * 4)
SETUP = "@a1 @e4 @c2 @b4 @c3 @e2"


def board(items):
    t = Table(RECT)
    for item in items.split():
        t.act(item)
    return t


def test_a_tile_put_before_the_move_then_a_knight_carried_is_no_move():
    t = board(SETUP)
    c = t.c
    t.put("b3")  # a tile before any move
    assert c.mode == CORRECT and c.status() == "move a knight first: take the piece off b3"
    t.lift("a1")  # a1 empty, b3 full: it reads like a1-b3, but came through a correction
    assert c.mode == CORRECT and log(c.game) == SETUP
    # A legal jump refused: no "is not a knight's jump" (it is one).
    assert c.status() == "move the piece on b3 to a1 (Roman knight)"
    t.put("d4")
    assert c.mode == CORRECT and log(c.game) == SETUP
    assert c.status() == (
        "take the piece off b3; take the piece off d4; put the Roman knight back on a1")
    t.at(t.t // 400 * 400 + 400)
    assert t.lit() == {"b3": RED, "d4": RED}
    t.at(t.t + 200)
    assert t.lit() == {"a1": BLUE}
    # Fixed, the real move is read as usual.
    t.lift("b3")
    t.lift("d4")
    assert c.mode == PLAY and c.lifted == RECT.index("a1")  # the knight is in the hand
    t.put("b3")
    t.put("d4")
    assert log(c.game) == SETUP + " a1-b3,d4" and c.mode == PLAY


def test_lifting_the_last_placed_knight_out_of_a_correction_takes_nothing_back():
    t = board("@a1 @c2")
    c = t.c
    t.put("b3")  # a Roman knight there would trap a1: refused
    assert c.mode == CORRECT
    t.lift("c2")  # the Hun knight just placed: the reading now looks like @b3 for the Huns
    assert c.mode == CORRECT and log(c.game) == "@a1 @c2"
    assert c.game.knights[HUNS] == t.bit("c2")
    t.lift("b3")
    t.put("c2")
    assert c.mode == PLAY and log(c.game) == "@a1 @c2"


def test_lifting_the_moved_knight_out_of_a_correction_keeps_the_move():
    t = board("@a1 @b1 @c1 @d1 @e1 @a2")
    c = t.c
    t.carry("a1", "c2")
    assert c.game.phase == SCORCH
    t.mask |= t.bit("b3") | t.bit("e4")  # two tiles at once
    t.sense()
    assert c.mode == CORRECT
    t.lift("c2")  # the knight that moved, in the hand again
    t.lift("e4")  # now it reads like a knight on a1 lifted and put on b3
    assert c.mode == CORRECT and c.game.phase == SCORCH
    assert log(c.game) == "@a1 @b1 @c1 @d1 @e1 @a2 a1-c2"
    assert c.game.knights[ROMANS] & t.bit("c2")
    t.lift("b3")
    t.put("c2")
    assert c.mode == PLAY and c.game.phase == SCORCH


def test_a_stray_tile_where_a_knight_returns_must_come_off_first():
    t = board("@a1 @b1 @c1 @d1 @e1 @a2")
    c = t.c
    t.carry("a1", "c2")
    t.mask |= t.bit("a1") | t.bit("e4")  # two tiles at once, one where the knight stood
    t.sense()
    assert c.mode == CORRECT
    t.undo()  # the move taken back: the knight goes home to a1, where a tile lies
    t.lift("e4")
    t.lift("c2")  # the sensors now read the position before the move
    assert c.mode == CORRECT and c.stray == t.bit("a1")
    assert c.status() == "Undo the move from a1 to c2: take the piece off a1"
    t.at(t.t // 400 * 400 + 400)
    assert t.lit() == {"a1": RED}
    t.lift("a1")
    assert c.status() == "Undo the move from a1 to c2: put the Roman knight back on a1"
    t.put("a1")
    assert c.mode == PLAY and log(c.game) == "@a1 @b1 @c1 @d1 @e1 @a2"


def test_a_power_cut_during_a_take_back_resumes_what_the_table_shows():
    store = MemoryStore()
    t = Table(RECT, store=store)
    for item in "@a1 @b1 @c1 @d1 @e1 @a2 a1-c2,a1".split():
        t.act(item)
    t.undo()
    t.undo()  # first the tile off a1, then the knight from c2 back to a1
    # The power goes before any piece moved: the table still shows a1-c2,a1.
    boot = Table(RECT, mask=t.mask, t=t.t + 100, store=store)
    assert boot.c.mode == RESUME and log(boot.c.game) == "@a1 @b1 @c1 @d1 @e1 @a2 a1-c2,a1"
    assert boot.c.status().endswith("The board matches it")
    # The tile is off, then the power goes: the table shows a1-c2.
    t.lift("a1")
    boot = Table(RECT, mask=t.mask, t=t.t + 100, store=store)
    assert log(boot.c.game) == "@a1 @b1 @c1 @d1 @e1 @a2 a1-c2"
    assert boot.c.status().endswith("The board matches it")
    # The knight home too: the save is the game before the move.
    t.carry("c2", "a1")
    assert t.c.mode == PLAY
    boot = Table(RECT, mask=t.mask, t=t.t + 100, store=store)
    assert log(boot.c.game) == "@a1 @b1 @c1 @d1 @e1 @a2"


L_GAME = "@a5 @a1 @c1 @b1 @b5 @d1 b5-a3,f1 a1-c2,a1 c1-e2,c1 b1-d2,b1"


def test_a_knight_carried_through_a_correction_then_taken_off_is_in_the_hand():
    """The property test's stored example, as the board sees it: a piece put
    on e1 before the move, the Roman knight of a5 carried to b3, both pieces
    taken off. Every piece left on the table is one the board never saw
    lifted, so the knight of a5 is off it: the board follows it as lifted, and
    asks for it on its jumps or back home, in its colour (a Hun knight put on
    a5 there is a hand not doing what the LEDs ask: no sensor can see it)."""
    t = Table(L)
    c = t.c
    for item in L_GAME.split():
        t.act(item)
    assert c.status() == "Romans: lift a knight that can move (a3 a5)"
    t.put("e1")
    assert c.status() == "move a knight first: take the piece off e1"
    t.carry("a5", "b3")  # reads like a5-b3, but came through a correction
    assert c.mode == CORRECT and log(c.game) == L_GAME
    assert c.status() == (
        "take the piece off e1; take the piece off b3; put the Roman knight back on a5")
    t.lift("e1")
    t.lift("b3")
    assert c.mode == PLAY and c.lifted == L.index("a5") and log(c.game) == L_GAME
    assert c.status() == "Romans: put the knight on b3, or back on a5"
    assert t.lit() == {"a5": BLUE_DIM, "b3": BLUE}
    t.put("a5")
    assert c.mode == PLAY and c.lifted == -1 and log(c.game) == L_GAME
    assert c.status() == "Romans: lift a knight that can move (a3 a5)"
