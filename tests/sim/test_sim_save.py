"""`attila sim --save FILE`: a file that is not ours is never touched; a damaged
save is kept aside, never deleted."""

import os
import shutil

import pytest

from attila.game.notation import replay
from attila.game.rules import Game
from attila.saves.savetext import checksum, dump
from attila.saves.store import Store
from attila_sim import app

import simkit

README = os.path.join(simkit.ROOT, "README.md")


def run(tmp_path, capsys, save, *more, script="wait 10\n"):
    path = tmp_path / "script.txt"
    path.write_text(script)
    code = app.main(["--script", str(path), "--save", str(save)] + list(more))
    out, err = capsys.readouterr()
    return code, out, err


def files(tmp_path):
    return sorted(p.name for p in tmp_path.iterdir() if p.name != "script.txt")


def saved(path, log, layout_path=simkit.LAYOUT_4X5):
    game = replay(Game(simkit.load(layout_path)[0]), log)
    Store(str(path)).save(dump(game))
    return path.read_bytes()


@pytest.mark.parametrize("name, data", [
    ("README.md", None),
    ("empty.txt", b""),
    ("binary.bin", bytes(range(256)) * 3),
    ("latin.txt", "caf\xe9 cr\xe8me\n".encode("latin-1")),
    ("g.txt", b"\xff"),
    ("other.txt", b"attila-save 2\nrows .....\n"),
])
def test_a_file_that_is_not_ours_is_never_touched(tmp_path, capsys, name, data):
    path = tmp_path / name
    if data is None:
        shutil.copy(README, path)
        data = path.read_bytes()
    else:
        path.write_bytes(data)
    code, out, err = run(tmp_path, capsys, path, script="@a1\n@e4\n")
    assert (code, out) == (2, "")
    assert err == ("attila sim: %s: not a saved game (its first line is not "
                   "'attila-save 1'); left as it is: give --save another file name\n" % path)
    assert path.read_bytes() == data and files(tmp_path) == [name]


def test_a_folder_or_a_missing_folder_is_refused(tmp_path, capsys):
    folder = tmp_path / "games"
    folder.mkdir()
    code, out, err = run(tmp_path, capsys, folder, script="@a1\n")
    assert (code, out) == (2, "")
    assert err == "attila sim: %s: is a folder; give --save a file name, like %s\n" % (
        folder, folder / "game.txt")
    assert files(tmp_path) == ["games"] and list(folder.iterdir()) == []
    code, out, err = run(tmp_path, capsys, tmp_path / "none" / "g.txt", script="@a1\n")
    assert (code, out) == (2, "")
    assert err == "attila sim: %s: no folder %s to keep the game in\n" % (
        tmp_path / "none" / "g.txt", tmp_path / "none")


def test_a_tmp_file_in_the_way_is_not_ours(tmp_path, capsys):
    (tmp_path / "g.txt.tmp").write_text("my notes\n")
    code, _, err = run(tmp_path, capsys, tmp_path / "g.txt", script="@a1\n")
    assert code == 2 and "g.txt.tmp: in the way of the save" in err
    assert files(tmp_path) == ["g.txt.tmp"]
    # Half a save of ours (a power cut while writing it) is written over.
    (tmp_path / "g.txt.tmp").write_text("attila-sa")
    code, _, err = run(tmp_path, capsys, tmp_path / "g.txt", script="@a1\n")
    assert (code, err) == (0, "")
    assert files(tmp_path) == ["g.txt"]


def test_a_damaged_save_is_kept_aside(tmp_path, capsys):
    path = tmp_path / "g.txt"
    good = saved(path, "@a1 @e4")
    bad = good.replace(b"@e4", b"@e\xff")
    path.write_bytes(bad)
    code, out, err = run(tmp_path, capsys, path)
    assert code == 0 and out
    assert err == ("attila sim: %s: damaged save (byte 71 is 255, not plain text); kept aside "
                   "as %s.bad; a new game starts\n" % (path, path))
    assert files(tmp_path) == ["g.txt.bad"]
    assert (tmp_path / "g.txt.bad").read_bytes() == bad
    # A second damaged save finds its own name; the first is kept.
    path.write_bytes(good[:30])
    code, out, err = run(tmp_path, capsys, path, script="@c2\n")
    assert code == 0 and "kept aside as %s.bad1" % path in err
    assert files(tmp_path) == ["g.txt", "g.txt.bad", "g.txt.bad1"]
    assert (tmp_path / "g.txt.bad1").read_bytes() == good[:30]
    assert (tmp_path / "g.txt.bad").read_bytes() == bad
    assert b"log @c2\n" in path.read_bytes()  # the new game is saved


