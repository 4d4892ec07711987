"""Random hands, bounces, buttons and power cuts against the controller.

Whatever happens, the controller never crashes, the game it follows is
always a legal game (its log replays to the same position), PLAY means the
board agrees with the game, the LEDs show exactly the differences from
expected(), and a robot that puts the pieces where the board asks always
brings it back into agreement.
"""

from ctltable import RED, Table
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from attila.controller import (
    BUTTON_MENU,
    BUTTON_UNDO,
    CLEAR,
    CORRECT,
    OVER,
    PLAY,
    RESUME,
    SELFTEST,
    Controller,
)
from attila.geometry import from_rows, lowest
from attila.modules import compose, place_module
from attila.notation import format_position, log, replay
from attila.rules import MOVE, SCORCH, SETUP, Game
from attila.store import MemoryStore

RECT = from_rows(["....."] * 4)
L = compose(
    [
        place_module(1, "2x3", 0, 0, 0),
        place_module(2, "2x3", 0, 3, 0),
        place_module(3, "2x2", 2, 0, 0),
        place_module(4, "2x2", 4, 0, 0),
    ],
    "L",
)[0]
SMALL = from_rows(["...", "...", "..."])  # the centre has no jump: setup is cramped


def bits(mask):
    return [i for i in range(64) if mask >> i & 1]


def robot(t, limit=12):
    """Put the pieces where the controller expects them, press what it asks."""
    c = t.c
    for _ in range(limit):
        if c.mode == SELFTEST:
            t.menu()
            continue
        if c.mode == RESUME:
            t.menu()
            continue
        want = c.expected()
        if t.mask != want:
            t.mask = want
            t.sense()
            continue
        if c.mode in (PLAY, OVER):
            return
    raise AssertionError("no agreement: %s" % c.status())


class Hands(RuleBasedStateMachine):
    @initialize(
        layout=st.sampled_from([RECT, L, SMALL]),
        first=st.integers(0, 1),
        computer=st.integers(-1, 1),
    )
    def start(self, layout, first, computer):
        self.store = MemoryStore()
        self.kw = dict(store=self.store, first=first, computer=computer)
        self.t = Table(layout, **self.kw)
        self.layout = layout

    # -- hands --------------------------------------------------------------
    @rule(data=st.data())
    def toggle(self, data):
        i = data.draw(st.integers(0, self.layout.size - 1))
        self.t.mask ^= 1 << i
        self.t.sense()

    @rule(data=st.data())
    def bounce(self, data):
        i = data.draw(st.integers(0, self.layout.size - 1))
        self.t.mask ^= 1 << i
        self.t.sense()
        self.t.mask ^= 1 << i
        self.t.sense()

    @rule(data=st.data())
    def slide(self, data):
        """A piece lifted and put down elsewhere in one reading."""
        t = self.t
        if t.mask and t.mask != self.layout.all:
            a = data.draw(st.sampled_from(bits(t.mask)))
            b = data.draw(st.sampled_from(bits(self.layout.all & ~t.mask)))
            t.mask ^= 1 << a | 1 << b
            t.sense()

    @rule(data=st.data())
    def legal(self, data):
        """A player (or the board's helper) carries out a legal action."""
        t = self.t
        c = t.c
        if c.mode != PLAY:
            return
        g = c.game
        own = g.side == c.computer
        if g.phase == SETUP:
            legal = 1 << c._pa if own else g.placements()
            if legal:
                t.mask |= 1 << data.draw(st.sampled_from(bits(legal)))
                t.sense()
        elif g.phase == MOVE:
            a = c.lifted
            if a < 0:
                movable = 1 << c._pa if own else g.movable()
                a = data.draw(st.sampled_from(bits(movable)))
                t.mask &= ~(1 << a)
                t.sense()
            dests = 1 << c._pb if own else g.destinations(a)
            t.mask |= 1 << data.draw(st.sampled_from(bits(dests)))
            t.sense()
        elif g.phase == SCORCH:
            legal = 1 << c._pc if own else g.scorchable()
            t.mask |= 1 << data.draw(st.sampled_from(bits(legal)))
            t.sense()

    @rule(data=st.data(), n=st.integers(1, 30))
    def advance(self, data, n):
        """The pieces put right, then a stretch of legal play."""
        robot(self.t)
        for _ in range(n):
            if self.t.c.mode != PLAY:
                break
            self.legal(data)

    @rule(button=st.sampled_from([BUTTON_UNDO, BUTTON_MENU]))
    def press(self, button):
        self.t.press(button)

    @rule(button=st.sampled_from([BUTTON_UNDO, BUTTON_MENU]), ms=st.integers(0, 6000))
    def hold(self, button, ms):
        """A press held for ms, with its release (holds count once releases come)."""
        self.t.hold(button, ms)

    @rule(dt=st.integers(0, 3000))
    def wait(self, dt):
        self.t.at(self.t.t + dt)

    @rule()
    def fix(self):
        robot(self.t)
        c = self.t.c
        assert self.t.mask == c.expected()

    @rule()
    def power_cut(self):
        old = self.t
        self.t = Table(self.layout, mask=old.mask, t=old.t + 100, **self.kw)
        if self.store.text:
            assert self.t.c.mode == RESUME
            assert log(self.t.c.game) == log(old.c.game)

    @rule()
    def self_test(self):
        self.t.c.self_test(self.t.t)

    # -- what must always hold ------------------------------------------------
    @invariant()
    def game_is_legal(self):
        if not hasattr(self, "t"):
            return
        g = self.t.c.game
        again = replay(Game(g.layout, g.first, g.supply), log(g))
        assert format_position(again) == format_position(g)
        assert again.phase == g.phase and again.knights == g.knights
        assert again.scorched == g.scorched and again.winner == g.winner

    @invariant()
    def play_means_agreement(self):
        if not hasattr(self, "t"):
            return
        c = self.t.c
        if c.mode == PLAY:
            assert self.t.mask == c.expected()
        assert isinstance(c.status(), str)
        if self.store.text:
            assert log(c.game) in self.store.text or c.mode in (RESUME, SELFTEST)

    @invariant()
    def leds_show_the_differences(self):
        if not hasattr(self, "t"):
            return
        t = self.t
        c = t.c
        if c.mode != CORRECT:
            return
        want = c.expected()
        now = t.t
        t.at(now // 400 * 400 + 400)  # fast blink, lit half: extra pieces red
        red = sum(1 << t.layout.index(n) for n in t.squares(RED))
        assert red == t.mask & ~want, c.status()
        t.at(t.t + 200)  # dark half: where pieces are missing
        lit = sum(1 << t.layout.index(n) for n in t.lit())
        assert lit == want & ~t.mask, c.status()

    def teardown(self):
        if hasattr(self, "t"):
            robot(self.t)
            g = self.t.c.game
            event("history %d+" % (len(g.history) // 10 * 10))
            event("phase %d" % g.phase)


Hands.TestCase.settings = settings(
    max_examples=300,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestHands = Hands.TestCase
