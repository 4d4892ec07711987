"""Notation on every interpreter: positions, turns, placements, logs, exact errors."""

import check
from attila.errors import NotationError
from attila.game.notation import (
    format_position,
    format_turn,
    log,
    parse_placement,
    parse_position,
    parse_turn,
    play,
    replay,
)
from attila.game.rules import HUNS, MOVE, OVER, ROMANS, SETUP

EMPTY = "...../...../...../..... R"

ROUND_TRIPS = (
    EMPTY,
    "R.x.H/.x.../H.x.R/..HR. R",
    "RR.../H..../...../..... H",
    "..R../...../.H.../R.... H",
    "R.xxx/xxxxx/xxxxx/RHRHH R",
    "RHR../...../...../...HH R",
    ".xRH./xR.Rx/.x.H./x.x.H R",
    # non-rectangular: a T and a staircase with holes
    "..R.../...H../--..--/--..--/--..--/--..-- R",
    "-------.../-----...../--.....---/.....-----/..-------- H",
    "........ R",
)


def test_round_trips():
    for text in ROUND_TRIPS:
        assert format_position(parse_position(text)) == text, text


def test_what_a_position_means():
    game = parse_position("R.x.H/.x.../H.x.R/..HR. R")
    names = game.layout.names
    assert game.layout.size == 20
    assert (game.layout.width, game.layout.height) == (5, 4)
    assert names[0] == "a1" and names[19] == "e4"
    assert game.side_at(game.layout.index("a4")) == ROMANS
    assert game.side_at(game.layout.index("e4")) == HUNS
    assert game.side_at(game.layout.index("c4")) == -1
    assert game.phase == MOVE
    # three tiles down, so the Huns began and the Romans move the 4th turn
    assert game.first == HUNS
    assert parse_position("RR.../H..../...../..... H").phase == SETUP
    assert parse_position("RR.../H..../...../..... H").first == ROMANS
    assert parse_position("...HH/...../...../....R R").first == HUNS


def test_layout_of_a_position_with_holes():
    game = parse_position("..R.../...H../--..--/--..--/--..--/--..-- R")
    layout = game.layout
    assert layout.size == 20
    assert layout.at(0, 0) == -1
    assert layout.index("c1") == 0
    assert layout.rows() == ["......", "......", "--..--", "--..--", "--..--", "--..--"]
    msg = check.raises(ValueError, layout.index, "a1")
    assert msg == "a1 is not a square of this layout", msg


BAD_POSITIONS = (
    (None, "position must be text"),
    ("", "position '': expected ROWS SIDE, like 'R.x.H/.x.../H.x.R/..HR. R'"),
    ("...../.....", "position '...../.....': expected ROWS SIDE, like 'R.x.H/.x.../H.x.R/..HR. R'"),
    ("...../..... X", "position: side to move must be R or H, not 'X'"),
    ("...../...Q. R", "position: d1: 'Q' is not one of R H x . -"),
    ("Z..../..... R", "position: a2: 'Z' is not one of R H x . -"),
    ("...../" + "." * 26 + "Z R", "position: rank 1, place 27: 'Z' is not one of R H x . -"),
    ("...../....../..... R", "position: rank 2 has 6 places but rank 3 has 5"),
    ("...../ R", "position: rank 1 is empty"),
    ("-----/..... R", "position: row 1 (rank 2) has no square; leave out empty edge rows"),
    ("...-/...- R", "position: column 4 (file d) has no square; leave out empty edge columns"),
    ("----- R", "position: layout has no square"),
    ("RRRR./...../...../..... H", "position: 4 Roman knights; at most 3 a side"),
    ("R...H/..x../...../..... R", "position: scorched earth on c3 during setup"),
    (
        "RR.../...../...../..... R",
        "position: Romans have placed 2 and Huns 0; setup alternates, "
        "so the counts differ by at most one",
    ),
    (
        "R..../...../...../..... R",
        "position: Romans have placed 1 and Huns 0, so the Huns place next, not the Romans",
    ),
    (
        "...../.H.../..R../R.... H",
        "position: the knight on a1 cannot move, which setup forbids",
    ),
    (
        "RR.../.H.../..H../R...H R",
        "position: the knight on a1 cannot move, which setup forbids",
    ),
)


