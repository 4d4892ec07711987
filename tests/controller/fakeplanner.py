"""A Planner (attila.opponent.chooser.Chooser) for the controller tests.

It answers after a fixed number of slices (steps), whatever the clock says:
a long search made to order. The answer is decided at start() from the
position handed in (a snapshot: the game may change afterwards), by `choose`
(default: the first legal action).
"""

from attila.game.notation import log
from attila.opponent.answer import parse_action
from attila.opponent.chooser import Chooser
from attila.play.plan import first_action


class FakePlanner(Chooser):
    def __init__(self, slices=50, choose=first_action):
        self.slices = slices
        self.choose = choose
        self.busy = False
        self.started = []  # (log of the game, now_ms) of every start()
        self.steps = []  # now_ms of every step()
        self.cancelled = 0
        self._left = 0
        self._action = -1

    def start(self, game, now_ms, level=None):
        self.started.append((log(game), now_ms))
        choice = self.choose(game)  # an action, or its text
        self._action = parse_action(game.layout, choice) if isinstance(choice, str) else choice
        self._left = self.slices
        self.busy = True
        return False

    def step(self, now_ms):
        assert self.busy, "step() with no search under way"
        self.steps.append(now_ms)
        self._left -= 1
        if self._left > 0:
            return False
        self.busy = False
        return True

    def result(self):
        return self._action

    def cancel(self):
        if self.busy:
            self.cancelled += 1
        self.busy = False
