"""`attila games` and `attila layout` against the emulated board.

games fetches the saved game (with its journal) and the finished ones, and
leaves the board playing; layout switches the layout and its tables alone,
or refuses one the board's sensors cannot read.
"""

import os
import shutil
import subprocess

from emulated_board import (HANG_GUARD_S, LAYOUT, OTHER_LAYOUT, ROOT, attila_cmd, board_from,
                            boot_line, needs_emulator, save_text, saved_game)

from attila.saves.store import journal_of
from tests.helpers import wait_for

from attila_tools.board import build


@needs_emulator
def test_games_fetches_the_saved_game(flashed, tmp_path):
    _out, golden, _built = flashed
    save = save_text(actions="@a1 @e4 @b1")
    dev, _hw = board_from(golden, tmp_path, save=save)
    out_dir = tmp_path / "fetched"
    with dev:
        wait_for(lambda: boot_line(dev), "the firmware to start")  # then count its restart
        proc = subprocess.run(attila_cmd() + ["games", "--port", dev.port, "--out", str(out_dir)],
                              capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=ROOT)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "3 actions, Huns to play: @a1 @e4 @b1" in proc.stdout
        fetched = list(out_dir.iterdir())
        assert len(fetched) == 1 and fetched[0].read_text() == save
        assert "replay: attila sim --replay %s --layout boards/4x5.json" % fetched[0] in proc.stdout
        # the firmware runs again afterwards, with the game untouched
        wait_for(lambda: dev.serial_log().count(b"attila: 4x5") >= 2, "the firmware to restart")
        assert dev.files()[build.SAVE_FILE] == save.encode()
    proc = subprocess.run(attila_cmd() + ["games", "show", str(fetched[0])],
                          capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=ROOT)
    assert proc.returncode == 0 and "@b1" in proc.stdout


@needs_emulator
def test_games_fetches_the_game_with_its_journal_and_the_finished_games(flashed, tmp_path):
    from attila.saves.savetext import checksum

    _out, golden, _built = flashed
    save = save_text(actions="@a1 @e4 @b1")  # (no gen line: generation 0)
    finished = save_text(actions="@a1 @e4 @b1 @e3 @c1 @a3")
    dev, _hw = board_from(golden, tmp_path, save=save)
    fs = os.path.join(str(tmp_path / "board"), "fs")
    from attila.saves.store import journal_of

    jnl = os.path.join(fs, journal_of(build.SAVE_FILE))
    os.makedirs(os.path.dirname(jnl), exist_ok=True)
    with open(jnl, "w") as f:
        f.write("0 @e3 %d\n0 @c1 %d\n" % (checksum("0 @e3"), checksum("0 @c1")))
    os.mkdir(os.path.join(fs, "games"))
    with open(os.path.join(fs, "games", "game-0000abcd.txt"), "w") as f:
        f.write(finished)
    out_dir = tmp_path / "fetched"
    with dev:
        wait_for(lambda: boot_line(dev), "the firmware to start")
        proc = subprocess.run(attila_cmd() + ["games", "--port", dev.port, "--out", str(out_dir),
                                              "--no-reset"],
                              capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "5 actions, Huns to play: @a1 @e4 @b1 @e3 @c1" in proc.stdout
    assert "games/game-0000abcd.txt -> " in proc.stdout
    assert "6 actions" in proc.stdout
    assert len(list(out_dir.iterdir())) == 2


def _new_game(layout_path):
    """The save text of a new game on the layout (as saved_game() reads it)."""
    text = save_text(layout_path, "")
    return text[:text.rindex("end ")]


@needs_emulator
def test_layout_port_switches_just_the_layout(flashed, tmp_path):
    _out, golden, _built = flashed
    direct = os.path.join(ROOT, "boards", "profiles", "pico-direct.json")
    # The board idles in a new game, whose save it wrote at rest (no action).
    dev, _hw = board_from(golden, tmp_path, profile=direct, save=save_text(LAYOUT, ""))
    shutil.copy(direct, os.path.join(dev.root, "profile.json"))  # a board wired pin by pin
    with dev:
        before = dev.files()
        proc = subprocess.run(attila_cmd() + ["layout", OTHER_LAYOUT, "--port", dev.port,
                                              "--colour", "never"],
                              capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=ROOT)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "copied %s to the board as layout.json (verified)" % OTHER_LAYOUT in proc.stdout
        assert "the board says: attila: l-shape on pico-direct" in proc.stdout
        # A new game with no action is no game to set aside: it goes, and the
        # board saves its new game on the L once its squares are still.
        assert "saved game" not in proc.stdout
        wait_for(lambda: saved_game(dev) == _new_game(OTHER_LAYOUT),
                 "the board to save its new game on the L")
        after = dev.files()
        for name in (build.SAVE_FILE, journal_of(build.SAVE_FILE)):
            after.pop(name, None)
            before.pop(name, None)
        with open(OTHER_LAYOUT, "rb") as f:
            assert after.pop("layout.json") == f.read()
        assert ("copied its setup book boards/solved/l-shape.book as layout.book (verified)"
                in proc.stdout)
        with open(os.path.join(build.SOLVED, "l-shape.book"), "rb") as f:
            assert after.pop("layout.book") == f.read()
        before.pop("layout.json")
        before.pop("layout.book")
        # The 4x5 opening table is not the L's (it has none): removed.
        assert before.pop("layout.opening") and "layout.opening" not in after
        assert "removed the old layout's layout.opening (no opening table for the layout" \
            in proc.stdout
        assert after == before  # nothing else touched
        # 64 squares cannot be read by the board's 20 sensor pins: refused, nothing changes
        diy = os.path.join(ROOT, "boards", "diy-8x8.json")
        proc = subprocess.run(attila_cmd() + ["layout", diy, "--port", dev.port,
                                              "--colour", "never"],
                              capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=ROOT)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert ("diy-8x8.json does not fit the board: profile.json on the board: "
                "sensors.pins lists 20 pins; the layout has 64 squares; "
                "the board keeps its layout") in proc.stderr
        with open(OTHER_LAYOUT, "rb") as f:
            assert dev.files()["layout.json"] == f.read()
