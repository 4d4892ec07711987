"""Benchmarks of the portable core, shared by CPython and MicroPython.

bench_core.py (CPython) and mpy_core.py (MicroPython unix) import this
module, so both interpreters run the very same code on the same positions:
move generation and perft speed, and a full game played by a seeded linear
congruential generator (not `random`, whose sequences differ between the
interpreters). Heap figures need gc.mem_alloc(), i.e. MicroPython.
Each figure is printed as one line.
"""

import gc

from attila.game.rules import MOVE, OVER, SETUP

try:
    from time import ticks_diff, ticks_us

    def _now():
        return ticks_us()

    def _seconds(t0):
        return ticks_diff(ticks_us(), t0) / 1000000
except ImportError:  # CPython
    from time import perf_counter as _clock

    def _now():
        return _clock()

    def _seconds(t0):
        return _clock() - t0


# (name, position, perft depth); depths keep MicroPython around a second each.
POSITIONS = (
    ("4x5 empty", "...../...../...../..... R", 5),
    ("4x5 after-setup", "..R../..R.H/.H..R/..H.. R", 4),
    ("4x5 mid-game", "R.x.H/.x.../H.x.R/..HR. R", 4),
    ("T-shape mid-game", "--x.x--/--.x.--/x.RHR.H/H.-R... R", 4),
)

SEED = 2015


class Lcg:
    """Tiny seeded generator: the same numbers on every interpreter."""

    def __init__(self, seed=SEED):
        self.state = seed & 0x7FFFFFFF

    def below(self, n):
        """A number in 0..n-1."""
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def _nth(mask, k):
    """Index of the k-th (0-based) set bit of mask."""
    i = 0
    while True:
        if mask & 1:
            if not k:
                return i
            k -= 1
        mask >>= 1
        i += 1


