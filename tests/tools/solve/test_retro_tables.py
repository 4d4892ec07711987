"""The retrograde tables: the C kernel against the plain Python reference and the search solver."""

import pytest
from retrokit import SMALL, TINY, bellman_holds, layout, random_position, rng_of

from attila.game.notation import format_position
from attila.game.rules import SETUP, Game
from attila_tools.solve import retro, retro_ref
from attila_tools.solve.retro_index import Index, rank3, squeeze, triples
from attila_tools.solve.solver import Solver


@pytest.fixture(scope="module")
def solved():
    """The kernel's tables of a layout (2 threads), solved once for this file's
    tests, which only read them: the 17-square one takes most of its time."""
    made = {}

    def tables_of(rows):
        key = tuple(rows)
        if key not in made:
            made[key] = retro.solve(layout(rows), threads=2)
        return made[key]

    yield tables_of
    for tables in made.values():
        tables.close()


def test_ranks_number_every_placement_once():
    ix = Index(layout(TINY[0]))
    seen = set()
    for other in triples(ix.n):
        for mover3 in triples(ix.n - 3):
            rest = [i for i in range(ix.n) if not other >> i & 1]
            mover = sum(1 << rest[k] for k in range(ix.n - 3) if mover3 >> k & 1)
            seen.add(ix.row(mover, other))
    assert seen == set(range(ix.rows))
    assert rank3(0b111) == 0 and rank3(0b1011) == 1 and rank3(0b1101) == 2
    assert squeeze(0b10010, 0b00100) == 0b1010


@pytest.mark.parametrize("rows", TINY, ids=lambda r: "/".join(r))
def test_kernel_matches_the_python_reference_bit_for_bit(rows):
    lay = layout(rows)
    tables = retro.solve(lay, threads=2)
    reference = retro_ref.solve(lay)
    assert bytes(tables.data) == bytes(reference)
    # ... and the reference matches the search solver.
    ref = retro.Tables(lay, memoryview(reference))
    rng = rng_of(lay.size)
    for _ in range(30):
        mover, other, scorched = random_position(ref.index, rng)
        free = lay.all & ~(mover | other | scorched)
        got = Solver(lay).solve(mover, other, free, 0, resist=False)[0]
        assert got == ref.won(mover, other, scorched), (mover, other, scorched)


def test_kernel_gives_the_same_table_on_one_thread_and_on_three():
    lay = layout(SMALL[1])
    assert bytes(retro.solve(lay, threads=1).data) == bytes(retro.solve(lay, threads=3).data)


@pytest.mark.parametrize("rows", SMALL, ids=lambda r: "/".join(r))
def test_every_sampled_position_agrees_with_its_children(rows, solved):
    # The layers make the game acyclic, so a table that satisfies the rule
    # at every position is the solution: sample it.
    tables = solved(rows)
    rng = rng_of(len(rows[0]) * 7 + len(rows))
    for _ in range(1500):
        assert bellman_holds(tables, *random_position(tables.index, rng))


@pytest.mark.parametrize("rows", SMALL, ids=lambda r: "/".join(r))
def test_values_agree_with_the_search_solver(rows, solved):
    tables = solved(rows)
    lay = tables.layout
    rng = rng_of(3)
    wins = set()
    for _ in range(40):
        mover, other, scorched = random_position(tables.index, rng, free_at_least=3, free_at_most=7)
        solver = Solver(lay)
        free = lay.all & ~(mover | other | scorched)
        got = solver.solve(mover, other, free, 0, resist=False)[0]
        assert got == tables.won(mover, other, scorched), (mover, other, scorched)
        wins.add(got)
    assert wins == {True, False}


def test_value_of_a_game_in_every_phase(solved):
    tables = solved(SMALL[0])
    lay = tables.layout
    game = Game(lay)
    rng = rng_of(5)
    while game.phase == SETUP:
        game.place(rng.choice([i for i in range(lay.size) if game.placements() >> i & 1]))
    solver = Solver(lay)
    want = solver.solve(game.knights[0], game.knights[1], game.free(), 0, resist=False)[0]
    assert tables.value(game) == (want, None), format_position(game)
    assert tables.value(format_position(game)) == (want, None)
    # Mid-turn: the knight has moved, the scorch is due.
    a = [i for i in range(lay.size) if game.movable() >> i & 1][0]
    b = [i for i in range(lay.size) if game.destinations(a) >> i & 1][0]
    game.move(a, b)
    after = [not tables.won(game.knights[1], game.knights[0], game.scorched | 1 << c)
             for c in range(lay.size) if game.free() >> c & 1]
    assert tables.value(game) == (any(after), None)
    game.undo()
    # In setup the placements are searched on top of the tables.
    game.undo()
    game.undo()
    solver = Solver(lay)
    want = solver.solve(game.knights[0], game.knights[1], game.free(), 0, resist=False)[0]
    assert tables.value(game) == (want, None)


def test_value_refuses_a_short_tile_supply_and_another_layout():
    lay = layout(TINY[0])
    tables = retro.solve(lay)
    with pytest.raises(retro.RetroError, match="default supply of 3 tiles, the game has 2"):
        tables.value(Game(lay, tiles=2))
    with pytest.raises(retro.RetroError, match="another layout"):
        tables.value(Game(layout(TINY[1])))


def test_tables_saved_and_loaded_from_the_cache(tmp_path, monkeypatch):
    lay = layout(TINY[2])
    monkeypatch.setattr(retro, "CACHE", str(tmp_path))
    with pytest.raises(retro.RetroError, match="no cached tables"):
        retro.Tables.load(lay, solve_missing=False)
    made = retro.Tables.load(lay)
    again = retro.Tables.load(lay, solve_missing=False)
    assert bytes(again.data) == bytes(made.data)
    assert (tmp_path / retro.cache_path(lay).split("/")[-1]).exists()


def test_estimate_up_front():
    seconds, nbytes = retro.estimate(layout(["....."] * 4), threads=2)
    assert nbytes == 1140 * 680 * 256 * 8
    assert 10 < seconds < 600
