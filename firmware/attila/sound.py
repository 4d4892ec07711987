"""The board's sounds: a short tune for each cue, played note by note on the loop's clock.

The controller sets its cue when something worth a sound happens
(attila.play.modes CUE_*); Board.step hands each new cue to play() and
calls step() every loop. A note starts and stops on the loop's clock, never
in a sleep, so the LEDs and the sensors keep their pace while a tune plays.
A new cue cuts the tune playing short.

The tone output is the port's: tone(hz, duty_u16), hz 0 for silence
(MicroPython machine.PWM, CircuitPython pwmio.PWMOut on a passive piezo).
"""

from attila.compat import const
from attila.ticks import ticks_diff

LOUDEST = const(32768)  # 50 % duty: a piezo's loudest square wave

# Per cue, in the order of attila.play.modes CUE_*: (Hz, ms) pairs, Hz 0 a
# rest. A piezo disc sings loudest at 2-4 kHz.
TUNES = (  # type: tuple
    (),
    (2093, 40),  # CUE_PLACED: one short high tick (C7)
    (1319, 90, 0, 30, 880, 180),  # CUE_ILLEGAL: a falling "uh-oh" (E6, A5)
    (1568, 80, 0, 30, 2093, 140),  # CUE_TURN, the board's turn: a rising call (G6, C7)
    (1047, 110, 1319, 110, 1568, 110, 2093, 330),  # CUE_OVER, game over: C E G C
    (880, 160, 0, 90, 880, 160, 0, 90, 880, 160),  # CUE_ERROR, trouble: three low beeps
)


class Sounds:
    """Plays the cues' tunes on `tone`; allocation-free, silent when idle."""

    def __init__(self, tone, volume=100):
        self._tone = tone
        self._duty = LOUDEST * volume // 100
        self._tune = TUNES[0]  # type: tuple
        self._next = 0  # index of the next (Hz, ms) pair
        self._start = 0  # when the note playing started
        self._ms = 0  # its length
        self.playing = False
        tone(0, 0)

    def play(self, cue, now_ms):
        """Start the tune of `cue` (unknown cues are ignored)."""
        if 0 < cue < len(TUNES):
            self._tune = TUNES[cue]
            self._next = 0
            self._note(now_ms)

    def step(self, now_ms):
        """Move on to the next note once the one playing has lasted its time."""
        if self.playing and ticks_diff(now_ms, self._start) >= self._ms:
            self._note(now_ms)

    def _note(self, now_ms):
        tune = self._tune
        i = self._next
        if i >= len(tune):
            self._tone(0, 0)
            self.playing = False
            return
        hz = tune[i]
        self._ms = tune[i + 1]
        self._next = i + 2
        self._start = now_ms
        self._tone(hz, self._duty if hz else 0)
        self.playing = True
