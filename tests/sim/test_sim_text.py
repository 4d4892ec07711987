"""Text mode and the command line: games typed on stdin, fallbacks, replays."""

import io
import os

import pytest

from attila.leds import palette
from attila.game.geometry import popcount
from attila.game.notation import replay
from attila.game.rules import Game
from attila_sim import app, text
from attila_sim.rig import Rig
from attila_tools.draw import terminal as draw

import simkit

GAME = "@a1\n@e4\n@b1\n@e3\n@c4\n@a3\nb1-d2,b1\ne3-c2,e3\n"


def play(lines, **kw):
    layout, modules, tiles = simkit.load()
    rig = Rig(layout, modules, tiles, **kw)
    out = io.StringIO()
    code = text.run(rig, io.StringIO(lines), out, colour=False)
    return code, out.getvalue(), rig


def test_a_few_turns_typed_in():
    code, out, rig = play(GAME + "lift d2\nput b3\nput c1 x\nquit\n")
    assert code == 0
    assert rig.position() == "..R.H/HR..x/..H../Rxx.. H"
    assert "> b1-d2,b1\n" in out
    # The last board drawn: pieces, lit squares in brackets, the status.
    tail = out.split("> put c1 x\n")[1].splitlines()
    assert tail[1:5] == [
        "  4  .  .  R  . [H]",
        "  3  H  R  .  .  x",
        "  2  .  . [H] .  .",
        "  1  R  x  x  .  .",
    ]
    assert tail[6] == "lit: c2 #%02x%02x%02x, e4 #%02x%02x%02x" % (palette.HUN + palette.HUN)
    assert tail[7] == "beside the board: 0 R, 0 H, 11 tiles"
    assert tail[8] == "Huns: lift a knight that can move (c2 e4)"


def test_mistakes_are_answered_not_fatal():
    code, out, rig = play("@a1\nlift c3\nfly\n@a1\nhelp\nundo\nlift a1\ndrop\n")
    assert code == 0
    assert "? c3 is empty: nothing to lift" in out
    assert "? 'fly' is not a command (type help for what you can type, menu for a hint)" in out
    assert "? a1 is taken: lift its piece first" in out
    assert "lift b1        pick up the piece on b1" in out  # help
    assert "Undo the placement on a1: take the Roman knight off a1" in out
    assert rig.controller.game.history == []
    assert rig.table.held() is None  # the knight taken for the failed @a1 went back
    assert out.splitlines()[-2] == "Romans: place a knight on a lit square (knight 1 of 3)"
    assert out.endswith("> ")


def test_every_line_text_mode_cannot_read_points_to_help_and_menu():
    # A one-word mistake (the word a player guesses) and a two-word one alike.
    code, out, rig = play("fly\nfly b1\nlift\nc3\na1-\n")
    look = " (type help for what you can type, menu for a hint)\n"
    assert "\n? 'fly' is not a command" + look in out
    assert "\n? 'fly b1' is not a command" + look in out
    assert "\n? 'lift': expected lift SQ" + look in out
    assert "\n? 'c3': expected a turn like b1-c3,d4 or a placement like @b1" + look in out
    assert "\n? 'a1-': expected a turn like b1-c3,d4 or a placement like @b1" + look in out
    assert rig.controller.game.history == []


def test_hint_is_menus_short_press_where_it_gives_one():
    code, out, rig = play("@a1\nhint\nhint\nhint\n")
    lines = out.splitlines()
    assert lines[-2] == "Huns: place a knight on a lit square (knight 1 of 3) (hint: put a Hun " \
        "knight on c3)"
    # Asked again: the hint stays; no press more counts towards a new game
    # (MENU three times within 2 s).
    assert rig.mode_name() == "play" and rig.controller.plan.hinting
    assert "  hint           the board's best action, lit (MENU's short press)" in text.HELP


def test_hint_where_menu_does_something_else_says_what_it_does():
    code, out, rig = play("@a1\nhold menu 1500\nhint\n")  # a new game: the board is cleared
    assert "? no hint now: the board is being cleared for a new game (undo: back to the game)\n" \
        in out
    code, out, rig = play("@a1\nhint\n", computer=1)
    assert "? no hint now: the board plays the Huns (its action is lit)\n" in out


