"""What every LED shows: the controller's frames, painted from plain facts.

The controller decides what the board must say (attila.play.controller) and
attila.play.painter picks the pictures for its mode; these functions only write
colours into an RGB frame buffer (3 bytes a square, full scale, all dark to
begin with) and return True while the picture animates, so the painter
knows to paint it again as time passes. They
keep no state and allocate nothing. The colours and blink patterns are
attila.leds.palette's; the docs' LED language (docs/pages/play/leds.md) says what each one means.
"""

from attila.leds.palette import (
    CHASE_MS,
    ERROR,
    FAST_ON,
    FAST_PERIOD,
    FLASH_ON,
    FLASH_PERIOD,
    GOOD,
    OFF,
    PULSE_STEPS,
    SIDE,
    SIDE_DIM,
    SLOW_ON,
    SLOW_PERIOD,
    TILE,
    TILE_DIM,
    TROUBLE_ON,
    TROUBLE_PERIOD,
    lit,
    pulse,
    put,
    put_level,
    put_mask,
)
from attila.game.rules import SCORCH, SETUP


def blank(buf):
    """All dark."""
    for k in range(len(buf)):
        buf[k] = 0


def piece(i, romans, huns):
    """Colour of the piece on square i: a knight's side, else a tile."""
    if romans >> i & 1:
        return SIDE[0]
    if huns >> i & 1:
        return SIDE[1]
    return TILE


def play(buf, game, lifted, own, shown, a, b, c, now):
    """Play: where the side to act may go; the planned action (a, b, c) when shown.

    own: the board plays the side to act (only its plan lights); lifted: the
    square of the knight in a hand, or -1.
    """
    side = game.side
    colour = SIDE[side]
    slow = lit(now, SLOW_PERIOD, SLOW_ON)
    anim = shown
    phase = game.phase
    if phase == SETUP:
        put_mask(buf, 0 if own else game.placements(), colour)
        if shown:
            put(buf, a, colour if slow else OFF)
        return anim
    if phase == SCORCH:
        put(buf, game.lifted, SIDE_DIM[side])
        put_mask(buf, 0 if own else game.scorchable(), TILE)
        if shown:
            put(buf, c, TILE if slow else OFF)
        return anim
    # MOVE: trapped knights of both sides flash now and then.
    trapped = game.trapped()
    if trapped:
        anim = True
        if lit(now, FLASH_PERIOD, FLASH_ON):
            for i in range(len(buf) // 3):
                if trapped >> i & 1:
                    put(buf, i, SIDE[game.side_at(i)])
    if lifted >= 0:
        put(buf, lifted, SIDE_DIM[side])
        if own:
            put_mask(buf, 1 << b if shown else 0, colour)
        else:
            put_mask(buf, game.destinations(lifted), colour)
        return anim
    put_mask(buf, 0 if own else game.movable(), colour)
    if shown:
        put(buf, a, colour if slow else OFF)
        put(buf, b, colour)
    return anim


def fix(buf, extra, missing, steady, romans, huns, now):
    """A correction: extra pieces blink red, missing ones their colour in between.

    `steady` squares show their piece without blinking (the saved game at
    power-up); romans and huns say which knight belongs where.
    """
    on = lit(now, FAST_PERIOD, FAST_ON)
    for i in range(len(buf) // 3):
        if extra >> i & 1:
            if on:
                put(buf, i, ERROR)
        elif missing >> i & 1:
            if not on:
                put(buf, i, piece(i, romans, huns))
        elif steady >> i & 1:
            put(buf, i, piece(i, romans, huns))
    return bool(extra | missing)


def over(buf, winner, now):
    """Game over: the whole board breathes in the winner's colour."""
    level = pulse(now)
    colour = SIDE[winner]
    for i in range(len(buf) // 3):
        put_level(buf, i, colour, level, PULSE_STEPS)
    return True


def clearing(buf, mask, now):
    """A new game: every square that still holds a piece blinks white."""
    if lit(now, SLOW_PERIOD, SLOW_ON):
        put_mask(buf, mask, TILE)
    return True


def switched(buf, on):
    """The coach switched (MENU while a new game is cleared): the whole board
    green when it turned on, dim white when it turned off."""
    colour = GOOD if on else TILE_DIM
    for i in range(len(buf) // 3):
        put(buf, i, colour)


def thinking(buf, colour, now):
    """The board thinks: a light runs over the squares one after the other in
    the colour of the side it thinks for (dark squares light, lit ones go dark)."""
    i = now // CHASE_MS % (len(buf) // 3)
    k = 3 * i
    put(buf, i, OFF if buf[k] | buf[k + 1] | buf[k + 2] else colour)
    return True


def trouble(buf, since):
    """The trouble sign, `since` ms after it began: the whole board flashes
    red twice a second (a save failed, saving is off, a damaged save)."""
    t = since % TROUBLE_PERIOD
    if t < TROUBLE_ON or 2 * TROUBLE_ON <= t < 3 * TROUBLE_ON:
        put_mask(buf, -1, ERROR)
    return True
