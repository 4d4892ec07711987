"""Two boards in one interpreter, playing through an in-memory broker.

Broker: retained messages, subscriptions by topic filters (a whole topic,
or one ending in '#'), each published message delivered in order to every connected subscriber,
a last will published when a party drops. Side: one board's Controller,
its Party and Remote, and hands that carry out actions on its squares.
The clock is the caller's: nothing here waits.
"""

from attila.game.geometry import from_rows
from attila.game.notation import parse_placement, parse_turn
from attila.online.party import Party
from attila.online.remote import Remote
from attila.play.controller import Controller
from attila.play.modes import PLAY
from attila.play.settling import CALM_MS
from attila.opponent.chooser import action_text
from attila.play.plan import first_action
from attila.saves.store import MemoryStore

RECT = from_rows(["....."] * 4)
CODE = "castle-7fk2m9xq"


class Broker:
    def __init__(self):
        self.retained = {}
        self.parties = []  # connected
        self.sent = []  # (topic, payload) of every publish
        self.up = True

    def connect(self, party, now):
        if not self.up or party in self.parties:
            return
        self.parties.append(party)
        party.connected(now)
        for topic in sorted(self.retained):
            if hears(party, topic):
                party.receive(topic, self.retained[topic], now)

    def drop(self, party, now, will=True):
        if party in self.parties:
            self.parties.remove(party)
            party.lost(now, "no broker at test:1883")
            if will:
                topic, payload = party.will()
                self.publish(topic, payload, True, now)

    def publish(self, topic, payload, retain, now):
        self.sent.append((topic, payload))
        if retain:
            self.retained[topic] = payload
        for p in list(self.parties):
            if hears(p, topic):
                p.receive(topic, payload, now)

    def pump(self, now):
        """Every party's outbox published, until none has more."""
        busy = True
        while busy:
            busy = False
            for p in list(self.parties):
                while p.outbox:
                    topic, payload, retain = p.outbox.pop(0)
                    self.publish(topic, payload, retain, now)
                    busy = True


def hears(party, topic):
    """True when one of the party's topic filters matches `topic`."""
    for f in party.subscriptions():
        if topic == f or (f[-1] == "#" and topic.startswith(f[:-1])):
            return True
    return False


class Side:
    """One board: a controller whose opponent is the other board."""

    def __init__(self, side, broker, store=None, party_store=None, code=CODE, planner=None):
        self.broker = broker
        self.store = store if store is not None else MemoryStore()
        self.party_store = party_store if party_store is not None else MemoryStore()
        self.party = Party(code, side, self.party_store)
        self.c = Controller(RECT, self.store, computer=side ^ 1,
                            opponent=Remote(self.party, planner))
        self.party.attach(self.c)
        self.mask = 0
        self.c.sense(0, 0)

    def step(self, now):
        self.party.poll(now)
        self.c.tick(now)

    def sense(self, mask, now):
        self.mask = mask
        self.c.sense(mask, now)

    def carry_out(self, text, now):
        """The hands do the action `text`; returns the clock after it."""
        layout = self.c.layout
        if text[0] == "@":
            self.sense(self.mask | 1 << parse_placement(layout, text), now)
            return now + 100
        a, b, c = parse_turn(layout, text)
        self.sense(self.mask & ~(1 << a), now)
        self.sense(self.mask | 1 << b, now + 100)
        self.sense(self.mask | 1 << c, now + 200)
        return now + 300

    def shown(self):
        """The remote's action the board shows, as text, or ''."""
        plan = self.c.plan
        if not self.c.own() or not plan.ready():
            return ""
        names = self.c.layout.names
        if plan.dst < 0:
            return "@" + names[plan.src]
        return "%s-%s,%s" % (names[plan.src], names[plan.dst], names[plan.tile])

    def press(self, button, now):
        self.c.press(button, now)
        self.c.release(button, now + 50)


def first_text(game):
    """The first legal action, as the hands read it: its text."""
    return action_text(game.layout, first_action(game))


def run(sides, broker, now, ms):
    """Both boards' loops and the broker for `ms` of the clock; the clock after."""
    end = now + ms
    while now < end:
        now += 10
        for s in sides:
            s.step(now)
        broker.pump(now)
    return now


def play(sides, broker, now, moves=None, rounds=0):
    """Play on until the game ends on both boards (or for `rounds` rounds):
    each side's own turn is `moves` (a list of action texts, taken in order)
    or else the first legal action; the other board's action is carried out
    as the LEDs show it. Returns the clock at the end."""
    for _ in range(rounds or 60):
        now = run(sides, broker, now, CALM_MS + 100)
        if all(s.c.game.phase == 3 for s in sides):
            return now
        for s in sides:
            game = s.c.game
            if s.c.mode != PLAY or game.phase == 3:
                continue
            if game.side == s.party.side:
                text = moves.pop(0) if moves else first_text(game)
                now = s.carry_out(text, now)
            else:
                text = s.shown()
                if text:
                    now = s.carry_out(text, now)
    if rounds:
        return now
    raise AssertionError("no end of the game: %s" % [s.c.status() for s in sides])
