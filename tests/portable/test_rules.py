"""The rules core on every interpreter: setup, moves, scorching, the end, undo, perft."""

import check
from attila.errors import IllegalAction
from attila.game.geometry import from_rows
from attila.game.notation import format_position, log, parse_position, play, replay
from attila.game.perft import perft, turns
from attila.game.rules import HUNS, MOVE, OVER, ROMANS, SCORCH, SETUP, Game

EMPTY = "...../...../...../..... R"
# A whole game on the 4x5 board: the Romans end with all three knights trapped.
SHORT_GAME = (
    "@a3 @d2 @a2 @c2 @b3 @d4 a3-c4,e3 c2-a1,b4 a2-c1,a3 a1-c2,b2 c1-d3,a1 c2-e1,c1"
)


def names(game, mask):
    return [game.layout.names[i] for i in range(game.layout.size) if mask >> i & 1]


def sq(game, name):
    return game.layout.index(name)


def test_empty_board_setup():
    game = parse_position(EMPTY)
    assert game.phase == SETUP
    assert game.side == ROMANS
    assert game.placements() == game.layout.all
    assert game.winner == -1
    assert game.supply == 14
    assert game.tiles() == 14
    assert turns(game) == 20


def test_setup_alternates_then_first_player_moves():
    for first in (ROMANS, HUNS):
        game = Game(from_rows(["....."] * 4), first)
        sides = []
        for name in ("a1", "e4", "b1", "d4", "c1", "c4"):
            sides.append(game.side)
            game.place(sq(game, name))
        assert sides == [first, first ^ 1] * 3
        assert game.phase == MOVE
        assert game.side == first
        assert game.placed(ROMANS) == 3 and game.placed(HUNS) == 3


def test_placement_may_not_trap_a_knight_on_the_board():
    # The Roman on a1 can go to b3 or c2 only; b3 is taken, so c2 is its last way out.
    game = parse_position("...../.H.../...../R.... R")
    assert names(game, game.placements()) == [
        "b1", "c1", "d1", "e1", "a2", "b2", "d2", "e2",
        "a3", "c3", "d3", "e3", "a4", "b4", "c4", "d4", "e4",
    ]
    msg = check.raises(IllegalAction, game.place, sq(game, "c2"))
    assert msg == "@c2: the knight on a1 could not move", msg
    assert format_position(game) == "...../.H.../...../R.... R"


def test_placement_may_not_trap_the_placed_knight():
    # a4 jumps to b2 and c3 only, and both are taken.
    game = parse_position("...../..H../.R.../..... R")
    msg = check.raises(IllegalAction, game.place, sq(game, "a4"))
    assert msg == "@a4: a knight there could not move", msg
    msg = check.raises(IllegalAction, game.place, sq(game, "b2"))
    assert msg == "@b2: the square is taken", msg
    msg = check.raises(IllegalAction, game.place, 20)
    assert msg == "square 20 is not on the board", msg
    assert game.history == []


def test_no_legal_placement_loses():
    # On 3x3 the centre has no knight move and the ring fills up.
    game = parse_position(".../.../... R")
    replay(game, "@a1 @b1 @c1 @a3 @a2")
    assert format_position(game) == "H../R../RHR H"
    assert game.placements() == 0
    assert game.phase == OVER
    assert game.winner == ROMANS
    assert turns(game) == 0
    # Every setup on 3x3 runs dry before the sixth knight.
    assert [perft(parse_position(".../.../... R"), d) for d in range(7)] == [
        1, 8, 56, 288, 912, 960, 0,
    ]
    # Undo brings the lost side back to its turn.
    game.undo()
    assert game.phase == SETUP and game.side == ROMANS and game.winner == -1


def test_board_without_knight_moves_is_lost_at_once():
    game = parse_position("..... R")
    assert game.phase == OVER
    assert game.winner == HUNS


def test_actions_in_the_wrong_phase():
    game = parse_position(EMPTY)
    msg = check.raises(IllegalAction, game.move, 0, 7)
    assert msg == "no move now: the game is in its setup phase", msg
    msg = check.raises(IllegalAction, game.scorch, 0)
    assert msg == "no scorch now: the game is in its setup phase", msg
    game = parse_position("R.x.H/.x.../H.x.R/..HR. R")
    msg = check.raises(IllegalAction, game.place, sq(game, "b1"))
    assert msg == "no placement now: the game is in its move phase", msg
    msg = check.raises(IllegalAction, game.scorch, sq(game, "b1"))
    assert msg == "no scorch now: the game is in its move phase", msg


