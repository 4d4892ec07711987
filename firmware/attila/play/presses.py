"""What the buttons ask for by their timing alone: MENU pressed three times, or held.

MENU pressed 3 times within NEW_GAME_MS, or held HOLD_NEW_MS, asks for a
new game; held HOLD_TEST_MS, for the self-test. A hold lasts from down()
until up(): every caller reports both. The controller decides what the
request means in its mode (attila.play.controller).
"""

from attila.compat import const
from attila.ticks import ticks_diff

BUTTON_UNDO = const(0)
BUTTON_MENU = const(1)

NEW_GAME = const(1)  # what a press or a hold asks for: a new game ...
SELF_TEST = const(2)  # ... or the self-test

NEW_GAME_MS = const(2000)  # MENU pressed 3 times within this time: new game
HOLD_NEW_MS = const(1500)  # MENU held this long: new game
HOLD_TEST_MS = const(5000)  # MENU held this long: self-test


class Presses:
    """The times of the last MENU presses and of the button held down."""

    def __init__(self):
        self._menu1 = self._menu2 = 0  # times of the last two MENU presses counted ...
        self._menus = 0  # ... of which this many are recent (within NEW_GAME_MS)
        self._down = -1  # button held down since _down_t, until up()
        self._down_t = 0
        self._held = 0  # 1: the hold asked for a new game, 2: also the self-test
        self.timing = False  # presses are counted or MENU is held: tick() has work

    def down(self, button, now_ms):
        """A button went down: its hold starts."""
        self._down = button
        self._down_t = now_ms
        self._held = 0
        self._timed()

    def menu(self, now_ms):
        """A MENU press in play, counted: NEW_GAME when it is the third within NEW_GAME_MS."""
        if self._menus == 2 and ticks_diff(now_ms, self._menu2) <= NEW_GAME_MS:
            return NEW_GAME
        self._menu2 = self._menu1
        self._menu1 = now_ms
        self._menus = 2 if self._menus else 1
        self.timing = True
        return 0

    def forget(self):
        """A new game was asked for: the presses counted so far no longer count."""
        self._menus = 0
        self._timed()

    def up(self, button, now_ms):
        """A button came up: what its hold asked for (a hold that reached its
        time just now counts, whether or not a tick came between)."""
        asked = 0
        if button == self._down:
            if button == BUTTON_MENU:
                asked = self._hold(now_ms)
            self._down = -1
            self._timed()
        return asked

    def tick(self, now_ms):
        """What a hold under way asks for now. Presses older than NEW_GAME_MS
        no longer count (checked on every tick while `timing`, so an old
        time never aliases a new one after the clock wraps)."""
        if self._menus:
            if ticks_diff(now_ms, self._menu1) > NEW_GAME_MS:
                self._menus = 0
                self._timed()
            elif ticks_diff(now_ms, self._menu2) > NEW_GAME_MS:
                self._menus = 1
        if self._down == BUTTON_MENU:
            return self._hold(now_ms)
        return 0

    def _timed(self):
        self.timing = self._menus > 0 or self._down == BUTTON_MENU

    def _hold(self, now_ms):
        held = ticks_diff(now_ms, self._down_t)
        if self._held == 0 and held >= HOLD_NEW_MS:
            self._held = 1
            return NEW_GAME
        if self._held == 1 and held >= HOLD_TEST_MS:
            self._held = 2
            return SELF_TEST
        return 0
