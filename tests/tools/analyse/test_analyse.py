"""`attila analyse GAME`: exact reports on small layouts whose tables solve in a blink."""

import os

import pytest

from attila.game import layoutfile
from attila.game.notation import replay
from attila.game.rules import OVER, Game
from attila.saves.savetext import dump
from attila.saves.store import Store
from attila_tools.analyse import analysis
from attila_tools import cli
from attila_tools.solve import retro

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SMALL = '{"name": "small", "custom": true, "rows": ["....", "....", "....", "--.."]}\n'
TINY = '{"name": "tiny", "custom": true, "rows": ["...", "...", "...", "-.."]}\n'
LEGEND = ("value for the side that acted, before -> after, with perfect play from there; "
          "'in N': the game ends N turns later (searched from 10 free squares down)")

# Huns place first, both sides throw a win away (setup and play).
HUNS_FIRST = ("first H\n@b3 @c2 @b2 @d1 @a2 @c1\n"
              "a2-b4,a3 d1-c3,d2 b3-d4,c4 c1-b3,d3 b2-a4,c1 c3-d1,a2 a4-b2,c3\n")
HUNS_FIRST_REPORT = [
    "  1. Huns   @b3          lost        -> lost",
    "  2. Romans @c2          won         -> won",
    "  3. Huns   @b2          lost        -> lost",
    "  4. Romans @d1          won         -> lost        "
    "threw the win away: @c3 wins (the only winning one)",
    "  5. Huns   @a2          won         -> won",
    "  6. Romans @c1          lost        -> lost in 5",
    "  7. Huns   a2-b4,a3     won in 5    -> won in 6",
    "  8. Romans d1-c3,d2     lost in 6   -> lost in 5",
    "  9. Huns   b3-d4,c4     won in 5    -> lost in 5   "
    "threw the win away: b2-d1,a2 wins (one of 9 winning turns)",
    " 10. Romans c1-b3,d3     won in 5    -> lost in 3   "
    "threw the win away: c1-d3,a2 wins (the only winning one)",
    " 11. Huns   b2-a4,c1     won in 3    -> won in 2",
    " 12. Romans c3-d1,a2     lost in 2   -> lost in 1",
    " 13. Huns   a4-b2,c3     won in 1    -> won, over",
    "Huns won; Huns threw the win away at action 9 (b3-d4,c4; b2-d1,a2 would have won); "
    "Romans threw the win away at action 4 (@d1; @c3 would have won), "
    "action 10 (c1-b3,d3; c1-d3,a2 would have won)",
]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """Tables solved into a folder of the test's own."""
    folder = tmp_path / "cache"
    monkeypatch.setattr(retro, "CACHE", str(folder))
    return folder


