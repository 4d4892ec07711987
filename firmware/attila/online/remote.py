"""The other side's player as the controller's opponent: its action arrives
from the network.

To the controller (attila.play.plan) a Remote is one more Chooser: asked
for the remote side's action, it answers once the Party has taken that
action from the other board (a slice a loop step meanwhile, in which the
port's transport waits on the network), and the board shows it and checks
the hands as for the computer's. Hints (the local player's MENU) are the
local opponent's, `planner`: the other board's moves are never guessed,
and why the planner gave up its card (take_note()) is the planner's, said once.
"""

from attila.compat import const
from attila.game.notation import parse_placement, parse_turn
from attila.opponent.chooser import Chooser, turn

WAIT_MS = const(8)  # a slice's wait on the network, inside the 10 ms loop


class Remote(Chooser):
    """A Chooser whose decisions come from a Party."""

    who = "%s (their board)"  # how the status line names the side it plays

    def __init__(self, party, planner=None):
        self.party = party
        self.planner = planner
        self._hint = False
        self._game = None
        self._text = ""

    def start(self, game, now_ms, level=None):
        """The remote side's action for `game` (level None), or a hint for
        the local player (a level given): the planner's."""
        self._hint = level is not None or game.side != self.party.other
        if self._hint:
            if self.planner is None:
                self._text = ""
                return True
            return self.planner.start(game, now_ms, level)
        self._game = game
        self._text = ""
        return self._look()

    def step(self, now_ms):
        if self._hint:
            return self.planner.step(now_ms) if self.planner is not None else True
        pump = self.party.pump
        if pump is not None:
            pump(now_ms, WAIT_MS)
        return self._look()

    def _look(self):
        game = self._game
        if game is None:
            return False
        self._text = self.party.action_for(game)
        return self._text != ""

    def result(self):
        if self._hint:
            return self.planner.result() if self.planner is not None else -1
        text = self._text
        game = self._game
        if not text or game is None:
            return -1
        layout = game.layout
        if text[0] == "@":
            return parse_placement(layout, text)
        a, b, c = parse_turn(layout, text)
        return turn(a, b, c)

    def cancel(self):
        if self._hint and self.planner is not None:
            self.planner.cancel()
        self._game = None

    def take_note(self):
        """Why the planner's card was given up for a hint ('': nothing to say)."""
        return self.planner.take_note() if self.planner is not None else ""

    def words(self):
        """What the status line adds ('': nothing): attila.online.words,
        loaded on the first call."""
        from attila.online.words import words

        return words(self.party)

    def kept(self, game):
        return self.party.kept(game)

    def refused(self):
        self.party.refused()
