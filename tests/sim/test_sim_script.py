"""Scripted (headless) mode: lines of actions in, exact frames out."""

import io
import json
import os
import subprocess
import sys

import pytest

from attila.game import notation
from attila_sim import script
from attila_sim.actions import ActionError
from attila_sim.rig import Rig

import simkit

SCRIPT = """\
# a game begins; then a slip and an undo
@a1
put e4 H

lift b1
lift a1
put a1
undo
lift e4
drop
wait 450
"""


def rig():
    layout, modules, tiles = simkit.load()
    return Rig(layout, modules, tiles)


def run(text, fmt="json"):
    out = io.StringIO()
    code = script.run(rig(), text.splitlines(), out, fmt, "game.txt")
    return code, out.getvalue()


def firmware_records():
    """The records the script must give, computed on the firmware's own stack."""
    layout, modules, tiles = simkit.load()
    fw = simkit.Firmware(layout, modules, tiles)
    sq = layout.index
    recs = []

    def rec(line, do, error=None):
        c = fw.colours()
        r = {
            "line": line,
            "do": do,
            "t": fw.now,
            "mode": ("play", "correct", "over", "clear", "resume", "selftest")[fw.controller.mode],
            "status": fw.controller.status(),
            "position": notation.format_position(fw.controller.game),
            "leds": {layout.names[i]: "%02x%02x%02x" % c[i]
                     for i in range(layout.size) if any(c[i])},
            "strip": fw.strip.sent.hex(),
        }
        if error:
            r["error"] = error
        recs.append(r)

    fw.set(1 << sq("a1"))
    rec(2, "@a1")
    fw.set(fw.mask | 1 << sq("e4"))
    rec(3, "put e4 H")
    rec(5, "lift b1", "game.txt line 5: b1 is empty: nothing to lift")
    fw.set(fw.mask & ~(1 << sq("a1")))
    rec(6, "lift a1")
    fw.set(fw.mask | 1 << sq("a1"))
    rec(7, "put a1")
    fw.press(0, 80)
    rec(8, "undo")
    fw.set(fw.mask & ~(1 << sq("e4")))
    rec(9, "lift e4")
    rec(10, "drop")
    fw.advance(450)
    rec(11, "wait 450")
    return recs


def test_json_output_is_exactly_the_firmware_frames():
    code, out = run(SCRIPT)
    assert code == 1  # line 5 could not be done
    want = "".join(json.dumps(r) + "\n" for r in firmware_records())
    assert out == want


def test_json_records_read_as_expected():
    _, out = run(SCRIPT)
    recs = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in recs] == [2, 3, 5, 6, 7, 8, 9, 10, 11]
    # Each line: 60 ms of debounce, then until the board has saved (CALM_MS
    # after the last change of the squares).
    assert [r["t"] for r in recs] == [1070, 1610, 1610, 1670, 1730, 2270, 2810, 2810, 3260]
    assert [r["mode"] for r in recs] == [
        "play", "play", "play", "correct", "play", "correct", "play", "play", "play"]
    assert recs[0]["position"] == "...../...../...../R.... H"
    assert recs[-1]["position"] == "...../...../...../R.... H"
    # After @a1 every square but a1 may take the first Hun knight.
    assert sorted(recs[0]["leds"]) == sorted(n for n in simkit.load()[0].names if n != "a1")
    assert recs[3]["status"] == "put the Roman knight back on a1"
    assert recs[4]["status"] == "Romans: place a knight on a lit square (knight 2 of 3)"
    assert recs[5]["status"] == "Undo the placement on e4: take the Hun knight off e4"
    assert recs[2]["error"] == "game.txt line 5: b1 is empty: nothing to lift"
    assert all(len(r["strip"]) == 2 * 3 * 20 for r in recs)


def test_text_output_draws_the_board():
    code, out = run("@a1\nput e4 H\n", "text")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "line 1: @a1"
    assert lines[1].split() == list("abcde")
    assert lines[5].split()[:2] == ["1", "R"]
    assert "line 2: put e4 H" in lines
    assert "....H" not in out  # drawn, not written as a position
    assert lines[-2] == "Romans: place a knight on a lit square (knight 2 of 3)"


