"""`make flash` and `attila flash --port` end to end against the emulated board.

The firmware that lands is the real one, copied over the board's serial line
by mpremote: only what changed is copied, stale files of ours go, every copy
is verified, and a saved game is kept.
"""

import os
import shutil
import subprocess
import sys

from emulated_board import (HANG_GUARD_S, OTHER_LAYOUT, PROFILE, ROOT, board_from, boot_line,
                            needs_emulator, plan, run_flash, save_text, saved_game)

from attila.saves.savetext import current
from tests.helpers import wait_for

from attila_tools import cli
from attila_tools.board import build


@needs_emulator
def test_make_flash_lands_verifies_and_boots(flashed):
    out, golden, built = flashed
    assert "%d to copy, 1 up to date" % (len(built) - 1) in out  # the opening table was there
    assert "verified %d files (sha256)" % len(built) in out
    assert "the board says: attila: 4x5 on pico, 20 squares" in out
    for dest, data in built.items():
        with open(os.path.join(golden, dest), "rb") as g:
            assert g.read() == data, dest


@needs_emulator
def test_reflash_copies_only_changes_and_keeps_the_game(flashed, tmp_path):
    _out, golden, _built = flashed
    save = save_text()
    new_game = save_text(OTHER_LAYOUT, "")
    new_game = new_game[:new_game.rindex("end ")]  # the L's new game, as saved_game() reads it
    dev, _hw = board_from(golden, tmp_path, save=save)
    with dev:
        proc = run_flash(dev.port)  # (copies what changed in firmware/ since the fixture)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        # pico.json starts a 5 s watchdog, which mpremote's Ctrl-C does not stop
        assert "runs a watchdog (5000 ms); restarting it in maintenance mode" in proc.stdout
        assert "maintenance" not in dev.files()  # the marker is gone again
        proc = run_flash(dev.port)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "0 to copy, %d up to date" % len(plan()) in proc.stdout  # layout.opening too
        assert "saved game kept (game.txt)" in proc.stdout
        assert dev.files()[build.SAVE_FILE] == save.encode()
        assert "the board says: attila: 4x5 on pico" in proc.stdout

        # Switching the layout copies just layout.json.
        proc = run_flash(dev.port, layout=OTHER_LAYOUT)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "2 to copy" in proc.stdout and "update layout.json" in proc.stdout
        assert "update layout.book" in proc.stdout  # its setup book comes along
        assert "remove layout.opening" in proc.stdout  # 4x5's opening table: the L has none
        assert ("no opening table for the layout (no l-shape.opening in boards/solved); the "
                "game's first turn of play is searched") in proc.stdout
        assert "the board says: attila: l-shape on pico" in proc.stdout
        files = dev.files()
        with open(OTHER_LAYOUT, "rb") as f:
            assert files["layout.json"] == f.read()
        # The 4x5 game cannot go on on the L: it is set aside, not lost, and
        # the board starts a new game there. Once its squares are still, the
        # board saves that game, empty (attila.saves.keeper): before or after
        # the files above were read, so the test waits for it.
        assert "saved game is for another layout" in proc.stdout
        aside = [p for p in files if p.startswith("games/saved-")]
        assert len(aside) == 1 and files[aside[0]] == save.encode()
        assert build.SAVE_FILE not in files or current(files[build.SAVE_FILE]) == new_game
        wait_for(lambda: saved_game(dev) == new_game, "the board to save its new game on the L")

        # A save that fits is removed on request: the board starts a new game.
        with open(os.path.join(dev.root, build.SAVE_FILE), "w") as f:
            f.write(save_text(OTHER_LAYOUT, "@a1"))
        proc = run_flash(dev.port, "--clear-game", layout=OTHER_LAYOUT)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "saved game removed" in proc.stdout
        wait_for(lambda: saved_game(dev) == new_game, "the board to save its new game")


