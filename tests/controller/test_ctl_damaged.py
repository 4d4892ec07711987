"""A damaged or refused save at power-up: the trouble sign, the words, a new game
(the controller's half: the store's is tests/portable/test_store.py).

The store puts a damaged save aside itself (store.aside); a save restore()
refuses the controller hands back through store.reject().
"""

from ctltable import RED, Table

from attila.play.controller import Controller
from attila.play.modes import CLEAR, CUE_ERROR, PLAY, RESUME
from attila.game.geometry import from_rows
from attila.game.notation import replay
from attila.game.rules import Game
from attila.saves.savetext import dump
from attila.saves.store import MemoryStore, Store
from fakefs import FakeFs

RECT = from_rows(["....."] * 4)
SMALLER = from_rows(["....", "....", "....", "...."])


class AsideStore(MemoryStore):
    """A store that found its file damaged: load() put it aside."""

    def load(self):
        self.aside = "/game.txt.bad"
        return None


class RejectingStore(MemoryStore):
    """A store with reject(), as the controller uses it."""

    def __init__(self, text):
        MemoryStore.__init__(self, text)
        self.aside = None
        self.rejected = []

    def reject(self):
        self.rejected.append(self.text)
        self.aside = "/game.txt.bad"
        self.text = None
        return self.aside


def boot(store, mask=0):
    t = Table(RECT, mask=mask, store=store)
    return t


def sign_shown(t):
    t.at(t.t + 10)
    return t.squares(RED) == list(RECT.names)


def test_a_save_the_store_put_aside_is_shown_and_a_new_game_starts():
    t = boot(AsideStore(), mask=t_bits("a1 b1"))
    c = t.c
    assert c.mode == CLEAR and c.cue == CUE_ERROR
    assert c.status().endswith("[damaged save kept aside as /game.txt.bad]")
    assert sign_shown(t)
    t.lift("a1")
    t.lift("b1")
    assert c.mode == PLAY and c.game.history == []


def test_a_save_restore_refuses_is_rejected_and_a_new_game_starts():
    other = dump(replay(Game(SMALLER), "@a1 @b1"))  # a whole save, for another layout
    store = RejectingStore(other)
    t = boot(store)
    c = t.c
    assert store.rejected == [other]
    assert c.cue == CUE_ERROR and c.mode == PLAY and c.game.history == []
    assert c.status().endswith(
        "[saved game refused (save: it is for the layout ..../..../..../...., "
        "the board is ...../...../...../.....): kept aside as /game.txt.bad]")
    assert sign_shown(t)
    t.act("@c3")
    assert "log @c3" in store.text  # the new game is saved; the old one lies aside


def test_a_save_that_is_not_text_is_put_aside_by_the_store_and_shown():
    fs = FakeFs()
    fs.files["/save"] = b"\xff\xfe attila-save 1\n"  # not UTF-8: the board crashed here once
    c = Controller(RECT, store=Store("/save", fs))
    assert c.mode == CLEAR and c.cue == CUE_ERROR
    assert c.status().startswith("New game: ")
    assert c.status().endswith("[damaged save kept aside as /save.bad]")
    assert fs.files["/save.bad"] == b"\xff\xfe attila-save 1\n" and "/save" not in fs.files


def test_a_good_save_resumes_with_no_trouble():
    good = dump(replay(Game(RECT), "@a1 @b1"))
    store = RejectingStore(good)
    c = Controller(RECT, store=store)
    assert c.mode == RESUME and store.rejected == [] and c.cue == 0 and c.error == ""


def t_bits(names):
    return sum(1 << RECT.index(n) for n in names.split())
