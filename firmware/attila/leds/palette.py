"""Colours and blink patterns of the LED language, full scale (0..255).

Romans are blue and Huns are amber: the pair stays apart for every common
kind of colour blindness (red/green confusions leave blue against yellow
intact). Nothing in the language depends on telling red from green: errors
are the only squares that blink fast, so the pattern carries the meaning
even where the hue does not. Brightness and the power cap are applied later
by the renderer (attila.leds.strip), never here.
"""

from attila.compat import const

OFF = (0, 0, 0)
ROMAN = (0, 96, 255)  # blue
HUN = (255, 112, 0)  # amber
SIDE = (ROMAN, HUN)
# The same colours at a quarter: a knight's own square while it is lifted.
ROMAN_DIM = (0, 24, 64)
HUN_DIM = (64, 28, 0)
SIDE_DIM = (ROMAN_DIM, HUN_DIM)
TILE = (255, 255, 255)  # scorched earth: squares a tile may go on, a tile missing
ERROR = (255, 0, 0)  # take the piece off this square (always blinking fast)
GOOD = (0, 255, 0)  # self-test passed (steady; failures blink); the coach turned on
TILE_DIM = (64, 64, 64)  # the coach turned off

# Blink patterns, in milliseconds: (period, time lit at the start of it).
FAST_PERIOD = const(400)  # corrections: 200 ms on, 200 ms off
FAST_ON = const(200)
SLOW_PERIOD = const(1000)  # "do this": the board's own move, a hint
SLOW_ON = const(500)
FLASH_PERIOD = const(1600)  # a trapped knight: a short flash now and then
FLASH_ON = const(200)
PULSE_PERIOD = const(1600)  # game over: the winner's colour breathes
PULSE_STEPS = const(16)  # levels per half period
PULSE_MIN = const(3)  # lowest level of 16 (never fully dark)
CHASE_MS = const(100)  # thinking: a light runs over the squares, this long on each
TROUBLE_PERIOD = const(1000)  # trouble: the whole board flashes red twice a second,
TROUBLE_ON = const(100)  # each flash this long, a flash's length apart,
TROUBLE_MS = const(3000)  # three times over
QUANTUM = const(50)  # the frame is re-rendered at most every 50 ms


def lit(now, period, on):
    """True while a blink with that pattern is in its lit part."""
    return now % period < on


def pulse(now):
    """Level 0..PULSE_STEPS of the game-over breathing at time `now`."""
    t = now % PULSE_PERIOD
    half = PULSE_PERIOD // 2
    if t >= half:
        t = PULSE_PERIOD - t
    level = t * PULSE_STEPS // half
    return level if level > PULSE_MIN else PULSE_MIN


def put(buf, square, colour):
    """Write one square's colour into an RGB frame buffer (no allocation)."""
    k = 3 * square
    buf[k] = colour[0]
    buf[k + 1] = colour[1]
    buf[k + 2] = colour[2]


def put_mask(buf, mask, colour):
    """Write one colour on every square of a bitmask that the frame holds (no allocation)."""
    for i in range(len(buf) // 3):
        if mask >> i & 1:
            put(buf, i, colour)


def put_level(buf, square, colour, level, steps):
    """Write a colour scaled by level/steps (0..1) into an RGB frame buffer."""
    k = 3 * square
    buf[k] = colour[0] * level // steps
    buf[k + 1] = colour[1] * level // steps
    buf[k + 2] = colour[2] * level // steps
