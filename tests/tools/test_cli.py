"""The installed `attila` command: exact output on good input, one line and status 2 on bad."""

import json
import os
import subprocess
import sys
import types

import pytest

from attila_tools import cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_SCRIPT = os.path.join(os.path.dirname(sys.executable), "attila")
ATTILA = [_SCRIPT] if os.path.exists(_SCRIPT) else [sys.executable, "-m", "attila_tools.cli"]

MID = "R.x.H/.x.../H.x.R/..HR. R"
EMPTY = "...../...../...../..... R"
LOST = ".xRH./xR.Rx/.x.H./x.x.H R"
T_SETUP = "..R.../...H../--..--/--..--/--..--/--..-- R"
T_EMPTY = "....../....../--..--/--..--/--..--/--..-- R"


def run(*args, env=None):
    proc = subprocess.run(
        ATTILA + list(args), capture_output=True, text=True, cwd=ROOT, timeout=120,
        env=dict(os.environ, **env) if env else None,
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_moves_in_play():
    code, out, err = run("moves", MID)
    assert (code, err) == (0, "")
    assert out.count("\n") == 1
    assert json.loads(out) == {
        "side": "R",
        "phase": "play",
        "placements": [],
        "moves": ["a4-b2", "a4-c3", "d1-b2", "d1-c3", "d1-e3", "e2-c3", "e2-d4"],
        "turns": 77,
        "trapped": [],
        "winner": None,
    }
    # keys in a fixed order, all of them always there
    assert list(json.loads(out)) == [
        "side", "phase", "placements", "moves", "turns", "trapped", "winner",
    ]


def test_moves_in_setup_and_split_arguments():
    code, out, _ = run("moves", *EMPTY.split())
    assert code == 0
    report = json.loads(out)
    assert report["phase"] == "setup" and report["side"] == "R"
    assert report["placements"] == sorted("@%s%d" % (f, r) for f in "abcde" for r in range(1, 5))
    assert report["moves"] == [] and report["turns"] == 20 and report["winner"] is None


def test_moves_when_over():
    code, out, _ = run("moves", LOST)
    assert code == 0
    assert json.loads(out) == {
        "side": "R",
        "phase": "over",
        "placements": [],
        "moves": [],
        "turns": 0,
        "trapped": ["b3", "c4", "d3"],
        "winner": "H",
    }


def test_moves_with_a_short_supply():
    code, out, _ = run("moves", MID, "--tiles", "3")
    assert code == 0
    assert json.loads(out)["winner"] == "H"


def test_moves_on_a_layout_with_holes():
    code, out, _ = run("moves", T_SETUP)
    assert code == 0
    assert json.loads(out) == {
        "side": "R",
        "phase": "setup",
        "placements": [
            "@a5", "@a6", "@b5", "@b6", "@c1", "@c2", "@c3", "@c4", "@c5",
            "@d1", "@d2", "@d3", "@d4", "@d6", "@e5", "@e6", "@f5",
        ],
        "moves": [],
        "turns": 17,
        "trapped": [],
        "winner": None,
    }


def test_position_starting_with_a_hole_is_not_an_option():
    code, out, err = run("moves", "--..H/..... R")
    assert (code, err) == (0, "")
    assert json.loads(out)["phase"] == "setup"


@pytest.mark.parametrize(
    "args, want",
    [
        (("perft", EMPTY, "0"), "1"),
        (("perft", EMPTY, "1"), "20"),
        (("perft", EMPTY, "2"), "380"),
        (("perft", *EMPTY.split(), "3"), "6816"),
        (("perft", MID, "2"), "3100"),
        (("perft", T_EMPTY, "2"), "368"),
        (("perft", LOST, "1"), "0"),
    ],
)
def test_perft(args, want):
    assert run(*args) == (0, want + "\n", "")


def test_show_plain_text():
    code, out, err = run("show", LOST)
    assert (code, err) == (0, "")
    assert out == (
        "4  . x R H .\n"
        "3  x R . R x\n"
        "2  . x . H .\n"
        "1  x . x . H\n"
        "   a b c d e\n"
        "over: Huns win; no knight of the Romans can move\n"
        "trapped: b3 (Roman), d3 (Roman), c4 (Roman)\n"
    )
    assert "\x1b" not in out


def test_show_layout_with_holes_and_colour_on_request():
    code, out, _ = run("show", T_SETUP)
    assert code == 0
    assert out.splitlines() == [
        "6  . . R . . .",
        "5  . . . H . .",
        "4      . .",
        "3      . .",
        "2      . .",
        "1      . .",
        "   a b c d e f",
        "setup: Romans to place (Romans 1, Huns 1 placed)",
    ]
    code, out, _ = run("show", MID, "--colour", "always", env={"COLORTERM": "truecolor"})
    # The LED language's colours: blue Romans (0, 96, 255), amber Huns (255, 112, 0).
    assert code == 0 and "\x1b[1;38;2;0;96;255mR\x1b[0m" in out
    assert "\x1b[1;38;2;255;112;0mH\x1b[0m" in out
    assert "31m" not in out  # red is for errors only
    assert out.splitlines()[-1] == "play: Romans to move; 11 tiles left"


def test_show_colour_falls_back_to_256_colours_without_colorterm():
    """Under tmux's default a 24-bit amber shows as red: without COLORTERM=truecolor
    the nearest of the 256 colours is sent (amber 202, not red 196)."""
    code, out, _ = run("show", MID, "--colour", "always", env={"COLORTERM": ""})
    assert code == 0 and "38;2;" not in out and "48;2;" not in out
    assert "\x1b[1;38;5;27mR\x1b[0m" in out  # blue (0, 95, 255)
    assert "\x1b[1;38;5;202mH\x1b[0m" in out  # amber (255, 95, 0)
    assert "38;5;196m" not in out and "31m" not in out  # red is for errors only
    code, out, _ = run("show", MID, "--colour", "always", env={"COLORTERM": "24bit"})
    assert "\x1b[1;38;2;255;112;0mH\x1b[0m" in out


def _file(text):
    """The bytes of a save file holding `text` (attila.saves.savetext: with its checksum line)."""
    from attila.saves.savetext import checksum

    return (text + "end %d\n" % checksum(text)).encode()


def test_counts_of_one_are_singular(tmp_path):
    """'1 tile', '1 file x 2 ranks', '1 module': never '1 tiles'."""
    code, out, _ = run("show", MID, "--tiles", "4")
    assert out.splitlines()[-1] == "play: Romans to move; 1 tile left"
    from attila.game import layoutfile
    from attila_tools.draw.terminal import layout_lines

    strip = layoutfile.parse({"name": "strip", "custom": True, "rows": [".", "."]}, "x")
    lines = layout_lines(strip[0], strip[1])
    assert lines[0] == "strip: 2 squares, 1 file x 2 ranks, 1 module (custom)"
    from attila.game import layoutfile
    from attila.game.notation import replay
    from attila.game.rules import Game
    from attila.saves.savetext import dump
    from attila_tools.board.games import _describe

    layout = layoutfile.load(os.path.join(ROOT, "boards", "4x5.json"))[0]
    one = _file(dump(replay(Game(layout), "@a1")))
    assert _describe(one) == "1 action, Huns to play: @a1"


def test_games_counts_actions_as_the_board_does():
    """The board says 'Saved game found (8 actions, ...)' for six placements and a
    turn (a move and its scorch: two actions); attila games says the same 8."""
    from attila.game import layoutfile
    from attila.play.controller import Controller
    from attila.game.notation import replay
    from attila.game.rules import Game
    from attila.saves.savetext import dump
    from attila.saves.store import MemoryStore
    from attila_tools.board.games import _describe

    layout = layoutfile.load(os.path.join(ROOT, "boards", "4x5.json"))[0]
    game = replay(Game(layout), "@a1 @e4 @b1 @e3 @c4 @a3 b1-d2,b1")
    assert _describe(_file(dump(game))).startswith("8 actions, Huns to play: ")
    store = MemoryStore()
    store.save(dump(game))
    status = Controller(layout, store=store).status()
    assert status.startswith("Saved game found (8 actions, "), status


def test_layout_4x5():
    code, out, err = run("layout", "boards/4x5.json")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:12] == [
        "4x5: 20 squares, 5 files x 4 ranks, 4 modules (2x2, 2x2, 2x3, 2x3)",
        "",
        "4  2 2 3 3 3",
        "3  2 2 3 3 3",
        "2  1 1 4 4 4",
        "1  1 1 4 4 4",
        "   a b c d e",
        "",
        "chain (LED and sensor order), module by module:",
        "module 1: 2x2 at a1, turn 0",
        "  chain  0  local  0  a1",
        "  chain  1  local  1  b1",
    ]
    assert "module 3: 2x3 at c3, turn 90" in lines
    assert lines[-1] == "  chain 19  local  5  e1"
    assert len(lines) == 9 + 4 + 20