def test_a_bad_line_stops_before_anything_runs():
    with pytest.raises(ActionError) as e:
        run("@a1\nlift b9\n")
    assert str(e.value) == "game.txt line 2: lift b9: b9 is not a square of this layout"


def test_the_command_line_gives_the_same_output(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run(
        [sys.executable, "-m", "attila_sim", "--script", str(path)],
        capture_output=True, text=True, env=env, cwd=str(tmp_path),
    )
    assert p.returncode == 1
    _, want = run(SCRIPT)
    assert p.stdout == want.replace("game.txt", str(path))
    bad = tmp_path / "bad.txt"
    bad.write_text("@a1\nfly b1\n")
    p = subprocess.run(
        [sys.executable, "-m", "attila_sim", "--script", str(bad)],
        capture_output=True, text=True, env=env,
    )
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.startswith("attila sim: %s line 2: 'fly b1': expected" % bad)
    assert "Traceback" not in p.stderr


def test_sense_lines_replay_a_sensor_log():
    code, out = run("sense a1\nsense a1,e4\nsense -\n")
    assert code == 0
    recs = [json.loads(line) for line in out.splitlines()]
    assert recs[0]["position"] == "...../...../...../R.... H"
    assert recs[1]["position"] == "....H/...../...../R.... R"
    # Both knights gone at once: not an action; the board asks for them back.
    assert recs[2]["mode"] == "correct"
    assert "a1" in recs[2]["status"] and "e4" in recs[2]["status"]


def test_replay_steps_in_a_script(tmp_path):
    game = tmp_path / "game.log"
    game.write_text("# a test game\n@a1 @e4 @b1\n@e3 @c4 @a3\nb1-d2,b1\n")
    layout, modules, tiles = simkit.load()
    from attila_tools.gamefiles import load_replay

    first, items, tiles = load_replay(str(game), layout, tiles)
    r = Rig(layout, modules, tiles, first=first)
    r.start_replay(items)
    out = io.StringIO()
    assert script.run(r, ["next 2", "next all", "next"], out) == 0
    recs = [json.loads(line) for line in out.getvalue().splitlines()]
    assert recs[0]["replay"] == "replay step 2 of 7: @e4"
    assert recs[1]["replay"] == "replay step 7 of 7: b1-d2,b1"
    assert recs[1]["position"] == "..R.H/H...H/...R./Rx... H"
    assert recs[2]["replay"] == "replay: done"


def test_attila_sim_goes_through_the_attila_command(tmp_path, capsys):
    from attila_tools import cli

    path = tmp_path / "game.txt"
    path.write_text("@c2\n")
    assert cli.main(["sim", "--script", str(path), "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("line 1: @c2\n")


def state(r):
    """Everything a line could change: the clock, the game, the pieces, the hand."""
    t = r.table
    return (r.now, r.position(), r.mode_name(), t.occupied(),
            [(p.kind, p.where) for p in t.pieces], [p.kind for p in t.hand])


def test_a_failed_line_changes_nothing():
    from attila_sim.table import TableError

    r = rig()
    # The Hun knight taken for a failed 'put a1' does not stay in the hand.
    r.do(actions_of(r, "@a1"))
    for line in ("put a1", "put a1 H", "b1-c3", "lift b1"):
        before = state(r)
        with pytest.raises(TableError):
            r.do(actions_of(r, line))
        assert state(r) == before, line
    with pytest.raises(TableError, match="the hand is empty"):
        r.do(actions_of(r, "drop"))
    for item in ("@e4", "@b1", "@e3", "@c4", "@a3"):
        r.do(actions_of(r, item))
    # A whole turn whose scorch square is taken: not even the move happens.
    before = state(r)
    with pytest.raises(TableError, match="e4 is taken"):
        r.do(actions_of(r, "b1-d2,e4"))
    assert state(r) == before
    r.do(actions_of(r, "lift b1"))
    before = state(r)
    for line in ("put c3 R", "raw 0x1fffff", "next"):  # no Roman left beside; 21 bits; no replay
        with pytest.raises(TableError):
            r.do(actions_of(r, line))
        assert state(r) == before, line
    r.do(actions_of(r, "put d2"))
    r.do(actions_of(r, "put b1 x"))
    assert r.position() == "..R.H/H...H/...R./Rx... H"


def actions_of(r, line):
    from attila_sim import actions

    return actions.parse(r.layout, line)


def test_a_failed_replay_step_is_not_used_up(tmp_path):
    layout, modules, tiles = simkit.load()
    r = Rig(layout, modules, tiles)
    r.start_replay(["@a1", "@e4"])
    r.do(actions_of(r, "put a1 x"))  # a tile in the way of the first step
    out = io.StringIO()
    assert script.run(r, ["next all", "lift a1", "drop", "next all"], out) == 1
    recs = [json.loads(line) for line in out.getvalue().splitlines()]
    assert recs[0]["error"] == "script line 1: replay step 1 @a1: a1 is taken: lift its piece first"
    assert recs[3]["replay"] == "replay step 2 of 2: @e4"
    assert recs[3]["position"] == "....H/...../...../R.... R"


def test_text_mode_lines_show_help_and_quit_work_in_a_script():
    """The README: a script has the same lines as text mode (plus sense, raw,
    selftest). show and help do nothing to the board; quit ends the script."""
    code, out = run("@a1\nshow\nhelp\nquit\n@e4\n")
    assert code == 0
    recs = [json.loads(line) for line in out.splitlines()]
    assert [r["do"] for r in recs] == ["@a1", "show", "help"]
    assert recs[1]["position"] == recs[2]["position"] == "...../...../...../R.... H"
    assert recs[1]["t"] == recs[2]["t"] == recs[0]["t"]  # no clock runs
    code, out = run("show\nhelp\n", fmt="text")
    assert out.startswith("line 1: show\n     a  b  c  d  e\n")
    assert "line 2: help\nWhat you can type (squares are named like b3):\n" in out


def test_a_bad_line_lists_the_lines_of_its_own_mode():
    from attila_sim import actions

    layout = simkit.load()[0]
    with pytest.raises(ActionError) as e:
        actions.parse(layout, "fly b1")
    assert str(e.value) == (
        "'fly b1': expected @SQ, a turn like b1-c3,d4, lift SQ, put SQ [R|H|x], drop, undo, "
        "menu, hint, hold BUTTON MS, wait MS, clear, next [N|all], show, help, quit, selftest, "
        "sense SQ,SQ... or raw BITS")
    # Text mode points to help and menu instead (tests/sim/test_sim_text.py).
    with pytest.raises(ActionError) as e:
        actions.parse(layout, "fly b1", script=False)
    assert str(e.value) == "'fly b1' is not a command (type help for what you can type, " \
        "menu for a hint)"


def test_stdin_scripts_name_stdin_in_their_errors(monkeypatch, capsys):
    from attila_sim import app

    monkeypatch.setattr("sys.stdin", io.StringIO("@a1\nlift b1\n"))
    assert app.main(["--script", "-", "--format", "text"]) == 1
    out = capsys.readouterr().out
    assert "line 2: lift b1\nerror: stdin line 2: b1 is empty: nothing to lift\n" in out
    assert "error: - line" not in out


def test_text_format_says_the_replay_step_and_its_analysis(tmp_path):
    game = tmp_path / "game.log"
    game.write_text("@a1 @e4 @b1\n@e3 @c4 @a3\nb1-d2,b1\n")
    layout, modules, tiles = simkit.load()
    from attila_tools.gamefiles import load_replay
    from attila_sim.review import ReplayReview

    first, items, tiles = load_replay(str(game), layout, tiles)
    r = Rig(layout, modules, tiles, first=first)
    r.start_replay(items, ReplayReview(layout, first, items, tiles))
    jsonout, textout = io.StringIO(), io.StringIO()
    assert script.run(r, ["next 7"], jsonout) == 0
    rec = json.loads(jsonout.getvalue())
    r = Rig(layout, modules, tiles, first=first)
    r.start_replay(items, ReplayReview(layout, first, items, tiles))
    assert script.run(r, ["next 7"], textout, "text") == 0
    text = textout.getvalue()
    assert text.startswith("line 1: next 7\nreplay step 7 of 7: b1-d2,b1\n")
    assert rec["analysis"] and "\n".join(rec["analysis"]) in text