def test_bad_positions_say_what_and_where():
    for text, want in BAD_POSITIONS:
        msg = check.raises(NotationError, parse_position, text)
        assert msg == want, (text, msg)


def test_supply_given_with_the_position():
    msg = check.raises(NotationError, parse_position, "R.x.H/.x.../H.x.R/..HR. R", 2)
    assert msg == "position: 3 squares scorched but the supply is 2 tiles", msg
    msg = check.raises(NotationError, parse_position, "R...H/.x.../H...R/..HR. R", 0)
    assert msg == "position: 1 square scorched but the supply is 0 tiles", msg
    msg = check.raises(NotationError, parse_position, "R.x.H/.x.../H...R/..HR. R", 1)
    assert msg == "position: 2 squares scorched but the supply is 1 tile", msg
    game = parse_position("R.x.H/.x.../H.x.R/..HR. R", 3)
    assert game.phase == OVER and game.tiles() == 0


def test_placements_and_turns():
    layout = parse_position(EMPTY).layout
    assert parse_placement(layout, "@b1") == 1
    assert parse_turn(layout, "b1-c3,d4") == (1, 12, 18)
    assert parse_turn(layout, "b1-c3") == (1, 12, -1)
    assert format_turn(layout, 1, 12, 18) == "b1-c3,d4"
    assert format_turn(layout, 1, 12) == "b1-c3"
    for text, want in (
        ("b1", "placement 'b1': expected @SQUARE, like @b1"),
        ("@", "placement '@': '' is not a square name (like b3)"),
        ("@b0", "placement '@b0': 'b0' is not a square name (like b3)"),
        ("@b01", "placement '@b01': 'b01' is not a square name (like b3)"),
        ("@B1", "placement '@B1': 'B1' is not a square name (like b3)"),
        ("@b5", "placement '@b5': b5 is not a square of this layout"),
    ):
        msg = check.raises(NotationError, parse_placement, layout, text)
        assert msg == want, (text, msg)
    for text, want in (
        ("b1c3", "turn 'b1c3': expected FROM-TO,SCORCH, like b1-c3,d4"),
        ("b1-c3,", "turn 'b1-c3,': expected FROM-TO,SCORCH, like b1-c3,d4"),
        ("-c3,d4", "turn '-c3,d4': expected FROM-TO,SCORCH, like b1-c3,d4"),
        (",d4", "turn ',d4': expected FROM-TO,SCORCH, like b1-c3,d4"),
        ("b1-f3,d4", "turn 'b1-f3,d4': f3 is not a square of this layout"),
        ("b1-c3;d4", "turn 'b1-c3;d4': 'c3;d4' is not a square name (like b3)"),
    ):
        msg = check.raises(NotationError, parse_turn, layout, text)
        assert msg == want, (text, msg)


def test_logs_round_trip_and_name_the_bad_item():
    text = "@a1 @e4 @b1 @d4 @c1 @c4 a1-b3,a1 e4-c3,a4"
    game = replay(parse_position(EMPTY), text)
    assert log(game) == text
    assert format_position(game) == "x.HH./.RH../...../xRR.. R"
    play(game, "b3-d2")
    assert log(game) == text + " b3-d2"
    for items, want in (
        ("@a1 @b1 bogus", "log item 3 'bogus': turn 'bogus': expected FROM-TO,SCORCH, like b1-c3,d4"),
        ("@a1 @a1", "log item 2 '@a1': @a1: the square is taken"),
        (
            "@a1 @e4 @b1 @d4 @c1 @c4 a1-b3 c4-a3,a4",
            "log item 8 'c4-a3,a4': the turn before it has no scorch",
        ),
    ):
        msg = check.raises(NotationError, replay, parse_position(EMPTY), items)
        assert msg == want, (items, msg)