def _bits(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def count_plies(game):
    """Number of legal plies (placements, or move+scorch pairs) right now."""
    if game.phase == SETUP:
        return _bits(game.placements())
    if game.phase != MOVE:
        return 0
    knight = game.layout.knight
    free = game.free()
    total = 0
    mine = game.movable()
    i = 0
    while mine:
        if mine & 1:
            # after the jump the vacated square is free, the landing one is not
            total += _bits(knight[i] & free) * _bits(free)
        mine >>= 1
        i += 1
    return total


def list_plies(game, out):
    """Put every legal ply into `out` (cleared first) as a small int; return the count.

    A placement is its square; a turn is a | b << 8 | c << 16 (knight a jumps
    to b, then c is scorched). This is what an opponent search enumerates.
    """
    del out[:]
    if game.phase == SETUP:
        m = game.placements()
        sq = 0
        while m:
            if m & 1:
                out.append(sq)
            m >>= 1
            sq += 1
        return len(out)
    if game.phase != MOVE:
        return 0
    knight = game.layout.knight
    free = game.free()
    mine = game.movable()
    a = 0
    while mine:
        if mine & 1:
            d = knight[a] & free
            b = 0
            while d:
                if d & 1:
                    s = (free | 1 << a) & ~(1 << b)
                    c = 0
                    while s:
                        if s & 1:
                            out.append(a | b << 8 | c << 16)
                        s >>= 1
                        c += 1
                d >>= 1
                b += 1
        mine >>= 1
        a += 1
    return len(out)


def _perft_game(game, depth):
    """Fallback perft through the Game's own actions and undo."""
    if depth == 0:
        return 1
    if game.phase == SETUP:
        if depth == 1:
            return _bits(game.placements())
        total = 0
        m = game.placements()
        sq = 0
        while m:
            if m & 1:
                game.place(sq)
                total += _perft_game(game, depth - 1)
                game.undo()
            m >>= 1
            sq += 1
        return total
    if game.phase != MOVE:
        return 0
    if depth == 1:
        return count_plies(game)
    total = 0
    mine = game.movable()
    a = 0
    while mine:
        if mine & 1:
            d = game.destinations(a)
            b = 0
            while d:
                if d & 1:
                    game.move(a, b)
                    s = game.scorchable()
                    c = 0
                    while s:
                        if s & 1:
                            game.scorch(c)
                            total += _perft_game(game, depth - 1)
                            game.undo()
                        s >>= 1
                        c += 1
                    game.undo()
                d >>= 1
                b += 1
        mine >>= 1
        a += 1
    return total


def perft_function():
    """(name, perft(game, depth)): attila.game.perft's when there is one."""
    try:
        from attila.game import perft as mod
    except ImportError:
        return "Game actions (attila.game.perft missing)", _perft_game
    for name in ("perft", "count"):
        fn = getattr(mod, name, None)
        if fn is not None:
            return "attila.game.perft." + name, fn
    return "Game actions (attila.game.perft has no perft())", _perft_game


def bench_movegen(seconds=0.5):
    """Move generation: legal plies listed per second, for each position.

    Lists every ply of the position again and again for about `seconds`.
    """
    from attila.game.notation import parse_position

    out = []
    for name, text, _ in POSITIONS:
        game = parse_position(text)
        plies = rounds = 0
        t0 = _now()
        while True:
            plies += list_plies(game, out)
            rounds += 1
            dt = _seconds(t0)
            if dt >= seconds:
                break
        assert len(out) == count_plies(game), (name, len(out), count_plies(game))
        print("movegen %s: %d plies x %d rounds = %d plies in %.3f s = %d plies/s"
              % (name, len(out), rounds, plies, dt, plies / dt))


def bench_perft():
    """Perft speed: leaf plies per second on each position.

    Also walks one ply less through the Game's own actions and undo (what
    the controller and the opponent use) and checks both counts agree.
    Returns False when they differ.
    """
    from attila.game.notation import parse_position

    label, perft = perft_function()
    print("perft implementation: %s" % label)
    ok = True
    for name, text, depth in POSITIONS:
        game = parse_position(text)
        t0 = _now()
        n = perft(game, depth)
        dt = _seconds(t0)
        print("perft %s depth %d: %d plies in %.3f s = %d plies/s"
              % (name, depth, n, dt, n / dt if dt > 0 else 0))
    for name, text, depth in POSITIONS:
        depth -= 1
        game = parse_position(text)
        t0 = _now()
        n = _perft_game(game, depth)
        dt = _seconds(t0)
        same = perft(parse_position(text), depth) == n
        ok = ok and same
        print("perft via Game actions+undo %s depth %d: %d plies in %.3f s = %d plies/s (%s)"
              % (name, depth, n, dt, n / dt if dt > 0 else 0,
                 "same count as " + label if same else "DIFFERS from " + label))
    return ok


def play_random(game, rng, sample=None):
    """Play a full game with rng's choices; returns the number of actions.

    sample(), when given, is called after every action.
    """
    actions = 0
    while game.phase != OVER:
        if game.phase == SETUP:
            m = game.placements()
            game.place(_nth(m, rng.below(_bits(m))))
        elif game.phase == MOVE:
            m = game.movable()
            a = _nth(m, rng.below(_bits(m)))
            d = game.destinations(a)
            game.move(a, _nth(d, rng.below(_bits(d))))
        else:
            s = game.scorchable()
            game.scorch(_nth(s, rng.below(_bits(s))))
        actions += 1
        if sample is not None:
            sample()
    return actions


def bench_random_game(games=20):
    """Speed of whole games (the same seeded games on every interpreter)."""
    from attila.game.geometry import from_rows
    from attila.game.rules import Game

    layout = from_rows(["....."] * 4)
    rng = Lcg()
    actions = 0
    t0 = _now()
    for _ in range(games):
        actions += play_random(Game(layout), rng)
    dt = _seconds(t0)
    print("random games 4x5: %d games, %d actions in %.3f s = %d actions/s"
          % (games, actions, dt, actions / dt if dt > 0 else 0))


def game_summary():
    """Play the seeded game once and describe it (used by the 64K check).

    Needs only attila.game.geometry and attila.game.rules, what a board's game loop needs.
    """
    from attila.game.geometry import from_rows
    from attila.game.rules import SIDES, Game

    game = Game(from_rows(["....."] * 4))
    n = play_random(game, Lcg())
    return "%d actions, winner %s, last %s" % (
        n, SIDES[game.winner], game.describe(game.history[-1]))


# -- heap (MicroPython only: gc.mem_alloc) ------------------------------------


def _alloc():
    gc.collect()
    return gc.mem_alloc()


def heap_figures(layout_path=None, games=20):
    """Heap of the core state: the 4x5 layout, a Game, and the peak over games.

    Module imports are measured by the caller (mpy_core.py), before anything
    of attila is imported. Returns layout + Game + peak of the first game, in
    bytes.
    """
    from attila.game.geometry import from_rows
    from attila.game.rules import Game

    if layout_path:
        from attila.game.layoutfile import load  # imported before the measurement
    before = _alloc()
    if layout_path:
        layout = load(layout_path)[0]
        how = layout_path
    else:
        layout = from_rows(["....."] * 4)
        how = "from_rows"
    after_layout = _alloc()
    print("heap 4x5 layout (%s): %d bytes" % (how, after_layout - before))
    rng = Lcg()
    first = worst = 0
    for k in range(games):
        game = None
        gc.collect()
        game = Game(layout)
        start = _alloc()
        if not k:
            print("heap new Game on 4x5: %d bytes" % (start - after_layout))
            new_game = start - after_layout
        peak = [0, 0]

        def sample():
            used = _alloc() - start
            if used > peak[0]:
                peak[0] = used
            peak[1] += 1

        play_random(game, rng, sample)
        if not k:
            first = peak[0]
            print("heap peak over a random 4x5 game: %d bytes above the new Game "
                  "(%d actions)" % (peak[0], peak[1]))
        worst = max(worst, peak[0])
    print("heap peak over %d random 4x5 games: %d bytes above the new Game"
          % (games, worst))
    return after_layout - before + new_game + first