def test_the_boards_action_is_said_once_as_a_whole_before_its_steps():
    # Its whole action, in notation and in words, then the board whose status
    # line guides the first step; the steps that follow do not say it again.
    layout, modules, tiles = simkit.load()
    rig = Rig(layout, modules, tiles, computer=1)  # strong: no noise, the same every run
    told, after = [], {}
    for line in ("@a1", "@c3", "@b1", "@c2", "@e4", "@c1", "b1-d2,b1", "lift c1", "put b3",
                 ",c4"):
        out = io.StringIO()
        text.run(rig, io.StringIO(line + "\n"), out, colour=False)
        lines = out.getvalue().splitlines()
        for k, x in enumerate(lines):
            if x.startswith("Huns: "):
                told.append((line, x))
                after[line] = lines[k + 1:]
    assert told == [("@a1", "Huns: @c3 (a knight on c3)"), ("@b1", "Huns: @c2 (a knight on c2)"),
                    ("@e4", "Huns: @c1 (a knight on c1)"),
                    ("b1-d2,b1", "Huns: c1-b3,c4 (the knight on c1 to b3, then scorch c4)")]
    # Then the board, drawn with the status line of the first step.
    assert after["b1-d2,b1"][0] == "     a  b  c  d  e"
    assert after["b1-d2,b1"][8] == "The board plays the Huns: lift the knight on c1"
    assert rig.position() == "..x.R/.HH../..HR./Rx... R"


def test_a_move_onto_a_scorched_square_says_it_is_scorched():
    # b1 was scorched: "b1 is taken: lift its piece first" had the player
    # lift the tile. Nothing of the turn is done.
    code, out, rig = play(GAME + "d2-b1,a2\n")
    assert "? b1 is scorched: a knight cannot land there\n" in out
    assert "taken" not in out
    assert rig.position() == "..R.H/H...x/..HR./Rx... R"
    assert rig.table.held() is None