@needs_emulator
def test_stale_firmware_files_are_removed(flashed, tmp_path):
    _out, golden, _built = flashed
    dev, _hw = board_from(golden, tmp_path)
    fs = os.path.join(dev.state_dir, "fs")
    shutil.copy(os.path.join(build.CORE, "game", "rules.py"), os.path.join(fs, "attila", "rules.py"))
    shutil.copy(os.path.join(build.PORT, "hardware.py"), os.path.join(fs, "hardware.py"))
    with open(os.path.join(fs, "notes.txt"), "w") as f:
        f.write("mine")
    with dev:
        proc = run_flash(dev.port, "--dry-run")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "remove attila/rules.py" in proc.stdout and "remove hardware.py" in proc.stdout
        assert "dry run, nothing changed" in proc.stdout
        assert "attila/rules.py" in dev.files()
        proc = run_flash(dev.port)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        files = dev.files()
        assert "attila/rules.py" not in files and "hardware.py" not in files
        assert files["notes.txt"] == b"mine"  # not ours: left alone


@needs_emulator
def test_a_copy_that_does_not_land_fails_verification(flashed, tmp_path, monkeypatch, capsys):
    from attila_tools.board import device

    _out, golden, _built = flashed
    dev, _hw = board_from(golden, tmp_path)
    real_write = device.SerialBoard.write

    def bad_write(self, path, data):
        real_write(self, path, data[:-1] + b"#" if path == "layout.json" else data)

    monkeypatch.setattr(device.SerialBoard, "write", bad_write)
    with dev:
        code = cli.main(["flash", "--port", dev.port, "--layout", OTHER_LAYOUT, "--profile", PROFILE])
    err = capsys.readouterr().err
    assert code == 1
    assert "verification failed: layout.json differs on the board" in err


@needs_emulator
def test_source_flash_replaces_the_compiled_modules(flashed, tmp_path):
    _out, golden, _built = flashed
    dev, _hw = board_from(golden, tmp_path)
    with dev:
        proc = run_flash(dev.port, "--source")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "the board says: attila: 4x5 on pico" in proc.stdout
        files = dev.files()
    assert not [p for p in files if p.endswith(".mpy")]  # x.py would shadow x.mpy anyway
    for dest, src in build.sources():
        with open(src, "rb") as f:
            assert files[dest] == f.read(), dest


def mpremote(port, *args):
    return subprocess.run([sys.executable, "-m", "mpremote", "connect", port] + list(args),
                          capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=ROOT)


@needs_emulator
def test_mip_recipe_of_the_readme_updates_a_running_board(flashed, tmp_path):
    """The README's mip recipe on a board that runs the firmware and its 5 s watchdog
    (the install takes longer than that): main.py is stopped by the maintenance file
    first, then the firmware, the layout and the profile are installed, and the board
    starts again."""
    _out, golden, _built = flashed
    dev, _hw = board_from(golden, tmp_path)
    with dev:
        wait_for(lambda: boot_line(dev), "the firmware to start")
        recipe = [
            ("exec", "open('maintenance', 'w').close()"),
            ("reset",),
            ("mip", "install", "--target", ".", "firmware/package.json"),
            ("cp", "boards/4x5.json", ":layout.json"),
            ("cp", "boards/solved/4x5.book", ":layout.book"),
            ("cp", "boards/solved/4x5.opening", ":layout.opening"),
            ("cp", "boards/profiles/pico.json", ":profile.json"),
            ("rm", ":maintenance"),
        ]
        for step in recipe:
            proc = mpremote(dev.port, *step)
            assert proc.returncode == 0, (step, proc.stdout + proc.stderr)
            if step == ("reset",):
                wait_for(lambda: b"attila: maintenance" in dev.serial_log(), "maintenance")
        assert dev.serial_log().count(b"attila: maintenance") == 1  # no reset since
        files = dev.files()
        for dest, src in build.sources():
            with open(src, "rb") as f:
                assert files[dest] == f.read(), dest
        since = len(dev.serial_log())
        mpremote(dev.port, "reset")
        line = wait_for(lambda: boot_line(dev, since), "the firmware to start")
        assert line.startswith("attila: 4x5 on pico"), dev.serial_log()[since:]
