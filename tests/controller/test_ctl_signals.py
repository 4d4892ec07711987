"""What the controller tells the port (attila.controls): the cue for
the buzzer, `count` for the serial console, trouble() with its LED sign."""

from ctlboard import Rack
from ctltable import RED, FakeFs, Table

from attila.play.modes import (
    CUE_ERROR,
    CUE_ILLEGAL,
    CUE_NONE,
    CUE_OVER,
    CUE_PLACED,
    CUE_TURN,
    GAME_OVER,
)
from attila.play.presses import BUTTON_MENU
from attila.play.settling import CALM_MS
from attila.game.geometry import from_rows
from attila.leds.palette import TROUBLE_MS
from attila.game.rules import HUNS
from attila.saves.savetext import dump
from attila.saves.store import MemoryStore, Store

RECT = from_rows(["....."] * 4)
GAME = (
    "@a1 @b1 @c1 @d1 @e1 @a2 a1-c2,a1 b1-d2,b1 c1-e2,c1 d1-b2,d1 e1-d3,e1 "
    "a2-c3,a2 c2-a3,c2 b2-a4,b2 e2-d4,e2 d2-b3,d2 a3-c4,a3 c3-e4,c3 d3-b4,d3"
)


def heard(t, do):
    """The cue after `do`, reset as the Board resets it once forwarded."""
    t.c.cue = CUE_NONE
    do()
    cue = t.c.cue
    t.c.cue = CUE_NONE
    return cue


def all_red(t):
    return t.squares(RED) == list(t.layout.names)


class FailingStore(MemoryStore):
    def __init__(self):
        MemoryStore.__init__(self)
        self.fail = True

    def save(self, text):
        if self.fail:
            raise OSError(28, "No space left on device")
        MemoryStore.save(self, text)


def test_cues_through_a_game_against_the_board():
    t = Table(RECT, computer=HUNS)
    assert heard(t, lambda: t.put("a1")) == CUE_TURN  # placed, then the board's turn: the turn wins
    t.rests = False
    assert heard(t, lambda: t.put("c3")) == CUE_ILLEGAL  # not the board's choice
    assert heard(t, lambda: t.lift("c3")) == CUE_NONE  # back in agreement: no sound
    assert heard(t, lambda: t.put("b1")) == CUE_PLACED
    assert heard(t, t.rest) == CUE_NONE  # the Romans' turn: nothing to announce
    t.rests = True
    assert heard(t, lambda: t.put("c1")) == CUE_TURN


def test_game_over_is_cued_once():
    t = Table(RECT)
    items = GAME.split()
    for item in items[:-1]:
        t.act(item)
    t.carry("d3", "b4")
    assert heard(t, lambda: t.put("d3")) == CUE_OVER and t.c.mode == GAME_OVER
    assert heard(t, lambda: t.at(t.t + 5000)) == CUE_NONE


def test_the_status_count_grows_when_the_status_may_change_and_not_while_idle():
    t = Table(RECT)
    count = t.c.status_count
    t.at(t.t + 10000)
    assert t.c.status_count == count  # ticks alone say nothing new
    t.put("a1")
    assert t.c.status_count > count
    count = t.c.status_count
    t.menu()  # a hint: the status line gains it
    assert t.c.status_count > count and "hint" in t.c.status()
    count = t.c.status_count
    t.c.trouble("saving is off")
    assert t.c.status_count > count


def test_trouble_shows_its_sign_says_its_text_and_cues_an_error():
    t = Table(RECT)
    t.act("@a1")
    t.c.trouble("saving is off: the drive is read-only")
    assert t.c.cue == CUE_ERROR
    assert t.c.status() == ("Huns: place a knight on a lit square (knight 1 of 3) "
                            "[saving is off: the drive is read-only]")
    start = t.t + 10
    t.at(start)  # the sign starts with the next tick: the whole board flashes red twice
    assert all_red(t)
    t.at(start + 150)
    assert not all_red(t) and t.rgb("b3") == (255, 112, 0)  # the game shows in between
    t.at(start + 250)
    assert all_red(t)
    t.at(start + 500)
    assert not all_red(t)
    t.at(start + 1050)
    assert all_red(t)  # and again every second ...
    t.at(start + TROUBLE_MS)
    assert not all_red(t)  # ... three times
    for ms in range(0, 2000, 50):
        t.at(start + TROUBLE_MS + ms)
        assert not all_red(t)
    assert "[saving is off" in t.c.status()  # the words stay


def test_a_failed_save_is_shown():
    store = FailingStore()
    t = Table(RECT, store=store, rest=False)
    t.put("a1")  # kept before it is shown: the save fails
    assert t.c.cue == CUE_ERROR
    assert t.c.status().endswith("[flash full: cannot save the game]")
    t.at(t.t + 10)
    assert all_red(t)
    t.at(t.t + CALM_MS)  # settled: tried again, in vain; the words stay
    assert t.c.status().endswith("[flash full: cannot save the game]")
    # It works again on the next action: the words go.
    store.fail = False
    t.put("b1")
    t.at(t.t + CALM_MS)
    assert t.c.status() == "Romans: place a knight on a lit square (knight 2 of 3)"
    assert "log @a1 @b1" in store.text


def test_the_hint_asked_is_cued_as_nothing():
    t = Table(RECT)
    t.act("@a1")
    assert heard(t, lambda: t.press(BUTTON_MENU)) == CUE_NONE


class Heard:
    """The board's sounds, heard: every cue it played."""

    playing = False

    def __init__(self):
        self.cues = []

    def play(self, cue, now_ms):
        self.cues.append(cue)


def test_a_full_flash_is_said_once_an_action_and_the_game_goes_on_in_ram():
    fs = FakeFs(littlefs=True)
    lines = []
    heard = Heard()
    rack = Rack(store=Store("/game.txt", fs, journal=True, in_place=True), console=lines.append,
                sounds=heard)
    c = rack.c

    def signs():  # the trouble the board showed: its cue heard, its words said
        return [c.error] * heard.cues.count(CUE_ERROR)
    rack.put("a1")  # (its whole save: the first of the game)
    rack.run(CALM_MS)
    rack.put("b1")  # a journal line
    rack.run(CALM_MS)
    fs.room = 0  # the flash is full
    for n, square in enumerate(("c1", "d1")):
        del lines[:]
        rack.put(square)  # the journal line fails, then the whole save instead
        assert signs() == ["flash full: cannot save the game"] * (n + 1)
        rack.run(CALM_MS)  # settled: tried again, the same trouble, not count again
        assert signs() == ["flash full: cannot save the game"] * (n + 1)
        assert [line for line in lines if "flash full" in line] == [
            "%s: place a knight on a lit square (knight %d of 3) "
            "[flash full: cannot save the game]" % (("Romans", 3) if n else ("Huns", 2))]
    assert [c.game.describe(e) for e in c.game.history] == ["@a1", "@b1", "@c1", "@d1"]
    assert Store("/game.txt", fs.copy(), journal=True).load() == dump(c.game).replace(
        " @c1 @d1", "")  # the last save that fitted, whole
    fs.room = -1  # room again: the next action is kept, the words go
    rack.put("e1")
    rack.run(CALM_MS)
    assert c.status() == "Huns: place a knight on a lit square (knight 3 of 3)"
    assert Store("/game.txt", fs, journal=True).load() == dump(c.game)
    assert heard.cues.count(CUE_ERROR) == 2
