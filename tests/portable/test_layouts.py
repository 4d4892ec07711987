"""Geometry, modules and layout files on every interpreter (layouts given as text)."""

import check
from attila.errors import LayoutError
from attila.game.geometry import bounded, from_rows, lowest, popcount, square_name
from attila.game.layoutfile import loads
from attila.game.modules import chain, compose, local_places, place_module

BOARD_4X5 = """{"name": "4x5", "modules": [
  {"kind": "2x2", "at": "a1", "turn": 0}, {"kind": "2x2", "at": "a3", "turn": 0},
  {"kind": "2x3", "at": "c3", "turn": 90}, {"kind": "2x3", "at": "c1", "turn": 90}]}"""


def names(layout, mask):
    return [layout.names[i] for i in range(layout.size) if mask >> i & 1]


def test_squares_in_reading_order_from_a1():
    layout = from_rows(["....."] * 4)
    assert layout.size == 20
    assert layout.all == (1 << 20) - 1
    assert layout.names[:6] == ("a1", "b1", "c1", "d1", "e1", "a2")
    assert layout.index("e4") == 19
    assert layout.at(4, 3) == 19 and layout.at(5, 0) == -1 and layout.at(-1, 0) == -1
    assert bytes(layout.files[:6]) == bytes([0, 1, 2, 3, 4, 0])
    assert bytes(layout.ranks[4:6]) == bytes([0, 1])
    assert square_name(2, 9) == "c10"
    assert popcount(0b101101) == 4 and lowest(0b101000) == 3


def test_knight_masks():
    layout = from_rows(["....."] * 4)
    assert names(layout, layout.knight[layout.index("a1")]) == ["c2", "b3"]
    assert names(layout, layout.knight[layout.index("c2")]) == ["a1", "e1", "a3", "e3", "b4", "d4"]
    # A jump may pass over places with no square, but lands only on squares.
    t = from_rows(["......", "......", "--..--", "--..--", "--..--", "--..--"])
    assert names(t, t.knight[t.index("c4")]) == ["d2", "a5", "e5", "b6", "d6"]
    assert names(t, t.knight[t.index("c1")]) == ["d3"]


def test_layout_errors():
    for rows, want in (
        ([], "layout has no square"),
        (["..", "..."], "row 2 has 3 places, row 1 has 2; every row needs the same length"),
        (["--", ".."], "row 1 (rank 2) has no square; leave out empty edge rows"),
        ([".-", ".-"], "column 2 (file b) has no square; leave out empty edge columns"),
        (["........."] * 8, "layout has 72 squares; at most 64 are supported"),
    ):
        msg = check.raises(LayoutError, from_rows, rows)
        assert msg == want, (rows, msg)
    msg = check.raises(LayoutError, bounded, [(1, 1), (2, 1)])
    assert msg == "layout starts at file b, rank 2; move it so its squares reach file a and rank 1", msg
    layout = from_rows(["..", ".."])
    for name, want in (
        ("c1", "c1 is not a square of this layout"),
        ("A1", "'A1' is not a square name (like b3)"),
        ("a", "'a' is not a square name (like b3)"),
    ):
        msg = check.raises(LayoutError, layout.index, name)
        assert msg == want, msg


def test_module_turns_clockwise():
    # Local indices run row by row from the module's own lower-left corner.
    assert local_places(2, 3, 0) == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
    assert local_places(2, 3, 90) == [(0, 1), (0, 0), (1, 1), (1, 0), (2, 1), (2, 0)]
    assert local_places(2, 3, 180) == [(1, 2), (0, 2), (1, 1), (0, 1), (1, 0), (0, 0)]
    assert local_places(2, 3, 270) == [(2, 0), (2, 1), (1, 0), (1, 1), (0, 0), (0, 1)]
    m = place_module(3, "2x3", 2, 2, 270)
    assert m.places == [(4, 2), (4, 3), (3, 2), (3, 3), (2, 2), (2, 3)]
    assert m.describe() == "module 3 (2x3 at c3)"


def test_4x5_from_json():
    layout, modules, tiles = loads(BOARD_4X5)
    assert layout == from_rows(["....."] * 4)
    assert layout.name == "4x5" and tiles is None
    assert [layout.names[i] for i in chain(layout, modules)][8:14] == [
        "c4", "c3", "d4", "d3", "e4", "e3",
    ]


def test_custom_board():
    layout, modules, tiles = loads(
        '{"name": "ring", "custom": true, "tiles": 5, "rows": ["...", ".-.", "..."]}'
    )
    assert layout.size == 8 and tiles == 5
    assert len(modules) == 1 and modules[0].kind == "custom"
    assert bytes(chain(layout, modules)) == bytes(range(8))


