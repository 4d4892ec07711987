"""Simulated boards playing each other through a real broker, and the hands that move their pieces.

A SimBoard is the simulator's Rig with online play (attila_sim.online's
Link to the broker): its clock is the rig's, advanced by the test in
10 ms loop steps while the network runs in real time. Tests wait on what
the boards show, with a deadline in real time: never a sleep as a judge.
"""

import time

from attila.game.rules import OVER
from attila.play.modes import PLAY
from attila.online.log import done
from attila.opponent.chooser import action_text
from attila.play.plan import first_action
from attila_sim import actions
from attila_sim.online import Link, party_for
from attila_sim.rig import Rig

CODE = "castle-7fk2m9xq"
DEADLINE_S = 30  # the longest a test waits for one thing to happen


class SimBoard:
    """One simulated board in the room, linked to the broker."""

    def __init__(self, broker, side, save=None, code=CODE, layout="boards/4x5.json",
                 tls=None, user=None, password=None, port=None):
        self.party = party_for(code, "RH"[side], save)
        self.rig = Rig.from_file(layout, save=save, online=self.party)
        self.link = Link(self.party, "127.0.0.1:%d" % (port or broker.port), tls, user, password)

    def close(self):
        self.link.close()

    def step(self):
        self.rig.advance(10)

    @property
    def c(self):
        return self.rig.controller

    def shown(self):
        """The other board's action the LEDs show, as text ('' when none)."""
        c = self.c
        plan = c.plan
        if not c.own() or not plan.ready():
            return ""
        names = c.layout.names
        if plan.dst < 0:
            return "@" + names[plan.src]
        return "%s-%s,%s" % (names[plan.src], names[plan.dst], names[plan.tile])

    def carry_out(self, text):
        self.rig.do(actions.parse(self.rig.layout, text, script=False))


def wait(boards, ready, what, deadline_s=DEADLINE_S):
    """Run every board's loop until ready() is true; fail naming `what` at the deadline."""
    end = time.monotonic() + deadline_s
    while not ready():
        for b in boards:
            b.step()
        if time.monotonic() > end:
            raise AssertionError("%s: not within %d s; the boards say %s" % (
                what, deadline_s, [b.rig.status() for b in boards]))
        time.sleep(0.001)  # (let paho's thread run: the deadline is the judge)


def first_text(game):
    """The first legal action, as the hands read it: its text."""
    return action_text(game.layout, first_action(game))


def play(boards, choose=first_text, stop=None):
    """Play until the game is over on every board (or stop() says so): each
    board's player makes its own actions (choose(game)) and carries out the
    other board's as its LEDs show them. Returns the actions made."""
    made = []
    over = lambda: all(b.c.game.phase == OVER for b in boards)
    while not over():
        if stop is not None and stop():
            return made
        wait(boards, lambda: over() or any(_turn(b) for b in boards), "a board to act")
        for b in boards:
            turn = _turn(b)
            if turn == "own":
                text = choose(b.c.game)
                b.carry_out(text)
                made.append(text)
            elif turn == "theirs":
                b.carry_out(b.shown())
    return made


def _turn(b):
    """'own' when the board's player is to act, 'theirs' when it shows the
    other board's action to carry out, '' when it waits."""
    c = b.c
    if c.game.phase == OVER or c.busy() or c.mode != PLAY:
        return ""
    if c.game.side == b.party.side:
        return "own"
    return "theirs" if b.shown() else ""


def same_game(boards):
    logs = {b.rig.position() for b in boards}
    return len(logs) == 1 and len({done(b.c.game) for b in boards}) == 1
