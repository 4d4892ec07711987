"""What the LEDs show: the controller's frame, painted for its mode and the time.

The controller decides (attila.play.controller); the Painter looks at it and
paints with attila.leds.frames into a back buffer, copied to `frame` where a
byte changed: the change is found here, once. A frame that moves (blinking,
breathing) is painted again once per time slot (QUANTUM). The signs that
last a while (the trouble sign, the coach switched) are timed here too.
"""

from attila.leds import frames
from attila.compat import const
from attila.leds.palette import QUANTUM, SIDE, TROUBLE_MS
from attila.play.modes import CLEAR, CORRECT, GAME_OVER, PLAY, RESUME, SELFTEST
from attila.ticks import ticks_diff

COACH_MS = const(600)  # the coach switched: the whole board green (on) or dim white (off)


class Painter:
    """The LED frame of one controller (RGB per square, full scale)."""

    def __init__(self, size):
        self.frame = bytearray(3 * size)
        self._back = bytearray(3 * size)
        self.anim = False  # the last frame moves: paint again in the next time slot
        self.slot = -1  # the time slot (now // QUANTUM) of the last paint
        self._switched = 0  # the coach just switched: 1 on, 2 off (shown COACH_MS from _switched_t)
        self._switched_t = 0
        self.sign = 0  # the trouble sign: 1 from the next tick, 2 shown since sign_t
        self.sign_t = 0
        self._sign_ms = TROUBLE_MS  # ... for this long

    def warn(self, ms=TROUBLE_MS):
        """The trouble sign from the next tick on, for `ms`."""
        self.sign = 1
        self._sign_ms = ms

    def unwarn(self):
        """The trouble sign off now."""
        self.sign = 0

    def signed(self, now, held):
        """The trouble sign on from this tick, off once its time is over (not
        while `held`); True when it came or went."""
        if self.sign == 1:
            self.sign = 2
            self.sign_t = now
            return True
        if self.sign and not held and ticks_diff(now, self.sign_t) >= self._sign_ms:
            self.sign = 0
            return True
        return False

    def switched(self, on, now):
        """The coach was switched on (True) or off: the board says so for COACH_MS."""
        self._switched = 1 if on else 2
        self._switched_t = now

    def paint(self, c, now, own, thinking):
        """Paint the frame for controller c's mode and the time (`own`: the
        board plays the side to act; `thinking`: it works out an action);
        True when a byte changed."""
        self.slot = now // QUANTUM
        back = self._back
        frames.blank(back)
        mode = c.mode
        game = c.game
        if mode == PLAY:
            plan = c.plan
            anim = frames.play(back, game, c.lifted, own, plan.ready() and (own or plan.hinting),
                               plan.src, plan.dst, plan.tile, now)
            if thinking:
                anim = frames.thinking(back, SIDE[game.side], now)
            if c.coach is not None and c.coach.paint(back, now):
                anim = True
        elif mode == CORRECT or mode == RESUME:
            if c.steps:
                step = c.steps[0]
                want = step[0]
                romans = step[1]
                huns = step[2]
            else:
                want = game.occupied()
                romans = game.knights[0]
                huns = game.knights[1]
            m = c.mask if c.mask >= 0 else want
            anim = frames.fix(back, m & ~want | c.stray, want & ~m,
                              want if mode == RESUME else 0, romans, huns, now)
        elif mode == GAME_OVER:
            anim = frames.over(back, game.winner, now)
        elif mode == CLEAR:
            anim = frames.clearing(back, c.mask, now)
            if self._switched:
                if ticks_diff(now, self._switched_t) < COACH_MS:
                    frames.switched(back, self._switched == 1)
                    anim = True
                else:
                    self._switched = 0
        else:
            anim = c.test.draw(back, now)
        if self.sign == 2 and mode != SELFTEST:
            anim = frames.trouble(back, ticks_diff(now, self.sign_t))
        self.anim = anim
        frame = self.frame
        changed = False
        for k in range(len(back)):
            if frame[k] != back[k]:
                frame[k] = back[k]
                changed = True
        return changed