def run(capsys, *args):
    code = cli.main(["analyse"] + [str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_log_on_a_small_layout_action_by_action(tmp_path, capsys, cache):
    layout = write(tmp_path, "small.json", SMALL)
    game = write(tmp_path, "game.log", HUNS_FIRST)
    code, out, err = run(capsys, game, "--layout", layout)
    assert code == 0
    assert err == ("attila analyse: solving the tables of small once (under a second, "
                   "1.9 MB), kept in %s\n" % cache)
    assert out == ["%s: small, Huns placed first, 13 actions" % game, LEGEND] + HUNS_FIRST_REPORT
    # The second time the tables come from the cache, silently.
    assert run(capsys, game, "--layout", layout) == (0, out, "")


def test_turns_to_the_end_can_be_left_out(tmp_path, capsys, cache):
    layout = write(tmp_path, "small.json", SMALL)
    game = write(tmp_path, "game.log", HUNS_FIRST)
    code, out, err = run(capsys, game, "--layout", layout, "--turns", "0")
    assert out[1] == ("value for the side that acted, before -> after, with perfect play "
                      "from there; turns to the end not searched")
    assert out[8:12] == [
        "  7. Huns   a2-b4,a3     won         -> won",
        "  8. Romans d1-c3,d2     lost        -> lost",
        "  9. Huns   b3-d4,c4     won         -> lost        "
        "threw the win away: b2-d1,a2 wins (one of 9 winning turns)",
        " 10. Romans c1-b3,d3     won         -> lost        "
        "threw the win away: c1-d3,a2 wins (the only winning one)",
    ]
    assert out[-1] == HUNS_FIRST_REPORT[-1]


def test_a_saved_game_brings_its_layout_and_may_stop_mid_turn(tmp_path, capsys, cache):
    layout = layoutfile.loads(SMALL)[0]
    game = replay(Game(layout), "@c3 @c4 @b4 @b3 @a3 @d1 a3-c2,b2 b3-c1,a2 b4-d3,b3 "
                                "c4-a3,b4 c3-a4")
    path = str(tmp_path / "game.txt")
    Store(path).save(dump(game))
    before = open(path, "rb").read()
    code, out, err = run(capsys, path)
    assert code == 0, err
    assert out == [
        "%s: ..../..../..../--.., Romans placed first, 11 actions" % path,
        LEGEND,
        "  1. Romans @c3          lost        -> lost",
        "  2. Huns   @c4          won         -> won",
        "  3. Romans @b4          lost        -> lost",
        "  4. Huns   @b3          won         -> lost        "
        "threw the win away: @a2 wins (one of 2 winning placements)",
        "  5. Romans @a3          won         -> lost        "
        "threw the win away: @d3 wins (the only winning one)",
        "  6. Huns   @d1          won         -> won in 8",
        "  7. Romans a3-c2,b2     lost in 8   -> lost in 7",
        "  8. Huns   b3-c1,a2     won in 7    -> lost in 5   "
        "threw the win away: c4-a3,a2 wins (one of 3 winning turns)",
        "  9. Romans b4-d3,b3     won in 5    -> won in 4",
        " 10. Huns   c4-a3,b4     lost in 4   -> lost in 3",
        " 11. Romans c3-a4        won in 3    -> won",
        "not over: Romans to scorch, won with perfect play; Romans threw the win away at "
        "action 5 (@a3; @d3 would have won); Huns threw the win away at action 4 "
        "(@b3; @a2 would have won), action 8 (b3-c1,a2; c4-a3,a2 would have won)",
    ]
    assert open(path, "rb").read() == before  # read only
    # A save of a game not begun yet.
    Store(path).save(dump(Game(layout)))
    assert run(capsys, path)[1][2:] == ["not over: Romans to place, lost with perfect play"]


def test_the_summary_of_a_game_played_without_a_mistake(tmp_path, capsys, cache):
    # The winner of the tiny board plays the table's first winning action,
    # the loser the first legal one: nobody throws a win away.
    lay = layoutfile.loads(TINY)[0]
    tables = retro.Tables.load(lay)
    review = analysis.Review(tables, 0, [])
    game = Game(lay)
    items = []
    while game.phase != OVER:
        wins = review.winning_actions(game)
        item = wins[0] if wins else _any_action(game)
        items.append(item)
        replay(game, item)
    review = analysis.Review(tables, 0, items)
    assert not any(r.threw for r in review.rows())
    winner = "Romans" if review.rows()[0].before.won else "Huns"
    loser = "Huns" if winner == "Romans" else "Romans"
    assert review.summary() == "%s won; %s" % (winner, "; ".join(
        "%s kept the win" % winner if side == winner else "%s never had a win" % side
        for side in ("Romans", "Huns")))
    assert loser in review.summary()


def _any_action(game):
    from attila.game.notation import format_turn
    from attila.game.rules import SETUP
    from attila_tools.squares import bits

    if game.phase == SETUP:
        return "@" + game.layout.names[bits(game.placements())[0]]
    a = bits(game.movable())[0]
    b = bits(game.destinations(a))[0]
    game.move(a, b)
    c = bits(game.free())[0]
    game.undo()
    return format_turn(game.layout, a, b, c)


def _plain_distance(game):
    """Turns to the end by plain minimax over the Game (the winner hurries, the loser holds out)."""
    from attila.game.notation import format_turn
    from attila.game.rules import SETUP
    from attila_tools.squares import bits

    assert game.phase != SETUP
    if game.phase == OVER:
        return False, 0
    results = []
    for a in list(bits(game.movable())):
        for b in list(bits(game.destinations(a))):
            game.move(a, b)
            for c in list(bits(game.free())):
                game.scorch(c)
                won, d = _plain_distance(game)
                game.undo()
                results.append((not won, d + 1))
            game.undo()
    wins = [d for w, d in results if w]
    if wins:
        return True, min(wins)
    return False, max(d for _w, d in results)


def test_values_and_turns_agree_with_a_plain_minimax(cache):
    lay = layoutfile.loads(TINY)[0]
    tables = retro.Tables.load(lay)
    items = "@c4 @c3 @c1 @a3 @b4 @a4 c1-a2,b1 a4-b2,c2 a2-c1,a2 c3-a4,b3".split()
    review = analysis.Review(tables, 0, items)
    game = Game(lay)
    for k, item in enumerate(items):
        row = review.row(k)
        if k >= 6:
            assert (row.before.won, row.before.turns) == _plain_distance(game), item
        replay(game, item)
        if k >= 5:
            won, turns = _plain_distance(game)
            assert (row.after.won, row.after.turns) == (not won, turns), item


def test_layouts_beyond_the_tables_are_refused_in_one_line(tmp_path, capsys, cache):
    game = write(tmp_path, "game.log", "@a1 @h8\n")
    code, out, err = run(capsys, game, "--layout", os.path.join(ROOT, "boards", "diy-8x8.json"))
    assert (code, out) == (2, [])
    assert err == ("attila analyse: diy-8x8: 64 squares: out of reach of the retrograde "
                   "tables (7 to 20 squares; no analysis)\n")
    short = write(tmp_path, "short.json", SMALL.replace('"custom"', '"tiles": 5, "custom"'))
    code, out, err = run(capsys, write(tmp_path, "g.log", "@c1\n"), "--layout", short)
    assert (code, out) == (2, [])
    assert err == ("attila analyse: small: a supply of 5 tiles; the tables cover the "
                   "default (8)\n")
    assert not cache.exists()


def test_bad_games_and_options_are_one_line(tmp_path, capsys, cache):
    layout = write(tmp_path, "small.json", SMALL)
    bad = write(tmp_path, "bad.log", "@c1 @c1\n")
    assert run(capsys, bad, "--layout", layout) == (
        2, [], "attila analyse: %s: log item 2 '@c1': @c1: the square is taken\n" % bad)
    assert run(capsys, bad, "--turns", "-1")[2] == (
        "attila analyse: --turns must be 0 or more, not -1\n")
    assert run(capsys)[2] == ("attila analyse: the following arguments are required: GAME "
                              "(see attila analyse --help)\n")


def test_a_missing_kernel_is_one_line_before_the_wait(tmp_path, cache, capsys, monkeypatch):
    # Said before the tables' solve is announced, not after it.
    monkeypatch.setattr(retro, "LIBRARY", str(tmp_path / "_retro.so"))
    monkeypatch.setattr(retro, "_lib", None)
    game = tmp_path / "g.log"
    game.write_text("@c1 @a4\n")
    small = tmp_path / "small.json"
    small.write_text(SMALL)
    code, out, err = run(capsys, game, "--layout", small)
    assert (code, out) == (2, [])
    assert err == ("attila analyse: %s is missing: run `make` to build the retrograde "
                   "kernel\n" % os.path.relpath(str(tmp_path / "_retro.so")))


def test_the_tables_time_is_the_bench_figure_everywhere():
    # One figure (make bench's play tables of 4x5), not three: the solver's
    # estimate is it, and the pages give it only through the bench's include
    # (with where and when it was measured), never typed.
    import re

    with open(os.path.join(ROOT, "docs", "figures", "bench_retro.md")) as f:
        seconds = int(re.search(r"\(play tables (\d+) s\)", f.read()).group(1))
    lay = layoutfile.load(os.path.join(ROOT, "boards", "4x5.json"))[0]
    assert retro.estimate_text(retro.estimate(lay)[0]) == "about %d s" % seconds
    for page in ("tools/analyse.md", "inside/solvers.md", "play/simulator.md"):
        with open(os.path.join(ROOT, "docs", "pages", page)) as f:
            text = " ".join(f.read().split())
        assert "benchmarks.md#whole-layouts" in text, page
        assert "%d s" % seconds not in text, page
        assert "about a minute" not in text and "2 minutes" not in text, page
