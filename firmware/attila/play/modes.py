"""The controller's modes and the cues it sounds: what the painter, the words and a port read.

attila.play.controller sets them (and only it); attila.sound plays a tune
for each cue.
"""

from attila.compat import const

PLAY = const(0)  # following the game: the pieces agree with it
CORRECT = const(1)  # the pieces disagree: the LEDs show what to fix
GAME_OVER = const(2)  # the winner's colour breathes over the board
CLEAR = const(3)  # new game: take every piece off the board
RESUME = const(4)  # a saved game was found at power-up: MENU resume, UNDO discard
SELFTEST = const(5)  # every LED, then every sensor (attila.play.selftest)
MODE_NAMES = ("play", "correct", "over", "clear", "resume", "selftest")

CUE_NONE = const(0)
CUE_PLACED = const(1)  # a legal action accepted
CUE_ILLEGAL = const(2)  # the pieces went from agreeing to a correction
CUE_TURN = const(3)  # the board's own action is ready and shown
CUE_OVER = const(4)  # game over
CUE_ERROR = const(5)  # trouble(): a save failed, a damaged save, saving off