def test_layout_staircase():
    code, out, _ = run("layout", "boards/staircase.json")
    assert code == 0
    assert out.splitlines()[2:8] == [
        "5                4 4 4",
        "4            3 3 4 4 4",
        "3      2 2 2 3 3",
        "2  1 1 2 2 2",
        "1  1 1",
        "   a b c d e f g h i j",
    ]


def test_layout_diy_board():
    code, out, _ = run("layout", "boards/diy-8x8.json")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "diy-8x8: 64 squares, 8 files x 8 ranks, 1 module (custom)"
    assert "module 1: custom DIY board, squares in order" in lines
    assert lines[-1] == "  chain 63  local 63  h8"


BAD = [
    (("moves", "R.Q.H/.x.../H.x.R/..HR. R"),
     "attila: position: c4: 'Q' is not one of R H x . -"),
    (("moves", "R.x.H/.x.../H.x.R/..HR."),
     "attila: position 'R.x.H/.x.../H.x.R/..HR.': expected ROWS SIDE, like "
     "'R.x.H/.x.../H.x.R/..HR. R'"),
    (("moves", "R..../...../...../..... R"),
     "attila: position: Romans have placed 1 and Huns 0, so the Huns place next, not the Romans"),
    (("show", "...../...... R"), "attila: position: rank 1 has 6 places but rank 2 has 5"),
    (("moves", MID, "--tiles", "2"),
     "attila: position: 3 squares scorched but the supply is 2 tiles"),
    (("moves", MID, "--tiles", "-1"), "attila moves: --tiles must be >= 0, not -1"),
    (("moves",), "attila moves: the following arguments are required: POSITION "
     "(see attila moves --help)"),
    (("perft", EMPTY), "attila perft: give a POSITION and a DEPTH (see attila perft --help)"),
    (("perft", *EMPTY.split()), "attila perft: DEPTH is missing after the position"),
    (("perft", EMPTY, "two"), "attila perft: depth 'two' must be a whole number >= 0"),
    (("perft", EMPTY, "-1"), "attila perft: depth '-1' must be a whole number >= 0"),
    (("layout", "boards/none.json"),
     "attila: boards/none.json: cannot read (No such file or directory)"),
    (("layout", "tests/invalid_layouts/overlap.json"),
     "attila: tests/invalid_layouts/overlap.json: module 3 (2x3 at b3) overlaps "
     "module 2 (2x2 at a3) at b4"),
    (("layout", "tests/invalid_layouts/bad-json.json"),
     "attila: tests/invalid_layouts/bad-json.json: not valid JSON "
     "(Expecting ',' delimiter: line 5 column 5 (char 75))"),
    (("frobnicate",),
     "attila: argument COMMAND: invalid choice: 'frobnicate' (choose from 'moves', "
     "'perft', 'show', 'layout', 'sim', 'flash', 'games', 'analyse', 'solve', 'verify', "
     "'book', 'choose', 'card', 'hardware') (see attila --help)"),
    ((), "attila: give a command: moves, perft, show, layout, sim, flash, games, analyse, "
     "solve, verify, book, choose, card, hardware (see attila --help)"),
    (("solve", "R.Q.H/.x.../H.x.R/..HR. R"),
     "attila solve: position: c4: 'Q' is not one of R H x . -"),
    (("solve", MID, "--tiles", "-3"), "attila solve: --tiles must be >= 0, not -3"),
    # The plugins' option errors, one line too (not argparse's usage block).
    (("sim", "--first", "X"), "attila sim: argument --first: invalid choice: 'X' (choose "
     "from 'R', 'H') (see attila sim --help)"),
    (("sim", "--seconds", "0"), "attila sim: --seconds 0: must be more than 0 (the window "
     "closes after that long)"),
    (("sim", "--seconds", "-5"), "attila sim: --seconds -5: must be more than 0 (the window "
     "closes after that long)"),
    (("flash", "--bogus"), "attila flash: unrecognized arguments: --bogus "
     "(see attila flash --help)"),
    (("games", "--bogus"), "attila games: unrecognized arguments: --bogus "
     "(see attila games --help)"),
    (("card", "boards/4x5.json"), "attila card: give a LAYOUT and a DEST folder (or --check "
     "CARD)"),
    (("card", "--bogus"), "attila card: unrecognized arguments: --bogus "
     "(see attila card --help)"),
    (("book", "garbage"), "attila book: garbage: cannot read the certificate "
     "(No such file or directory)"),
]


