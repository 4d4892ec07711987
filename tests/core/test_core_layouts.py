"""Layout files: every board in boards/ loads, every file in tests/invalid_layouts fails exactly."""

import glob
import os

import pytest

from attila.errors import LayoutError
from attila.game.layoutfile import load
from attila.game.modules import chain
from attila.game.notation import parse_position
from attila.game.perft import perft
from attila.game.rules import Game

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
BOARDS = os.path.join(ROOT, "boards")
INVALID = os.path.join(ROOT, "tests", "invalid_layouts")

# name -> (files x ranks, rows from the top rank down)
SHAPES = {
    "4x5": (5, 4, [".....", ".....", ".....", "....."]),
    "l-shape": (6, 6, ["..----", "..----", "..----", "..----", "......", "......"]),
    "t-shape": (6, 6, ["......", "......", "--..--", "--..--", "--..--", "--..--"]),
    "staircase": (10, 5, ["-------...", "-----.....", "--.....---", ".....-----", "..--------"]),
    "strip-2x10": (10, 2, [".........."] * 2),
    "cross": (6, 6, ["--..--", "--..--", "......", "......", "--..--", "--..--"]),
    "zigzag": (8, 4, ["...---..", "...---..", "--.....-", "--.....-"]),
    "u-shape": (6, 4, ["..--..", "..--..", "......", "......"]),
    "diy-8x8": (8, 8, ["........"] * 8),
}


def test_every_board_is_listed():
    found = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(BOARDS, "*.json")))
    assert found == sorted(SHAPES)


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_board_shapes(name):
    layout, modules, tiles = load(os.path.join(BOARDS, name + ".json"))
    width, height, rows = SHAPES[name]
    assert (layout.width, layout.height) == (width, height)
    assert layout.rows() == rows
    assert layout.name == name
    assert tiles is None
    order = chain(layout, modules)
    assert sorted(order) == list(range(layout.size))
    if name == "diy-8x8":
        assert layout.size == 64 and len(modules) == 1
        assert list(order) == list(range(64))
    else:
        assert layout.size == 20
        assert sorted(m.kind for m in modules) == ["2x2", "2x2", "2x3", "2x3"]
        assert [m.number for m in modules] == [1, 2, 3, 4]
    # The layout is playable: the empty board's first two plies all exist.
    game = Game(layout, tiles=tiles)
    assert perft(game, 1) == layout.size
    # The position text of the empty board stands for the same layout.
    assert parse_position("/".join(rows) + " R").layout == layout


def test_4x5_chain_order():
    layout, modules, _ = load(os.path.join(BOARDS, "4x5.json"))
    names = [layout.names[i] for i in chain(layout, modules)]
    assert names == [
        "a1", "b1", "a2", "b2",  # module 1: 2x2 at a1
        "a3", "b3", "a4", "b4",  # module 2: 2x2 at a3
        "c4", "c3", "d4", "d3", "e4", "e3",  # module 3: 2x3 at c3 turned 90
        "c2", "c1", "d2", "d1", "e2", "e1",  # module 4: 2x3 at c1 turned 90
    ]


INVALID_MESSAGES = {
    "bad-json": "not valid JSON (Expecting ',' delimiter: line 5 column 5 (char 75))",
    "bad-kind": "module 2: kind '3x3' is not one of 2x2, 2x3",
    "bad-square": "module 2: at must be a square name like \"a1\", not '3a'",
    "bad-tiles": "tiles must be a whole number >= 0, not -1",
    "bad-turn": "module 3: turn 45 must be 0, 90, 180 or 270",
    "corner-only": "module 4 (2x3 at f3) touches the others only at a corner",
    "custom-bad-row": "rows: row 2, column 3 (c2): 'o' must be '.' (square) or '-' (none)",
    "custom-too-big": "rows: layout has 72 squares; at most 64 are supported",
    "disconnected": "module 4 (2x3 at g1) does not touch the others",
    "no-modules": "modules is empty",
    "not-at-a1": "layout starts at file b, rank 2; move it so its squares reach file a and rank 1",
    "overlap": "module 3 (2x3 at b3) overlaps module 2 (2x2 at a3) at b4",
    "rows-without-custom": "rows describe a DIY board; add \"custom\": true",
    "too-many-tiles": "tiles must be at most 20 (one a square), not 99999999999999999999",
    "top-level-list": "the top level must be an object {...}",
    "unknown-field": "unknown field 'colour' (known: name, description, custom, modules, rows, tiles)",
    "unknown-module-field": "module 2: unknown field 'spin' (known: kind, at, turn)",
    "wrong-set": "modules are 2x2, 2x3, 2x3, 2x3; the game's set is two 2x2 and two 2x3 "
    "(declare a DIY board with \"custom\": true)",
}


def test_every_invalid_layout_has_a_message():
    found = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(INVALID, "*.json")))
    assert found == sorted(INVALID_MESSAGES)


@pytest.mark.parametrize("name", sorted(INVALID_MESSAGES))
def test_invalid_layouts(name):
    path = os.path.join(INVALID, name + ".json")
    with pytest.raises(LayoutError) as info:
        load(path)
    assert str(info.value) == path + ": " + INVALID_MESSAGES[name]


def test_missing_file():
    with pytest.raises(LayoutError) as info:
        load("/nonexistent/board.json")
    assert str(info.value) == "/nonexistent/board.json: cannot read (No such file or directory)"