def test_move_checks():
    game = parse_position("R.x.H/.x.../H.x.R/..HR. R")
    for a, b, want in (
        ("b1", "c3", "b1: no Roman knight there"),
        ("e4", "c3", "e4: no Roman knight there"),
        ("a4", "a3", "a4-a3 is not a knight's jump"),
        ("e2", "c1", "e2-c1: c1 is taken by a Hun knight"),
    ):
        msg = check.raises(IllegalAction, game.move, sq(game, a), sq(game, b))
        assert msg == want, msg
    # A scorched square is said to be scorched: "taken" would have the player
    # lift the tile. Moves and scorches say it alike.
    game = parse_position("H...H/...x./H..../R.R.R R")
    msg = check.raises(IllegalAction, game.move, sq(game, "e1"), sq(game, "d3"))
    assert msg == "e1-d3: d3 is scorched: a knight cannot land there", msg
    msg = check.raises(IllegalAction, play, game, "e1-d3,a1")
    assert msg == "e1-d3: d3 is scorched: a knight cannot land there", msg
    game.move(sq(game, "e1"), sq(game, "c2"))
    msg = check.raises(IllegalAction, game.scorch, sq(game, "d3"))
    assert msg == "d3 is scorched already", msg
    game = parse_position("R.x.H/.x.../H.x.R/..HR. R")
    msg = check.raises(IllegalAction, game.move, sq(game, "a4"), 99)
    assert msg == "square 99 is not on the board", msg
    assert format_position(game) == "R.x.H/.x.../H.x.R/..HR. R"
    assert game.phase == MOVE and game.history == []


def test_move_then_scorch_any_free_square_even_the_vacated_one():
    game = parse_position("R.x.H/.x.../H.x.R/..HR. R")
    assert game.tiles() == 11
    game.move(sq(game, "a4"), sq(game, "b2"))
    assert game.phase == SCORCH
    assert game.lifted == sq(game, "b2")
    assert names(game, game.scorchable()) == [
        "a1", "b1", "e1", "d2", "a3", "c3", "d3", "e3", "a4", "b4", "d4",
    ]
    msg = check.raises(IllegalAction, game.scorch, sq(game, "b2"))
    assert msg == "b2 is taken by a Roman knight", msg
    msg = check.raises(IllegalAction, game.move, sq(game, "d1"), sq(game, "e3"))
    assert msg == "no move now: the game is in its scorch phase", msg
    game.scorch(sq(game, "a4"))
    assert format_position(game) == "x.x.H/.x.../HRx.R/..HR. H"
    assert game.phase == MOVE and game.side == HUNS
    assert game.tiles() == 10


def test_trapped_knights_one_by_one():
    # The Roman on a1 is boxed in by b3 and c2; the others can still move.
    game = parse_position("R.H.H/.x.../..x.R/R..H. R")
    assert names(game, game.trapped()) == ["a1"]
    assert game.phase == MOVE
    assert names(game, game.movable()) == ["e2", "a4"]
    assert game.destinations(sq(game, "a1")) == 0
    assert game.destinations(sq(game, "d1")) == 0  # not the Romans' knight


def test_a_short_game_to_the_end():
    game = parse_position(EMPTY)
    replay(game, SHORT_GAME)
    assert format_position(game) == ".xRH./xR.Rx/.x.H./x.x.H R"
    assert game.phase == OVER
    assert game.winner == HUNS
    assert names(game, game.trapped()) == ["b3", "d3", "c4"]
    assert game.movable() == 0
    assert turns(game) == 0
    assert log(game) == SHORT_GAME
    assert game.tiles() == 8


def test_undo_walks_back_to_the_empty_board():
    game = parse_position(EMPTY)
    replay(game, SHORT_GAME)
    actions = SHORT_GAME.split()
    expect = []
    probe = parse_position(EMPTY)
    for item in actions:
        expect.append((format_position(probe), probe.phase))
        if "," in item:
            step, burn = item.split(",")
            play(probe, step)
            expect.append((format_position(probe), probe.phase))
            probe.scorch(sq(probe, burn))
        else:
            play(probe, item)
    described = []
    while expect:
        want = expect.pop()
        entry = game.undo()
        described.append(game.describe(entry))
        assert (format_position(game), game.phase) == want, (format_position(game), want)
        assert game.winner == -1
    assert game.undo() == -1
    assert format_position(game) == EMPTY
    assert game.side == ROMANS and game.phase == SETUP and game.history == []
    assert described[:3] == [",c1", "c2-e1", ",a1"]
    assert described[-1] == "@a3"