def test_colour_mode_paints_squares_with_their_led_colour(monkeypatch):
    monkeypatch.setenv("COLORTERM", "truecolor")
    layout, modules, tiles = simkit.load()
    rig = Rig(layout, modules, tiles)
    rig.do([("take", "R"), ("put", layout.index("a1"))])
    lines = text.render(rig, colour=True)
    r, g, b = rig.colours()[layout.index("b1")]
    assert (r, g, b) != (0, 0, 0)
    assert "\x1b[48;2;%d;%d;%dm" % (r, g, b) in lines[4]
    # The Hun colour at the power-capped level, as the LEDs get it.
    level = rig.leds.level
    assert (r, g, b) == tuple(c * level // 255 for c in palette.HUN)


def test_no_display_falls_back_to_text(monkeypatch, capsys):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setattr("sys.stdin", io.StringIO("@c2\nquit\n"))
    assert app.main(["--layout", simkit.LAYOUT_4X5]) == 0
    out, err = capsys.readouterr()
    assert "no display found" in err
    assert "text mode" in out
    assert "> @c2" in out


def test_a_display_that_does_not_answer_falls_back_to_text():
    # DISPLAY names an X server that is not there: SDL used to fall back to
    # its invisible offscreen driver (after an XDG_RUNTIME_DIR warning).
    import subprocess
    import sys

    env = dict(os.environ, DISPLAY=":9917", PYTHONPATH=os.pathsep.join(sys.path))
    for name in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    proc = subprocess.run([sys.executable, "-m", "attila_sim", "--seconds", "5"],
                          input="@c2\nquit\n", capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 0
    assert proc.stderr == ("attila sim: cannot open a window: the display :9917 does not answer "
                           "(SDL: x11 not available); playing in text mode\n")
    assert "text mode" in proc.stdout and "> @c2" in proc.stdout


def test_a_wayland_display_that_cannot_be_reached(monkeypatch):
    from attila_sim import window

    for name in ("SDL_VIDEODRIVER", "DISPLAY", "XDG_RUNTIME_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-7")
    monkeypatch.setattr("sys.platform", "linux")
    with pytest.raises(RuntimeError) as e:
        window.open_display()
    assert str(e.value) == ("the Wayland display wayland-7 cannot be reached "
                            "(XDG_RUNTIME_DIR is not set)")
    assert "SDL_VIDEODRIVER" not in os.environ


def test_has_display():
    assert not app.has_display({}) or not __import__("sys").platform.startswith("linux")
    assert app.has_display({"SDL_VIDEODRIVER": "dummy"})
    assert app.has_display({"DISPLAY": ":0"})
    assert app.has_display({"WAYLAND_DISPLAY": "wayland-0"})


def test_replay_in_text_mode(tmp_path, monkeypatch, capsys):
    log = tmp_path / "game.log"
    log.write_text("first H\n@a1 @e4 @b1\n@e3 @c4 @a3 b1-d2,b1\n")
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\nnext all\nquit\n"))
    assert app.main(["--text", "--replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "replay step 1 of 7: @a1" in out
    assert "replay step 2 of 7: @e4" in out
    assert "replay step 7 of 7: b1-d2,b1" in out
    assert out.endswith("> quit\n")
    # Huns placed first: the Hun knight went on a1.
    assert "  1  H  x" in out


def test_replay_of_a_saved_game(tmp_path, monkeypatch, capsys):
    from attila.game.notation import replay
    from attila.game.rules import Game
    from attila.saves.savetext import dump
    from attila.saves.store import Store

    layout = simkit.load()[0]
    game = replay(Game(layout), "@a1 @e4 @b1 @e3 @c4 @a3 b1-d2,b1")
    path = str(tmp_path / "board.save")
    Store(path).save(dump(game))
    monkeypatch.setattr("sys.stdin", io.StringIO("next all\nquit\n"))
    assert app.main(["--text", "--replay", path]) == 0
    out = capsys.readouterr().out
    assert "replay step 7 of 7: b1-d2,b1" in out


def test_bad_input_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"modules": []}')
    assert app.main(["--text", "--layout", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("attila sim: %s" % bad) and err.count("\n") == 1
    log = tmp_path / "game.log"
    log.write_text("@a1 @a1\n")
    assert app.main(["--text", "--replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert "log item 2 '@a1'" in err and err.count("\n") == 1
    assert app.main(["--text", "--replay", str(tmp_path / "none.log")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_save_and_resume(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "game.save")
    monkeypatch.setattr("sys.stdin", io.StringIO("@a1\n@e4\nquit\n"))
    assert app.main(["--text", "--save", path]) == 0
    capsys.readouterr()
    assert os.path.exists(path)
    # Start again: the pieces are still on the board, the board offers to resume.
    monkeypatch.setattr("sys.stdin", io.StringIO("menu\n@b1\nquit\n"))
    assert app.main(["--text", "--save", path]) == 0
    out = capsys.readouterr().out
    assert "Saved game found (2 actions" in out
    assert "....H/...../...../RR... H" not in out  # positions are drawn, not written
    assert "Huns: place a knight on a lit square (knight 2 of 3)" in out


def test_screenshot_option(tmp_path):
    pygame = pytest.importorskip("pygame")
    log = tmp_path / "game.log"
    log.write_text("@a1 @e4 @b1 @e3 @c4 @a3\n")
    png = tmp_path / "shot.png"
    assert app.main(["--replay", str(log), "--screenshot", str(png)]) == 0
    shot = pygame.image.load(str(png))
    assert shot.get_size()[0] > 600


def test_a_damaged_save_is_refused(tmp_path, capsys):
    from attila.game.notation import replay
    from attila.game.rules import Game
    from attila.saves.savetext import dump
    from attila.saves.store import Store

    game = replay(Game(simkit.load()[0]), "@a1 @e4")
    path = tmp_path / "board.save"
    Store(str(path)).save(dump(game))
    path.write_text(path.read_text().replace("@e4", "@e3"))
    assert app.main(["--text", "--replay", str(path)]) == 2
    assert "checksum does not match" in capsys.readouterr().err


def test_a_save_from_another_layout_brings_its_own(tmp_path, monkeypatch, capsys):
    from attila.game.notation import replay
    from attila.game.rules import Game
    from attila.saves.savetext import dump
    from attila.saves.store import Store

    t_shape = simkit.load(os.path.join(simkit.ROOT, "boards", "t-shape.json"))[0]
    game = replay(Game(t_shape), "@a6 @f6 @c1")
    path = str(tmp_path / "game.txt")
    Store(path).save(dump(game))
    monkeypatch.setattr("sys.stdin", io.StringIO("next all\nquit\n"))
    assert app.main(["--text", "--replay", path]) == 0
    out = capsys.readouterr().out
    assert "text mode (t-shape)" in out
    assert "replay step 3 of 3: @c1" in out
    # Asked for another layout by name: refused, with the reason.
    assert app.main(["--text", "--replay", path, "--layout", simkit.LAYOUT_4X5]) == 2
    assert "it is for the layout" in capsys.readouterr().err
    # No file in boards/ has these squares: one DIY module of them.
    from attila.game.geometry import from_rows

    odd = from_rows(["..", ".-"])
    layout, modules, tiles = app.layout_like(odd)
    assert layout == odd and len(modules) == 1


def test_a_game_against_the_computer_following_its_leds():
    """The board plays the Huns: a person moves their pieces where it says."""
    import re

    from attila.opponent.chooser import action_text
    from attila.play.plan import first_action
    from attila_sim import actions

    layout, modules, tiles = simkit.load()
    rig = Rig(layout, modules, tiles, computer=1, level=0)
    for _ in range(200):
        if rig.mode_name() == "over":
            break
        assert rig.mode_name() == "play", rig.status()
        status = rig.status()
        if status.startswith("The board plays the Huns: "):
            what = status.split(": ", 1)[1]
            square = re.search(r"on (\w\d+)$", what).group(1)
            if what.startswith("lift"):
                line = "lift " + square
            elif what.startswith("put a knight"):
                line = "put %s H" % square
            elif what.startswith("put a tile"):
                line = "put %s x" % square
            else:
                line = "put " + square
        else:
            game = rig.controller.game
            line = action_text(game.layout, first_action(game))
        rig.do(actions.parse(layout, line))
    assert rig.mode_name() == "over"
    assert "Game over" in rig.status()


def test_a_line_that_is_not_utf8_is_answered_not_fatal():
    # Piped input in a locale whose stdin decodes strictly (en_US.UTF-8).
    layout, modules, tiles = simkit.load()
    rig = Rig(layout, modules, tiles)
    stdin = io.TextIOWrapper(io.BytesIO(b"@a1\n\xff\xfe caf\xe9\n@e4\nquit\n"),
                             encoding="utf-8", errors="strict")
    out = io.StringIO()
    assert text.run(rig, stdin, out, colour=False) == 0
    assert "? '\ufffd\ufffd caf\ufffd' is not a command (type help" in out.getvalue()
    assert rig.position() == "....H/...../...../R.... R"


@pytest.mark.parametrize("speed", ["nan", "inf", "-inf", "0", "-1", "100"])
def test_a_speed_out_of_range_is_refused_in_one_line(speed, capsys):
    assert app.main(["--text", "--speed=" + speed]) == 2
    err = capsys.readouterr().err
    assert err == "attila sim: --speed %s: must be a number from 0.0625 (1/16) to 64\n" % speed


def test_colour_mode_without_truecolour_sends_the_nearest_of_256_colours(monkeypatch):
    """tmux's default shows a 24-bit amber as red; without COLORTERM the squares
    get the nearest of the 256 colours, and the Huns' amber stays orange."""
    monkeypatch.delenv("COLORTERM", raising=False)
    layout, modules, tiles = simkit.load()
    rig = Rig(layout, modules, tiles)
    rig.do([("take", "R"), ("put", layout.index("a1"))])
    lines = text.render(rig, colour=True)
    assert not any("38;2;" in line or "48;2;" in line for line in lines)
    c = rig.colours()[layout.index("b1")]  # lit amber: the Huns place next
    assert "\x1b[48;5;%dm" % draw.colour256(c) in lines[4]
    assert draw.colour256(palette.HUN) == 202 and draw.colour256(palette.ERROR) == 196


def _saved_at_12_free(computer):
    """A rig on a saved game at 12 free squares, Romans to move (the strong
    level's hard stage: its longest search)."""
    from attila.saves.savetext import dump
    from attila.saves.store import MemoryStore

    layout, modules, tiles = simkit.load()
    game = replay(Game(layout), "@a1 @b1 @c1 @d1 @e1 @a2 a1-c2,a1 b1-d2,b1")
    assert popcount(game.free()) == 12
    store = MemoryStore()
    store.save(dump(game))
    return Rig(layout, modules, tiles, computer=computer, store=store)


def test_the_board_thinks_to_the_end_without_a_wait():
    # The move and the hint come by themselves, as in the window.
    rig = _saved_at_12_free(0)
    out = io.StringIO()
    text.run(rig, io.StringIO("menu\nquit\n"), out, colour=False)
    after = out.getvalue().split("> menu\n")[1].splitlines()
    assert after[8] == "The board plays the Romans: thinking..."
    assert after[-2].startswith("The board plays the Romans: lift the knight on ")
    rig = _saved_at_12_free(-1)
    out = io.StringIO()
    text.run(rig, io.StringIO("menu\nmenu\nquit\n"), out, colour=False)
    last = out.getvalue().split("> menu\n")[2].splitlines()[-2]
    assert last.startswith("Romans: lift a knight that can move (") and " (hint: " in last
    assert "thinking" not in last


def test_no_book_is_described_one_way():
    # --help and the simulator page (docs/pages/play/simulator.md) say one thing.
    with open(os.path.join(simkit.ROOT, "docs", "pages", "play", "simulator.md"),
              encoding="utf-8") as f:
        row = [line for line in f if line.startswith("| `--no-book` |")][0]
    assert app.NO_BOOK[:-1] in row.replace("`", "")  # (the row links on before its ")")
    assert [a.help for a in app.parser()._actions if "--no-book" in a.option_strings] == \
        [app.NO_BOOK]