@pytest.mark.parametrize("args, line", BAD)
def test_bad_input_is_one_line_and_status_2(args, line):
    code, out, err = run(*args)
    assert (code, out, err) == (2, "", line + "\n")


def test_solve_from_the_empty_board_points_to_from_setup_and_shows_progress():
    code, out, err = run("solve", "..../..../.... R")
    assert code == 0 and json.loads(out)["result"] == "win"
    lines = err.split("\n")
    assert lines[0] == ("attila solve: the empty board: every setup is searched here, "
                        "which takes long on a real layout; attila solve --from-setup "
                        "LAYOUT solves a whole layout once and keeps the result")
    assert "placement 1 of 12" in err and err.endswith("\n")  # a bar redrawn after '\r'

    # A position past setup: the answer alone.
    code, out, err = run("solve", MID)
    assert code == 0 and err == ""


def test_help_works():
    code, out, _ = run("--help")
    assert code == 0
    assert "moves" in out and "perft" in out and "layout" in out


# -- plugins (in process: the real plugin modules belong to other parts) ----


def test_missing_plugin(monkeypatch, capsys):
    monkeypatch.setitem(cli.PLUGINS, "nothing", ("attila_tools.no_such_module", "x"))
    assert cli.main(["nothing", "--port", "x"]) == 2
    captured = capsys.readouterr()
    assert captured.err == "attila: nothing is not available in this build\n"
    assert captured.out == ""


