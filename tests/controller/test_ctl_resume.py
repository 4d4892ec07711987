"""Power cuts through the controller: the board resumes the last complete action."""

import pytest
from ctltable import BLUE, DARK, RED, WHITE, FakeFs, PowerCut, Table

from attila.play.controller import Controller
from attila.play.modes import CLEAR, CORRECT, GAME_OVER, PLAY, RESUME
from attila.game.geometry import from_rows
from attila.game.notation import log, replay
from attila.game.rules import Game
from attila.saves.savetext import checksum, dump
from attila.saves.store import Store

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
    """Play GAME by hand until the power goes: (the table as it stands then,
    the log the board had shown before the action that was cut, or None
    when the power never went)."""
    t = Table(RECT, store=Store("/save", fs, journal=True))
    shown = ""
    try:
        for item in GAME.split():
            t.act(item)
            shown = log(t.c.game)
    except PowerCut:
        return t, shown
    return t, None


def writes():
    """How many files a whole game writes or appends to (saves, journal lines)."""
    fs = FakeFs()
    play_until_the_cut(fs)
    return fs.saves


def boot(fs, mask):
    fs.power_back()
    t = Table(RECT, mask=mask, t=100000, store=Store("/save", fs, journal=True))
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


WRITES = writes()


@pytest.mark.parametrize("n", range(1, WRITES + 1))
def test_a_cut_in_any_write_resumes_what_the_board_showed(n):
    for cut_byte in (0, 5, -1):  # nothing of it written, a torn line, all but the rename
        fs = FakeFs(cut_save=n, cut_byte=cut_byte)
        cut, shown = play_until_the_cut(fs)
        if shown is None:
            continue  # (an append has no rename to cut before)
        t = boot(fs, cut.mask)
        # What the board had shown, or (half a turn shown) the action it was
        # keeping when the power went.
        back = t.c.game.history
        assert back == cut.c.game.history[:len(back)], (n, cut_byte, log(t.c.game))
        assert len(back) >= len(replay(Game(RECT), shown).history), (n, cut_byte, shown)
        if not shown and not t.c.game.history:
            assert t.c.mode == CLEAR
            continue
        assert t.c.mode == RESUME
        t.menu()
        t.robot()
        assert t.c.mode in (PLAY, GAME_OVER)
        assert t.mask == t.c.game.occupied()
        # The game goes on from there to the same end.
        for action in actions()[len(t.c.game.history):]:
            do(t, action)
        assert t.c.mode == GAME_OVER and log(t.c.game) == GAME


def test_every_action_is_kept_before_it_is_shown():
    """Journal lines between whole saves: each action is on file when act() returns."""
    fs = FakeFs()
    t = Table(RECT, store=Store("/save", fs, journal=True), rest=False)
    for k, item in enumerate(GAME.split()[:12]):
        t.act(item)  # no rest: the squares never settle, no whole save
        back = Controller(RECT, store=Store("/save", fs.copy(), journal=True))
        assert log(back.game) == log(t.c.game), k


def test_resume_shows_the_saved_position_and_the_disagreeing_squares():
    fs = FakeFs()
    cut = Table(RECT, store=Store("/save", fs, journal=True))
    for item in first(10).split():
        cut.act(item)
    fs.cut_save, fs.cut_byte = fs.saves + 1, 0  # lost: the move c1-e2 of the Romans
    try:
        cut.act("c1-e2,c1")
        assert False, "no power cut"
    except PowerCut:
        pass
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
    c = Controller(RECT, store=Store("/save", fs, journal=True))
    assert c.mode == CLEAR
    assert c.status().endswith(
        "[saved game refused (save: it is for the layout ..../..../..../..../...., "
        "the board is ...../...../...../.....): kept aside as /save.bad]"
    )
    c.sense(0, 0)
    assert c.mode == PLAY


def test_a_finished_game_cleared_at_once_is_archived_all_the_same():
    fs = FakeFs()
    t = Table(RECT, store=Store("/save", fs, games="/games", journal=True))
    items = GAME.split()
    for item in items[:-1]:
        t.act(item)
    t.rests = False
    t.act(items[-1])  # the game ends ...
    assert t.c.mode == GAME_OVER
    t.menu()  # ... and a new game is asked for before the squares settle
    t.mask = 0
    t.sense()
    assert t.c.mode == PLAY and not t.c.game.history
    kept = [p for p in fs.files if p.startswith("/games/")]
    assert len(kept) == 1 and log(replay(Game(RECT), GAME)) in fs.files[kept[0]]
