"""A controller as a Board drives it (attila.controls.Controls) that lights the occupied squares.

The port scripts (mpy_*.py under MicroPython, cp_*.py under CPython) build
the board with it instead of attila.play.controller's, so what reaches the LEDs
is what the sensors read, and every call the port makes is recorded.
"""

from attila.controls import Controls


class Stub(Controls):
    """Records what the Board hands it; `cue` and `words` are set by the scenario."""

    def __init__(self, layout, store=None):
        self.layout = layout
        self.store = store
        self.frame = bytearray(3 * layout.size)
        self.colour = (200, 100, 50)
        self.sensed = []
        self.lit = 0  # the squares it lights: the last reading
        self.chained = []  # chain(): the modules named as not answering
        self.presses = []
        self.tests = []  # self_test(): when it was started
        self.troubles = []
        self.cue = 0
        self.status_count = 0
        self.words = "Romans: place a knight"
        self.book = None  # what the port opened for the controller
        self.card = None

    def status(self):
        return self.words

    def self_test(self, now_ms):
        self.tests.append(now_ms)

    def sense(self, mask, now_ms):
        self.sensed.append(mask)
        self.lit = mask

    def tick(self, now_ms):
        """The frame painted for the last reading: True when it changed."""
        before = bytes(self.frame)
        for i in range(self.layout.size):
            self.frame[3 * i: 3 * i + 3] = bytes(self.colour if self.lit >> i & 1 else (0, 0, 0))
        return self.frame != before

    def chain(self, module, now_ms):
        self.chained.append(module)

    def press(self, button, now_ms):
        self.presses.append(button)

    def trouble(self, text):
        self.troubles.append(text)
        self.status_count += 1


def stub_factory(prof, layout, tiles, store, book=None, card=None):
    """What the ports call to make their controller (main._controller, code._controller)."""
    stub = Stub(layout, store)
    stub.book = book
    stub.card = card
    return stub