def test_plugin_gets_every_argument(monkeypatch):
    seen = []
    fake = types.ModuleType("attila_fake_plugin")
    fake.main = lambda argv: seen.append(argv) or 7
    monkeypatch.setitem(sys.modules, "attila_fake_plugin", fake)
    monkeypatch.setitem(cli.PLUGINS, "fake", ("attila_fake_plugin", "x"))
    assert cli.main(["fake", "--port", "/dev/x", "-h", "pos R"]) == 7
    assert seen == [["--port", "/dev/x", "-h", "pos R"]]


def test_plugin_bad_input_is_one_line(monkeypatch, capsys):
    from attila.errors import LayoutError

    fake = types.ModuleType("attila_fake_plugin2")

    def main(argv):
        raise LayoutError("boards/x.json: module 2 does not touch the others")

    fake.main = main
    monkeypatch.setitem(sys.modules, "attila_fake_plugin2", fake)
    monkeypatch.setitem(cli.PLUGINS, "fake2", ("attila_fake_plugin2", "x"))
    assert cli.main(["fake2"]) == 2  # named by its command, as every plugin's error
    assert capsys.readouterr().err == (
        "attila fake2: boards/x.json: module 2 does not touch the others\n"
    )


class _WatchdogBoard:
    """A flashed board that runs a watchdog, as much of one as calm() and the
    game fetch and layout switch need."""

    def __init__(self, port):
        import hashlib

        with open(os.path.join(ROOT, "boards", "profiles", "pico.json"), "rb") as f:
            profile = f.read()
        self.files_on = {"main.py": b"", "profile.json": profile}
        self.hashlib = hashlib

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def eval(self, code):
        return (5000, True, "maintenance" in self.files_on)

    def exec(self, code):
        self.files_on["maintenance"] = b""

    def hard_reset(self):
        pass

    reconnect = hard_reset

    def in_raw_repl(self):
        return True

    def files(self):
        return sorted(self.files_on)

    def read(self, path):
        return self.files_on.get(path)

    def write(self, path, data):
        self.files_on[path] = data

    def remove(self, path):
        self.files_on.pop(path, None)

    def hashes(self, paths):
        return {p: self.hashlib.sha256(self.files_on[p]).hexdigest() if p in self.files_on
                else None for p in paths}

    def reset(self, wait=0):
        return "attila: 4x5 on pico, 20 squares\n"


