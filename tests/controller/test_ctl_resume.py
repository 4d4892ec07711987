"""Power cuts through the controller: the board resumes the last complete action."""

import pytest
from ctltable import BLUE, DARK, RED, WHITE, FakeFs, PowerCut, Table

from attila.controller import CLEAR, CORRECT, OVER, PLAY, RESUME, Controller
from attila.geometry import from_rows
from attila.notation import log, replay
from attila.rules import Game
from attila.store import Store, checksum, dump

RECT = from_rows(["....."] * 4)
GAME = (
    "@a1 @b1 @c1 @d1 @e1 @a2 a1-c2,a1 b1-d2,b1 c1-e2,c1 d1-b2,d1 e1-d3,e1 "
    "a2-c3,a2 c2-a3,c2 b2-a4,b2 e2-d4,e2 d2-b3,d2 a3-c4,a3 c3-e4,c3 d3-b4,d3"
)
ACTIONS = 6 + 2 * 13


def first(n):
    """The log of the first n actions of GAME."""
    g = replay(Game(RECT), GAME)
    while len(g.history) > n:
        g.undo()
    return log(g)


def play_until_the_cut(fs):
    """Play GAME by hand until the power goes; the table as it stands then."""
    t = Table(RECT, store=Store("/save", fs))
    try:
        for item in GAME.split():
            t.act(item)
    except PowerCut:
        return t
    raise AssertionError("no power cut")


def boot(fs, mask):
    fs.power_back()
    t = Table(RECT, mask=mask, t=100000, store=Store("/save", fs))
    return t


def actions():
    """GAME as single actions: '@a1', 'a1-c2', ',a1' ..."""
    g = replay(Game(RECT), GAME)
    return [g.describe(e) for e in g.history]


def do(t, action):
    if action[0] == "@":
        t.put(action[1:])
    elif action[0] == ",":
        t.put(action[1:])
    else:
        a, b = action.split("-")
        t.carry(a, b)


@pytest.mark.parametrize("n", range(1, ACTIONS + 1))
def test_cut_before_the_rename_of_every_action(n):
    fs = FakeFs(cut_save=n)
    cut = play_until_the_cut(fs)
    t = boot(fs, cut.mask)
    assert t.c.mode == RESUME
    if n == 1:
        # No save yet, but the new one was written whole: it counts.
        assert log(t.c.game) == first(1)
    else:
        assert log(t.c.game) == first(n - 1)
    t.menu()
    t.robot()
    assert t.c.mode in (PLAY, OVER)
    assert t.mask == t.c.game.occupied()
    # The game goes on from there to the same end.
    for action in actions()[len(t.c.game.history):]:
        do(t, action)
    assert t.c.mode == OVER and log(t.c.game) == GAME


def test_cut_at_every_byte_of_one_save():
    n = 10  # the save after "a1-c2,a1 b1-d2"
    text = dump(replay(Game(RECT), first(n)))
    size = len(text) + len("end %d\n" % checksum(text))
    for k in range(size):
        fs = FakeFs(cut_save=n, cut_byte=k)
        cut = play_until_the_cut(fs)
        assert len(fs.files["/save.tmp"]) == k
        t = boot(fs, cut.mask)
        assert t.c.mode == RESUME and log(t.c.game) == first(n - 1), k
    # The save after it is whole: the next boot resumes it.
    fs = FakeFs(cut_save=n + 1, cut_byte=0)
    cut = play_until_the_cut(fs)
    t = boot(fs, cut.mask)
    assert log(t.c.game) == first(n) and t.c.mode == RESUME
    # ... and the board shows the move c1-e2 the save after it lost: 2 squares.
    assert t.c.status() == (
        "Saved game found (10 actions, Romans to move). MENU: resume, UNDO: discard. "
        "2 squares differ from it"
    )


def test_resume_shows_the_saved_position_and_the_disagreeing_squares():
    fs = FakeFs(cut_save=11)  # lost: the move c1-e2 of the Romans
    cut = play_until_the_cut(fs)
    assert first(10) == "@a1 @b1 @c1 @d1 @e1 @a2 a1-c2,a1 b1-d2,b1"
    t = boot(fs, cut.mask)
    assert t.c.mode == RESUME
    t.at(100400)  # fast blink, lit half: the extra piece red, the rest steady
    lit = t.lit()
    assert lit.pop("e2") == RED
    assert lit == {"c2": BLUE, "e1": BLUE, "a1": WHITE, "b1": WHITE,
                   "d1": (255, 112, 0), "d2": (255, 112, 0), "a2": (255, 112, 0)}
    t.at(100600)  # dark half: c1, where the knight belongs, blinks blue
    assert t.rgb("e2") == DARK and t.rgb("c1") == BLUE
    t.at(100800)
    assert t.rgb("c1") == DARK
    t.menu()
    assert t.c.mode == CORRECT
    assert t.c.status() == "move the piece on e2 to c1 (Roman knight)"
    t.carry("e2", "c1")
    assert t.c.mode == PLAY and t.c.game.side == 0


def test_host_file_system(tmp_path):
    path = str(tmp_path / "game.txt")
    store = Store(path)
    t = Table(RECT, store=store)
    t.act("@a1")
    t.act("@b1")
    assert open(path).read().startswith("attila-save 1\n")
    assert not (tmp_path / "game.txt.tmp").exists()
    c = Controller(RECT, store=Store(path))
    assert c.mode == RESUME and log(c.game) == "@a1 @b1"
    store.clear()
    assert not (tmp_path / "game.txt").exists()


def test_unreadable_or_foreign_save_starts_a_new_game():
    fs = FakeFs()
    Store("/save", fs).save(dump(Game(from_rows(["....", "....", "....", "....", "...."]))))
    c = Controller(RECT, store=Store("/save", fs))
    assert c.mode == CLEAR
    assert c.status().endswith(
        "[saved game refused (save: it is for the layout ..../..../..../..../...., "
        "the board is ...../...../...../.....): kept aside as /save.bad]"
    )
    c.sense(0, 0)
    assert c.mode == PLAY