def test_a_save_no_board_could_take_back_is_kept_aside(tmp_path, capsys):
    path = tmp_path / "g.txt"
    body = ("attila-save 1\nrows ...../...../...../.....\nfirst R\n"
            "tiles 99999999999999999999\nlog @a1\n")
    data = (body + "end %d\n" % checksum(body)).encode()
    path.write_bytes(data)
    code, out, err = run(tmp_path, capsys, path)
    assert code == 0
    assert err == ("attila sim: %s: saved game refused (tiles must be a whole number 0..20, "
                   "not '99999999999999999999'); kept aside as %s.bad; a new game starts\n"
                   % (path, path))
    assert files(tmp_path) == ["g.txt.bad"] and (tmp_path / "g.txt.bad").read_bytes() == data


def test_a_save_from_another_layout_brings_it_unless_told_otherwise(tmp_path, capsys):
    path = tmp_path / "g.txt"
    t_shape = os.path.join(simkit.ROOT, "boards", "t-shape.json")
    data = saved(path, "@c1", t_shape)
    code, out, err = run(tmp_path, capsys, path, "--layout", simkit.LAYOUT_4X5)
    assert (code, out) == (2, "")
    assert err == ("attila sim: %s: the saved game is for the layout "
                   "....../....../--..--/--..--/--..--/--..--, not %s; leave out --layout "
                   "to resume it there, or give --save another file\n"
                   % (path, simkit.LAYOUT_4X5))
    assert path.read_bytes() == data
    code, out, err = run(tmp_path, capsys, path)
    assert (code, err) == (0, "")
    assert '"mode": "resume"' in out and "Saved game found (1 action," in out
    assert path.read_bytes() == data


def test_a_good_save_resumes_and_a_new_file_is_made(tmp_path, capsys):
    path = tmp_path / "g.txt"
    code, _, err = run(tmp_path, capsys, path, script="@a1\n@e4\n")
    assert (code, err) == (0, "")
    assert b"log @a1 @e4\n" in path.read_bytes()
    code, out, err = run(tmp_path, capsys, path, script="menu\n@b1\n")
    assert (code, err) == (0, "")
    assert b"log @a1 @e4 @b1\n" in path.read_bytes()
    assert files(tmp_path) == ["g.txt"]


GAME_4X5 = ("@a1 @b1 @c1 @d1 @e1 @a2 a1-c2,a1 b1-d2,b1 c1-e2,c1 d1-b2,d1 e1-d3,e1 "
            "a2-c3,a2 c2-a3,c2 b2-a4,b2 e2-d4,e2 d2-b3,d2 a3-c4,a3 c3-e4,c3 d3-b4,d3")


def test_a_finished_game_is_archived_in_games_beside_the_save(tmp_path, capsys):
    from attila.game.notation import log
    from attila.game.rules import OVER
    from attila.saves.savetext import restore, unpack

    path = tmp_path / "g.txt"
    script = "\n".join(GAME_4X5.split()) + "\nwait 1000\n"
    code, _, err = run(tmp_path, capsys, path, script=script)
    assert (code, err) == (0, "")
    kept = sorted((tmp_path / "games").iterdir())
    assert len(kept) == 1 and kept[0].name.startswith("game-")
    game = restore(unpack(kept[0].read_bytes()))
    assert game.phase == OVER and log(game) == GAME_4X5
    # The next game does not overwrite it.
    code, _, err = run(tmp_path, capsys, path, script="menu\nmenu\nclear\n@a1\n")
    assert (code, err) == (0, "") and sorted((tmp_path / "games").iterdir()) == kept
    assert b"log @a1\n" in path.read_bytes()


def _text(monkeypatch, capsys, lines, *args):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    code = app.main(["--text"] + [str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_save_keeps_who_the_board_plays(tmp_path, capsys, monkeypatch):
    # A restart without --computer goes on against the board, not as a two-player game.
    path = tmp_path / "g.txt"
    code, out, err = _text(monkeypatch, capsys, "@a1\nquit\n", "--save", path,
                           "--computer", "H", "--level", "easy")
    assert (code, err) == (0, "")
    assert b"\nsim H easy\n" in path.read_bytes()
    code, out, err = _text(monkeypatch, capsys, "menu\nquit\n", "--save", path)
    assert code == 0
    assert err == ("attila sim: %s: the board plays the Huns at the easy level, as in the "
                   "saved game (--computer: another side)\n" % path)
    assert out.splitlines()[-2].startswith("The board plays the Huns: put a knight on ")
    # The board's own restore passes over the line.
    from attila.saves.savetext import restore, unpack

    assert restore(unpack(path.read_bytes())).history


def test_quitting_with_a_knight_in_hand_says_where_it_comes_back(tmp_path, capsys,
                                                                monkeypatch):
    path = tmp_path / "g.txt"
    lines = "@a1\n@e4\n@b1\n@e3\n@c4\n@a3\nlift b1\nquit\n"
    code, out, err = _text(monkeypatch, capsys, lines, "--save", path)
    assert code == 0
    assert err == ("attila sim: the Roman knight in your hand was lifted from b1: the saved "
                   "game resumes with it back on b1\n")