def test_games_and_layout_port_speak_for_themselves(monkeypatch, capsys):
    # They used to say "attila flash: the firmware on the board runs a watchdog".
    from attila_tools.board import flash, games

    monkeypatch.setattr(games, "SerialBoard", _WatchdogBoard)
    monkeypatch.setattr(flash, "SerialBoard", _WatchdogBoard)
    assert cli.main(["games", "--port", "/dev/null", "--list"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("attila games: the firmware on the board runs a watchdog (5000 ms)")
    assert "attila flash" not in out
    assert cli.main(["layout", os.path.join(ROOT, "boards", "4x5.json"), "--port", "/dev/null",
                     "--colour", "never"]) == 0
    out = capsys.readouterr().out
    assert "attila layout: the firmware on the board runs a watchdog (5000 ms)" in out
    assert "attila layout: copied" in out and "attila flash" not in out


def test_games_is_described_as_what_it_does():
    code, out, _ = run("--help")
    assert "fetch the saved game and game logs from a board" in out
    assert "play or replay" not in out


@pytest.mark.parametrize("rows, why", [
    (["........"], "no knight could ever move on it: no square is a knight's jump from "
                   "another (a knight jumps 2 squares one way and 1 the other)"),
    (["..", ".."], "no knight could ever move on it"),
])
def test_layout_refuses_a_board_where_no_game_can_be_played(tmp_path, rows, why):
    path = tmp_path / "rank.json"
    path.write_text(json.dumps({"name": "rank", "custom": True, "rows": rows}))
    code, out, err = run("layout", str(path))
    assert (code, out) == (2, "")
    assert err.startswith("attila: %s: %s" % (path, why)) and err.count("\n") == 1, err
    # Three ranks of two files: knights can jump there, and setup begins.
    path.write_text(json.dumps({"name": "ok", "custom": True, "rows": ["..", "..", ".."]}))
    assert run("layout", str(path))[0] == 0


def test_games_leaves_the_board_playing_its_game(monkeypatch, capsys, tmp_path):
    """README: after attila games the board restarts its game untouched. It used to
    wait at "MENU: resume": the reset looked like a power cut. attila games now leaves
    the `resume` marker, and main.py takes the game back without asking."""
    from attila_tools.board import flash, games

    monkeypatch.setattr(games, "SerialBoard", _WatchdogBoard)
    monkeypatch.setattr(flash, "SerialBoard", _WatchdogBoard)
    seen = {}
    monkeypatch.setattr(_WatchdogBoard, "reset",
                        lambda self, wait=0: seen.update(files=dict(self.files_on)) or "")
    assert cli.main(["games", "--port", "/dev/null", "--out", str(tmp_path)]) == 0
    assert "resume" in seen["files"] and "maintenance" not in seen["files"]


def test_the_tools_page_lists_every_command():
    # Every command is in its table, choose and card too.
    with open(os.path.join(ROOT, "docs", "pages", "tools", "index.md"), encoding="utf-8") as f:
        rows = [line for line in f if line.startswith("| `attila ")]
    listed = {line.split("`")[1].split()[1] for line in rows}
    assert listed == set(cli.COMMANDS) | set(cli.PLUGINS)
