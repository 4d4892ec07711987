"""How the window looks: pygame (imported quietly) and the colours and sizes it draws with.

Shared by the window (input, layout of the screen), its drawing of the board
and pieces (drawing.py) and its panel of words (panel.py).
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import warnings  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import pygame  # noqa: E402

BACKGROUND = (24, 26, 31)
TABLE_TOP = (44, 40, 36)
PLATE = (70, 74, 82)
PLATE_EDGE = (196, 200, 208)
SQUARE_BASE = (30, 32, 36)
TEXT = (228, 230, 235)
DIM_TEXT = (150, 155, 165)
MISTAKE_TEXT = (240, 150, 110)  # a win thrown away, in the replay's analysis
BUTTON = (64, 70, 82)
BUTTON_DOWN = (110, 120, 140)
TILE_FACE = (58, 44, 36)
TILE_EDGE = (20, 14, 10)
TILE_MARK = (150, 70, 30)

PANEL_WIDTH = 340
MARGIN = 36


def mix(a, b, t):
    """The colour a fraction t of the way from a to b."""
    return tuple(int(a[i] + (b[i] - a[i]) * t + 0.5) for i in range(3))
