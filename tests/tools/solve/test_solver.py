"""`attila solve` against an independent brute force on small positions."""

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest
from brute import actions, after, outcome, random_game, random_layout, rng_of

from attila.game.geometry import from_rows
from attila.game.notation import format_position, parse_position
from attila.game.rules import MOVE, OVER, SETUP
from attila_tools import cli
from attila_tools.solve.game import solve_game
from attila_tools.solve.solver import Solver
from attila_tools.solve.symmetry import automorphisms


def _positions(seed, count, free_left, stop_in_setup=False, tiles=None):
    rng = rng_of(seed)
    out = []
    while len(out) < count:
        layout = random_layout(rng)
        game = random_game(rng, layout, free_left=free_left, stop_in_setup=stop_in_setup,
                           tiles=tiles)
        if game is not None and game.phase != OVER:
            out.append(game)
    return out


def _check(game):
    report = solve_game(game)
    won, plies = outcome(game)
    assert report["result"] == ("win" if won else "loss"), format_position(game)
    legal = actions(game)
    assert report["best"] in legal
    child = after(game, report["best"])
    child_won, child_plies = outcome(child)
    if won:
        assert not child_won, (format_position(game), report)
    else:
        # The longest resistance: the winner needs as many plies as it can be made to.
        assert child_plies + 1 == plies, (format_position(game), report, plies)
    return won


@pytest.mark.parametrize("seed", range(6))
def test_play_positions_match_brute_force(seed):
    for game in _positions(seed, 12, free_left=6):
        _check(game)


def test_the_positions_checked_hold_wins_and_losses():
    results = {outcome(g)[0] for g in _positions(0, 12, free_left=6)}
    assert results == {True, False}


@pytest.mark.parametrize("seed", range(3))
def test_positions_with_a_short_tile_supply_match_brute_force(seed):
    rng = rng_of(100 + seed)
    checked = 0
    while checked < 8:
        layout = random_layout(rng)
        tiles = rng.randint(2, 8)
        game = random_game(rng, layout, free_left=6, tiles=tiles)
        if game is None or game.phase == OVER:
            continue
        _check(game)
        checked += 1


def test_setup_positions_on_small_boards_match_brute_force():
    rng = rng_of(7)
    checked = 0
    while checked < 6:
        rows = rng.choice([["...", "...", "...", "..."], ["....", "....", "...-"],
                           ["-...", "....", "...."]])
        layout = from_rows(rows)
        game = random_game(rng, layout, stop_in_setup=True)
        if game is None or game.phase != SETUP or bin(game.knights[0] | game.knights[1]).count("1") < 4:
            continue
        _check(game)
        checked += 1


def test_scorch_step_is_solved_for_the_scorch_still_due():
    game = parse_position("xx.x./RHx../..R.x/xHxRH R")
    game.move(game.layout.index("d1"), game.layout.index("b2"))
    report = solve_game(game)
    assert report["best"].startswith("d1-b2,")
    assert report["result"] in ("win", "loss")


def test_over_position_is_a_loss_with_no_best():
    game = parse_position("RxH/xxx/RxH/xHR R")
    assert game.phase == OVER
    report = solve_game(game)
    assert report["result"] == "loss" and report["best"] is None


def test_automorphisms_of_layouts():
    assert len(automorphisms(from_rows(["....."] * 4))) == 4
    assert len(automorphisms(from_rows(["...."] * 4))) == 8
    assert len(automorphisms(from_rows(["..--", "..--", "....", "...."]))) == 2
    assert len(automorphisms(from_rows(["...-", "....", "...."]))) == 1
    for perm in automorphisms(from_rows(["..--", "..--", "....", "...."])):
        assert sorted(perm) == list(range(12))


def test_symmetric_positions_share_the_table():
    layout = from_rows(["....."] * 4)
    solver = Solver(layout)
    a = parse_position("x..../RH.../..R.x/.H.RH R")
    b = parse_position("....x/...HR/x.R../HR.H. R")  # mirrored left to right
    key_a = solver.play_key(a.knights[0], a.knights[1], a.free())
    key_b = solver.play_key(b.knights[0], b.knights[1], b.free())
    assert key_a == key_b


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(["solve"] + list(argv))
    return code, out.getvalue(), err.getvalue()


def test_cli_prints_json():
    code, out, err = _run(["xx.x./RHx../..R.x/xHxRH", "R"])
    assert code == 0 and not err
    report = json.loads(out)
    assert set(report) == {"result", "best", "nodes", "seconds"}
    assert report["result"] == "win"
    assert report["best"] in actions(parse_position("xx.x./RHx../..R.x/xHxRH R"))


def test_cli_rejects_bad_positions_with_one_line():
    code, out, err = _run(["RR/.. Q"])
    assert code == 2 and not out
    assert err.count("\n") == 1 and "side to move" in err


def test_cli_through_attila_command():
    from attila_tools import cli

    out = io.StringIO()
    with redirect_stdout(out):
        code = cli.main(["solve", "xx.x./RHx../..R.x/xHxRH R"])
    assert code == 0
    assert json.loads(out.getvalue())["result"] == "win"
    assert parse_position("xx.x./RHx../..R.x/xHxRH R").phase == MOVE


def test_separated_armies_match_brute_force():
    # Positions where no knight of one side can ever meet the other's: the
    # solver answers them from the two races, the brute force by search.
    rng = rng_of(21)
    checked = 0
    while checked < 15:
        layout = random_layout(rng)
        game = random_game(rng, layout, free_left=rng.randint(4, 8))
        if game is None or game.phase != MOVE:
            continue
        solver = Solver(layout)
        me, opp = game.knights[game.side], game.knights[game.side ^ 1]
        live = game.free() | me | opp
        if solver.closure(me, live) & opp:
            continue
        _check(game)
        checked += 1


def test_one_solver_for_positions_with_different_tile_supplies():
    text = "x..../RH.../..R.x/.H.RH R"
    full = parse_position(text)
    short = parse_position(text, tiles=4)
    solver = Solver(full.layout)
    for game in (full, short, full):
        assert solve_game(game, solver=solver)["result"] == \
            solve_game(game)["result"]
    assert outcome(short)[0] == (solve_game(short, solver=solver)["result"] == "win")
