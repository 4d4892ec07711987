"""Helpers of the simulator tests: layouts, legal games, mouse gestures."""

import glob
import os

from attila.game import layoutfile, notation
from attila.opponent.chooser import action_text
from attila.play.plan import first_action
from attila.game.rules import OVER, Game

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAYOUTS = sorted(glob.glob(os.path.join(ROOT, "boards", "*.json")))
LAYOUT_4X5 = os.path.join(ROOT, "boards", "4x5.json")
BOOK_4X5 = os.path.join(ROOT, "boards", "solved", "4x5.book")


def load(path=LAYOUT_4X5):
    return layoutfile.load(path)


def legal_game(layout, first=0, tiles=None, limit=None):
    """The actions of a whole legal game (the controller's trivial chooser)."""
    game = Game(layout, first, tiles)
    items = []
    while game.phase != OVER and (limit is None or len(items) < limit):
        text = action_text(game.layout, first_action(game))
        notation.play(game, text)
        items.append(text)
    return items, game


class Mouse:
    """Real pygame mouse events posted to a Window, with a test clock."""

    def __init__(self, window, now=None):
        import pygame

        self.pygame = pygame
        self.window = window
        self.now = window.rig.now if now is None else now

    def pump(self, ms=0):
        self.now += ms
        self.window.pump(self.now)

    def post(self, kind, pos, **kw):
        pg = self.pygame
        if kind == "down":
            pg.event.post(pg.event.Event(pg.MOUSEBUTTONDOWN, pos=pos, button=kw.get("button", 1)))
        elif kind == "up":
            pg.event.post(pg.event.Event(pg.MOUSEBUTTONUP, pos=pos, button=kw.get("button", 1)))
        else:
            pg.event.post(pg.event.Event(pg.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0)))

    def drag(self, start, end, hold_ms=60):
        """Press at start, move to end (hand in the air for hold_ms), release."""
        self.post("down", start)
        self.pump(hold_ms)
        mid = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
        self.post("motion", mid)
        self.post("motion", end)
        self.pump(10)
        self.post("up", end)
        self.pump(hold_ms)

    def click(self, pos, hold_ms=100):
        self.post("down", pos)
        self.pump(hold_ms)
        self.post("up", pos)
        self.pump(60)

    def key(self, key, hold_ms=100):
        pg = self.pygame
        pg.event.post(pg.event.Event(pg.KEYDOWN, key=key, mod=0, unicode=""))
        self.pump(hold_ms)
        pg.event.post(pg.event.Event(pg.KEYUP, key=key, mod=0, unicode=""))
        self.pump(60)

    # -- where things are --------------------------------------------------------

    def square(self, name):
        w = self.window
        return w.square_center(w.rig.layout.index(name))

    def reserve(self, kind):
        return self.window.slots[kind][0].center

    def play(self, item, side):
        """One action of a game log done with the mouse: '@b1' or 'b1-c3,d4'."""
        if item.startswith("@"):
            self.drag(self.reserve("RH"[side]), self.square(item[1:]))
            return
        step, _, burn = item.partition(",")
        a, _, b = step.partition("-")
        self.drag(self.square(a), self.square(b))
        if burn:
            self.drag(self.reserve("x"), self.square(burn))


class Firmware:
    """The firmware's own stack, built here without the simulator: the same
    Board, Controller, Wiring, Leds and Debouncer a port builds, a plain
    scanner that returns chain-order bits and a plain strip buffer. Its clock
    runs like the rig's: one step every 10 ms, 60 ms after each change and
    on until the board is done (saved, planned)."""

    def __init__(self, layout, modules, tiles=None, profile=None, first=0):
        from attila.board import Board
        from attila.play.controller import Controller
        from attila.leds.strip import Leds
        from attila.sensing.debounce import Debouncer
        from attila.saves.store import MemoryStore
        from attila.sensing.wiring import Wiring

        self.layout = layout
        self.controller = Controller(layout, MemoryStore(), first, tiles)
        if profile is not None:
            self.wiring = profile.wiring(layout, modules)
            self.leds = profile.leds(self.wiring)
            deb = profile.debouncer(layout.size)
        else:
            self.wiring = Wiring(layout, modules)
            self.leds = Leds(self.wiring)
            deb = Debouncer(layout.size)
        fw = self

        class Scanner:
            def scan(self):
                raw = 0
                for bit, sq in enumerate(fw.wiring.sensor_square):
                    if fw.mask >> sq & 1:
                        raw |= 1 << bit
                return raw

        class Strip:
            def __init__(self, n):
                self.buf = bytearray(n)
                self.sent = bytes(n)
                self.writes = []

            def write(self):
                self.sent = bytes(self.buf)
                self.writes.append(self.sent)

        class Buttons:
            def read(self):
                return fw.held

        self.mask = 0
        self.held = 0
        self.strip = Strip(self.leds.bytes_needed())
        self.board = Board(self.controller, Scanner(), self.strip, self.wiring, deb,
                           Buttons(), self.leds)
        self.now = 0
        self.board.step(0)
        self.settle()

    def advance(self, ms):
        end = self.now + ms
        while self.now + 10 <= end:
            self.now += 10
            self.board.step(self.now)

    def settle(self):
        """60 ms for the debounce, then until the board is done (as the rig)."""
        self.advance(60)
        while self.controller.busy():
            self.advance(10)

    def set(self, mask):
        self.mask = mask
        self.settle()

    def press(self, button, ms=80):
        self.held |= 1 << button
        self.advance(ms)
        self.held &= ~(1 << button)
        self.settle()

    def colours(self):
        """RGB per square decoded from the strip bytes, independently of the sim."""
        order = self.leds.order
        bpp = self.leds.bpp
        out = []
        for sq in range(self.layout.size):
            led = self.wiring.square_led[sq]
            out.append(tuple(self.strip.sent[led * bpp + order.index(c)] for c in "RGB"))
        return out
