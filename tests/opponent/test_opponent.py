"""The board's opponent: never an illegal action, forced wins found at the end."""

from brute import actions, after, outcome, random_game, random_layout, rng_of
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from attila.opponent.levels import BEGINNER, STRONG
from attila.opponent.planner import choose
from attila.game.notation import format_position, parse_position, play
from attila.game.rules import MOVE, OVER, SCORCH, SETUP

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _legal(game, text):
    if game.phase == SCORCH:
        # The whole turn, the move already made included.
        entry = game.history[-1]
        names = game.layout.names
        start = names[entry >> 8 & 0xFF] + "-" + names[entry & 0xFF] + ","
        assert text.startswith(start), (text, start)
        game.scorch(game.layout.index(text[len(start):]))
        return
    assert text in actions(game), (format_position(game), text)
    play(game, text)


@SETTINGS
@given(seed=st.integers(0, 2 ** 30), level=st.integers(0, 3),
       setup=st.booleans(), scorch_step=st.booleans(), short=st.booleans())
def test_opponent_never_plays_an_illegal_action(seed, level, setup, scorch_step, short):
    rng = rng_of(seed)
    layout = random_layout(rng, max_side=6)
    tiles = rng.randint(1, layout.size) if short else None
    game = random_game(rng, layout, stop_in_setup=setup, tiles=tiles)
    # A game stuck in setup or over: no action to choose (not counted as a pass).
    assume(game is not None and game.phase != OVER)
    event("in setup" if game.phase == SETUP else "in play")
    if scorch_step and game.phase == MOVE:
        a = rng.choice([i for i in range(layout.size) if game.movable() >> i & 1])
        d = game.destinations(a)
        game.move(a, rng.choice([i for i in range(layout.size) if d >> i & 1]))
    text = choose(game, level=level, budget_ms=10 ** 6, nodes=300, seed=seed)
    _legal(game, text)


def test_opponent_plays_whole_games_legally_at_every_level():
    rng = rng_of(5)
    for k in range(8):
        layout = random_layout(rng)
        game = random_game(rng, layout, stop_in_setup=True)
        if game is None:
            continue
        while game.phase != OVER:
            level = (k + game.side) % 4
            _legal(game, choose(game, level=level, budget_ms=10 ** 6, nodes=400))


def test_opponent_finds_the_forced_win_in_small_endgames():
    rng = rng_of(11)
    wins = 0
    tried = 0
    while wins < 25:
        layout = random_layout(rng)
        game = random_game(rng, layout, free_left=rng.randint(2, 6))
        if game is None or game.phase != MOVE:
            continue
        tried += 1
        won, plies = outcome(game)
        text = choose(game, level=STRONG, budget_ms=10 ** 6, nodes=10 ** 6)
        child_won, child_plies = outcome(after(game, text))
        if won:
            wins += 1
            assert not child_won, (format_position(game), text)
            assert child_plies + 1 == plies, "not the quickest win"
        else:
            assert child_plies + 1 == plies, "not the longest resistance"
    assert tried > wins


def test_strong_beats_beginner_most_of_the_time():
    from attila.game.geometry import from_rows
    from attila.game.rules import Game

    layout = from_rows(["....."] * 4)
    strong_wins = 0
    for k in range(6):
        game = Game(layout, k % 2)
        strong = k % 2  # the strong side moves second in half the games
        while game.phase != OVER:
            level = STRONG if game.side == strong else BEGINNER
            play(game, choose(game, level=level, budget_ms=10 ** 6, nodes=3000,
                                       seed=k + 1))
        strong_wins += game.winner == strong
    assert strong_wins >= 5, strong_wins


def test_same_seed_same_choice():
    game = parse_position("...../...../...../..... R")
    a = choose(game, level=BEGINNER, nodes=500, budget_ms=10 ** 6, seed=9)
    b = choose(game, level=BEGINNER, nodes=500, budget_ms=10 ** 6, seed=9)
    assert a == b and a in actions(game)
    assert game.phase == SETUP