def test_layout_file_errors():
    def mod(kind, at, turn=0):
        return '{"kind": "%s", "at": "%s", "turn": %d}' % (kind, at, turn)

    def board(*mods):
        return '{"modules": [%s]}' % ", ".join(mods)

    for text, want in (
        (
            board(mod("2x2", "a1"), mod("2x2", "a3"), mod("2x3", "b3", 90), mod("2x3", "c1", 90)),
            "f.json: module 3 (2x3 at b3) overlaps module 2 (2x2 at a3) at b4",
        ),
        (
            board(mod("2x2", "a1"), mod("2x2", "a3"), mod("2x3", "c1", 90), mod("2x3", "f3", 90)),
            "f.json: module 4 (2x3 at f3) touches the others only at a corner",
        ),
        (
            board(mod("2x2", "a1"), mod("2x2", "a3"), mod("2x3", "c1", 90), mod("2x3", "g1", 90)),
            "f.json: module 4 (2x3 at g1) does not touch the others",
        ),
        (
            board(mod("2x2", "a1"), mod("2x3", "a3"), mod("2x3", "c3", 90), mod("2x3", "c1", 90)),
            "f.json: modules are 2x2, 2x3, 2x3, 2x3; the game's set is two 2x2 and two 2x3 "
            "(declare a DIY board with \"custom\": true)",
        ),
        (
            board(mod("2x2", "a1"), mod("2x2", "a3"), mod("2x3", "c3", 45), mod("2x3", "c1", 90)),
            "f.json: module 3: turn 45 must be 0, 90, 180 or 270",
        ),
        (
            board(mod("2x2", "b2"), mod("2x2", "b4"), mod("2x3", "d4", 90), mod("2x3", "d2", 90)),
            "f.json: layout starts at file b, rank 2; move it so its squares reach file a and rank 1",
        ),
        ('{"modules": [], "size": 3}', "f.json: unknown field 'size' (known: name, description, custom, modules, rows, tiles)"),
        ('{"modules": [{"kind": "2x2", "at": "a1", "spin": 1}]}', "f.json: module 1: unknown field 'spin' (known: kind, at, turn)"),
        ('{"modules": [{"kind": "2x2", "at": "1a"}]}', "f.json: module 1: at must be a square name like \"a1\", not '1a'"),
        ('{"modules": [{"kind": 2, "at": "a1"}]}', "f.json: module 1: kind must be a string"),
        ('{"modules": [{"kind": "2x2", "at": "a1", "turn": true}]}', "f.json: module 1: turn must be 0, 90, 180 or 270"),
        ('{"modules": []}', "f.json: modules is empty"),
        ('{"name": 4}', "f.json: name must be a string"),
        ('{"name": "x"}', "f.json: needs \"modules\" (or \"rows\" for a DIY board)"),
        ('{"rows": [".."]}', "f.json: rows describe a DIY board; add \"custom\": true"),
        ('{"custom": true, "rows": [".."], "modules": []}', "f.json: give rows or modules, not both"),
        ('{"custom": true, "rows": ["..", ".:"]}', "f.json: rows: row 2, column 2 (b1): ':' must be '.' (square) or '-' (none)"),
        ('{"custom": true, "rows": ["..", 7]}', "f.json: rows: row 2 must be a string"),
        ('{"custom": true, "rows": ["..", "..."]}', "f.json: rows: row 2 has 3 places, row 1 has 2; every row needs the same length"),
        ('{"custom": true, "tiles": -2, "rows": [".."]}', "f.json: tiles must be a whole number >= 0, not -2"),
        ("[1, 2]", "f.json: the top level must be an object {...}"),
    ):
        msg = check.raises(LayoutError, loads, text, "f.json")
        assert msg == want, (text, msg)
    # The JSON parser's own words differ between interpreters; the start does not.
    msg = check.raises(LayoutError, loads, '{"name": ', "f.json")
    assert msg.startswith("f.json: not valid JSON ("), msg


def test_compose_custom_module_set():
    mods = [place_module(1, "2x2", 0, 0, 0), place_module(2, "2x2", 2, 0, 0)]
    layout, _ = compose(mods, "pair", True)
    assert layout.size == 8 and layout.rows() == ["....", "...."]
    msg = check.raises(LayoutError, compose, mods)
    assert msg.startswith("modules are 2x2, 2x2; the game's set"), msg