def test_undo_after_a_scorch_returns_to_the_scorch_step():
    game = parse_position("R.x.H/.x.../H.x.R/..HR. R")
    play(game, "a4-b2,a4")
    game.undo()
    assert game.phase == SCORCH
    assert game.side == ROMANS
    assert game.lifted == sq(game, "b2")
    game.scorch(sq(game, "d4"))
    assert format_position(game) == "..xxH/.x.../HRx.R/..HR. H"


def test_failed_turn_changes_nothing():
    game = parse_position("R.x.H/.x.../H.x.R/..HR. R")
    msg = check.raises(IllegalAction, play, game, "a4-b2,c2")
    assert msg == "c2 is scorched already", msg
    assert format_position(game) == "R.x.H/.x.../H.x.R/..HR. R"
    assert game.phase == MOVE and game.history == []


def test_tile_supply_runs_out():
    # Our ruling: a side to move with no tile left loses.
    game = parse_position("R.x.H/.x.../H.x.R/..HR. R", 3)
    assert game.tiles() == 0
    assert game.phase == OVER and game.winner == HUNS
    assert turns(game) == 0
    game = parse_position("R.x.H/.x.../H.x.R/..HR. R", 4)
    assert game.phase == MOVE and turns(game) == 77
    play(game, "a4-b2,a4")
    assert game.phase == OVER and game.winner == ROMANS
    game = Game(from_rows(["....."] * 4), tiles=0)
    replay(game, "@a1 @e4 @b1 @d4 @c1 @c4")
    assert game.phase == OVER and game.winner == HUNS


def test_default_supply_fits_the_board():
    assert Game(from_rows(["....."] * 4)).supply == 14
    assert Game(from_rows(["........"] * 8)).supply == 58
    assert Game(from_rows(["..."])).supply == 0


def test_perft_known_values_on_the_4x5_board():
    game = parse_position(EMPTY)
    assert [perft(game, d) for d in range(4)] == [1, 20, 380, 6816]
    mid = parse_position("R.x.H/.x.../H.x.R/..HR. R")
    assert [perft(mid, d) for d in range(3)] == [1, 77, 3100]
    check.raises(ValueError, perft, mid, -1)


def test_perft_mid_turn_counts_the_scorch_first():
    game = parse_position("R.x.H/.x.../H.x.R/..HR. R")
    game.move(sq(game, "a4"), sq(game, "b2"))
    assert perft(game, 1) == 11
    total = 0
    for i in range(game.layout.size):
        if game.scorchable() >> i & 1:
            game.scorch(i)
            total += perft(game, 1)
            game.undo()
    assert perft(game, 2) == total


def test_perft_on_a_layout_with_holes():
    # A T of modules: jumps pass over the empty places.
    game = parse_position("....../....../--..--/--..--/--..--/--..-- R")
    assert perft(game, 1) == 20
    # The stem squares have few jumps: some second knights would trap the first.
    assert perft(game, 2) == 368


def _counts_on_a_20_square_board(lock=None, unlock=None):
    mid = parse_position("R.x.H/.x.../H.x.R/..HR. R")
    empty = parse_position(EMPTY)
    counts = [0, 0, 0]
    if lock:
        lock()
    try:
        counts[0] = perft(mid, 3)
        counts[1] = perft(empty, 3)
        counts[2] = turns(mid)
    finally:
        if unlock:
            unlock()
    return counts


def test_perft_counts_on_a_20_square_board():
    assert _counts_on_a_20_square_board() == [113157, 6816, 77]


def test_perft_allocates_nothing_on_a_20_square_board():
    """Under MicroPython, heap_lock() proves the counting loop allocates nothing."""
    try:
        import micropython

        lock = micropython.heap_lock
        unlock = micropython.heap_unlock
    except (ImportError, AttributeError):
        check.skip("no micropython.heap_lock here: nothing to prove")
    counts = _counts_on_a_20_square_board(lock, unlock)
    assert counts == [113157, 6816, 77], counts


def test_placement_bits_is_the_same_rule_as_placements():
    # The search code's bit-keyed form must agree with the Game's, square for square.
    from attila.game.notation import parse_position
    from attila.game.rules import placement_bits, placements

    for text in ("...../...../...../..... R", "R..../...../..H../..... R",
                 "R.H../.R.../..H../..... H", "--.--/R...H/--.-- R", "R../.../..H H"):
        g = parse_position(text)
        lay = g.layout
        kb = {}
        for i in range(lay.size):
            kb[1 << i] = lay.knight[i]
        k = g.knights[0] | g.knights[1]
        want = placements(lay.knight, lay.all, k, k | g.scorched)
        assert placement_bits(kb, k, lay.all & ~k) == want, text
