"""The coach: after each of the player's turns, was a won position kept or thrown away?

Why it is built this way: docs/pages/inside/design.md (attila/play/coach.py).
"""

from attila.compat import const
from attila.game.rules import SCORCHED
from attila.leds.palette import ERROR, GOOD, put
from attila.ticks import ticks_diff

QUIET = const(0)
KEPT = const(1)
THROWN = const(2)
SIGN_MS = const(1500)  # the sign on the turn's squares: 3 blinks of 250 ms
_PERIOD = const(500)
_ON = const(250)
WORDS = ("", "coach: that turn kept the win", "coach: that turn threw the win away")


class Coach:
    """Judges the player's turns against the card."""

    def __init__(self, card, on=True):
        self.card = card
        self.on = on  # judging the player's turns (MENU switches it between games)
        self.verdict = QUIET
        self.squares = (-1, -1, -1)  # the squares of the judged turn: from, to, the tile
        self._t0 = 0
        self._seen = 0  # history length at the last look

    def after(self, game, now_ms, computer=-1):
        """Look at the game after a change: a turn just ended by the player is judged."""
        h = game.history
        n = len(h)
        if n <= self._seen:  # an undo, a new game
            self.verdict = QUIET
            self._seen = n
            return
        grew = n - self._seen
        self._seen = n
        last = h[-1]
        if grew != 1 or n < 2 or last >> 16 != SCORCHED or self.card is None or not self.on:
            return  # not the end of a turn just played (a resumed game is not judged)
        side = game.side ^ 1  # the side that just played (the scorch passed the turn on)
        if side == computer:
            return
        c = last >> 8 & 0xFF
        a = h[-2] >> 8 & 0xFF
        b = h[-2] & 0xFF
        me = game.knights[side]
        opp = game.knights[side ^ 1]
        sc = game.scorched
        try:
            if not self.card.won(me ^ (1 << a | 1 << b), opp, sc & ~(1 << c)):
                verdict = QUIET  # lost before the turn: nothing to say
            else:
                verdict = THROWN if self.card.won(opp, me, sc) else KEPT
        except Exception:  # a failing lookup (a bad block): silent on this turn only
            verdict = QUIET
        self.verdict = verdict
        self.squares = (a, b, c)
        self._t0 = now_ms

    def switch(self):
        """Turn the coach on or off; the new state."""
        self.on = not self.on
        self.verdict = QUIET
        return self.on

    def words(self):
        """The verdict for the status line ("" when quiet)."""
        return WORDS[self.verdict]

    def paint(self, buf, now_ms):
        """Blink the turn's squares in the verdict's colour; True while the sign lasts."""
        if not self.verdict:
            return False
        t = ticks_diff(now_ms, self._t0)
        if t >= SIGN_MS or t < 0:
            return False
        if t % _PERIOD < _ON:
            colour = GOOD if self.verdict == KEPT else ERROR
            for sq in self.squares:
                put(buf, sq, colour)
        return True
