"""The replay's analysis on the simulator's panel: text mode, scripts, the window."""

import io
import json
import os

import pytest
import simkit

from attila.game import layoutfile
from attila_sim import app, review
from attila_sim.rig import Rig
from attila_tools.gamefiles import load_replay
from attila_tools.solve import retro

SMALL = '{"name": "small", "custom": true, "rows": ["....", "....", "....", "--.."]}\n'
GAME = ("first H\n@b3 @c2 @b2 @d1 @a2 @c1\n"
        "a2-b4,a3 d1-c3,d2 b3-d4,c4 c1-b3,d3 b2-a4,c1 c3-d1,a2 a4-b2,c3\n")
SUMMARY = ("Summary: Huns won; Huns threw the win away at 9; "
           "Romans threw the win away at 4, 10")


@pytest.fixture
def files(tmp_path, monkeypatch):
    """(layout, game log) on a 14-square board, tables solved into a folder of the test."""
    monkeypatch.setattr(retro, "CACHE", str(tmp_path / "cache"))
    layout = tmp_path / "small.json"
    layout.write_text(SMALL)
    game = tmp_path / "game.log"
    game.write_text(GAME)
    return str(layout), str(game)


def _said(out):
    return [line for line in out.splitlines()
            if line.startswith(("replay step", "Analysis", "Mistake", "Summary"))]


def test_each_replay_step_is_analysed_in_text_mode(files, monkeypatch, capsys):
    layout, game = files
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 4 + "next 5\n" + "\n" * 4 + "quit\n"))
    assert app.main(["--text", "--replay", game, "--layout", layout]) == 0
    assert _said(capsys.readouterr().out) == [
        "replay step 1 of 13: @b3",
        "Analysis: 1. Huns @b3: lost -> lost",
        "replay step 2 of 13: @c2",
        "Analysis: 2. Romans @c2: won -> won",
        "replay step 3 of 13: @b2",
        "Analysis: 3. Huns @b2: lost -> lost",
        "replay step 4 of 13: @d1",
        "Analysis: 4. Romans @d1: won -> lost",
        "Mistake: threw the win away: @c3 wins (the only winning one)",
        "replay step 9 of 13: b3-d4,c4",  # next 5: the last step's analysis
        "Analysis: 9. Huns b3-d4,c4: won in 5 -> lost in 5",
        "Mistake: threw the win away: b2-d1,a2 wins (one of 9 winning turns)",
        "replay step 10 of 13: c1-b3,d3",
        "Analysis: 10. Romans c1-b3,d3: won in 5 -> lost in 3",
        "Mistake: threw the win away: c1-d3,a2 wins (the only winning one)",
        "replay step 11 of 13: b2-a4,c1",
        "Analysis: 11. Huns b2-a4,c1: won in 3 -> won in 2",
        "replay step 12 of 13: c3-d1,a2",
        "Analysis: 12. Romans c3-d1,a2: lost in 2 -> lost in 1",
        "replay step 13 of 13: a4-b2,c3",
        "Analysis: 13. Huns a4-b2,c3: won in 1 -> won, over",
        SUMMARY,
    ]


def test_a_script_gets_the_analysis_with_each_next(files, monkeypatch, capsys):
    layout, game = files
    monkeypatch.setattr("sys.stdin", io.StringIO("next\nnext all\n"))
    assert app.main(["--replay", game, "--layout", layout, "--script", "-"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["analysis"] for r in records] == [
        ["Analysis: 1. Huns @b3: lost -> lost"],
        ["Analysis: 13. Huns a4-b2,c3: won in 1 -> won, over", SUMMARY],
    ]


def test_analysis_off_says_why(files, monkeypatch, capsys, tmp_path):
    layout, game = files
    monkeypatch.setattr("sys.stdin", io.StringIO("\nquit\n"))
    assert app.main(["--text", "--replay", game, "--layout", layout, "--no-analysis"]) == 0
    assert _said(capsys.readouterr().out)[1] == "Analysis off (--no-analysis)"
    # Tables too large to solve on the spot, and none cached.
    monkeypatch.setattr(review, "SOLVE_BYTES", 1000)
    monkeypatch.setattr("sys.stdin", io.StringIO("\nquit\n"))
    assert app.main(["--text", "--replay", game, "--layout", layout]) == 0
    assert _said(capsys.readouterr().out)[1] == (
        "Analysis off: the tables of small are not solved yet (1.9 MB, under a second: "
        "attila analyse GAME solves and keeps them)")
    assert not os.path.exists(tmp_path / "cache")
    # Beyond the tables' reach.
    far = tmp_path / "far.log"
    far.write_text("@a1 @h8\n")
    monkeypatch.setattr("sys.stdin", io.StringIO("\nquit\n"))
    assert app.main(["--text", "--replay", str(far), "--layout",
                     os.path.join(simkit.ROOT, "boards", "diy-8x8.json")]) == 0
    assert _said(capsys.readouterr().out)[1] == (
        "Analysis off: diy-8x8: 64 squares: out of reach of the retrograde tables "
        "(7 to 20 squares; no analysis)")


def test_the_window_panel_shows_the_step_and_its_mistake(files):
    from attila_sim.window import Window

    layout_path, game = files
    layout, modules, tiles = layoutfile.load(layout_path)
    first, items, tiles = load_replay(game, layout, tiles)
    rig = Rig(layout, modules, tiles, first=first)
    rig.start_replay(items, review.ReplayReview(layout, first, items, tiles))
    assert rig.details()[2:3] == ["Replay: step 0 of 13 (Space: next)"]
    for _ in range(4):
        rig.replay_step()
    rig.review_lines(wait=True)
    assert rig.details()[2:5] == [
        "Replay: step 4 of 13 (Space: next)",
        "Analysis: 4. Romans @d1: won -> lost",
        "Mistake: threw the win away: @c3 wins (the only winning one)",
    ]
    window = Window(rig)
    window.draw()
    assert window.text_bottom > window.text_top
