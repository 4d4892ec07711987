"""`make flash` end to end against the emulated board, and the flash tool's parts.

The board is tools/emulator (MicroPython WebAssembly behind a pseudo-terminal),
reached by the real mpremote transport. The firmware that lands is the real
one: after the flash it boots from the board's flash, reads its 74HC165 chain
of fake reed switches and plays a scripted game, which it saves to game.txt.
"""

import json
import os
import shutil
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from attila_tools import cli  # noqa: E402
from attila_tools.board import build, flash  # noqa: E402
from attila_tools.board.device import DeviceError, check_compatible, find_port  # noqa: E402
from emulator.bridge import EmulatedDevice, available  # noqa: E402
from emulator.hardware import Hardware  # noqa: E402

LAYOUT = os.path.join(ROOT, "boards", "4x5.json")
OTHER_LAYOUT = os.path.join(ROOT, "boards", "l-shape.json")
PROFILE = os.path.join(ROOT, "boards", "profiles", "pico.json")
HANG_GUARD_S = 300  # against a hung board only; nothing here is timed
WAIT_S = 120  # what the board must come to: long enough for an emulator on a loaded machine

needs_emulator = pytest.mark.skipif(bool(available()), reason="emulator: %s" % available())


def attila_cmd():
    exe = os.path.join(os.path.dirname(sys.executable), "attila")
    return [exe] if os.path.exists(exe) else [sys.executable, "-m", "attila_tools.cli"]


def run_flash(port, *extra, layout=LAYOUT, profile=PROFILE):
    cmd = attila_cmd() + ["flash", "--port", port, "--layout", layout, "--profile", profile]
    proc = subprocess.run(cmd + list(extra), capture_output=True, text=True,
                          timeout=HANG_GUARD_S, cwd=ROOT)
    return proc


def make_flash(port, layout, profile):
    """`make flash PORT=.. LAYOUT=.. PROFILE=..` (the command itself if make is missing)."""
    make = shutil.which("make")
    if make and subprocess.run([make, "-q", "install"], cwd=ROOT).returncode == 0:
        cmd = [make, "-s", "flash", "PORT=" + port, "LAYOUT=" + layout, "PROFILE=" + profile]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=ROOT)
    return run_flash(port, layout=layout, profile=profile)


def wait_for(predicate, what, seconds=WAIT_S):
    """The predicate's first true value; it fails only when the board never gets there
    (`what` says what it waited for: a string, or a function called then)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting for %s" % (what() if callable(what) else what))


def boot_line(dev, since=0):
    log = dev.serial_log()[since:].decode("utf-8", "replace")
    for line in log.splitlines():
        if line.startswith("attila:") or "Traceback" in line:
            return line
    return None


def last_status(dev):
    """The last whole line the board printed ("" before any)."""
    log = dev.serial_log().decode("utf-8", "replace")
    lines = log[: log.rfind("\n") + 1].splitlines()
    return lines[-1] if lines else ""


def play_steps(dev, hw, steps, layout_path=LAYOUT):
    """Set the squares of each step, each once the board has followed the one before.

    The board prints its status line whenever it changes; a controller on the
    host, fed the same readings, says which line each step brings. So the
    hands wait for the board, not for a time: a slow emulator (a loaded
    machine) only takes longer, and a reading the board never takes fails
    here, at its step.
    """
    from attila.game import layoutfile
    from attila.play.controller import Controller

    layout, _modules, tiles = layoutfile.load(layout_path)
    mirror = Controller(layout, tiles=tiles)
    t = 0
    mirror.sense(0, t)
    want = mirror.status()
    wait_for(lambda: last_status(dev) == want, "the board to read the empty squares: %r" % want)
    for k, occ in enumerate(steps):
        t += 100
        mirror.sense(occ, t)
        mirror.tick(t)
        before, want = want, mirror.status()
        assert want != before, "step %d leaves the status line as it was: %r" % (k, want)
        hw.set_squares(occ)
        wait_for(lambda: last_status(dev) == want, lambda: "the board to follow step %d: %r "
                 "(it says %r)" % (k, want, last_status(dev)))


@pytest.fixture(scope="module")
def flashed(tmp_path_factory):
    """A board flashed once with `make flash`: (output, copy of its flash)."""
    if available():
        pytest.skip("emulator: %s" % available())
    state = str(tmp_path_factory.mktemp("flashed"))
    # The layout's opening table (759 kB) is on the board already, from an
    # earlier flash: copied over the emulated serial line it would take most
    # of this fixture's time, and `attila flash` must find it up to date.
    os.makedirs(os.path.join(state, "fs"))
    shutil.copy(os.path.join(ROOT, "boards", "solved", "4x5.opening"),
                os.path.join(state, "fs", build.OPENING_FILE))
    with EmulatedDevice(state) as dev:
        proc = make_flash(dev.port, LAYOUT, PROFILE)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 0, out
    built = {}
    for dest, src in _plan().items():  # what was built for that flash
        with open(src, "rb") as f:
            built[dest] = f.read()
    golden = str(tmp_path_factory.mktemp("golden"))
    shutil.copytree(os.path.join(state, "fs"), os.path.join(golden, "fs"))
    return out, os.path.join(golden, "fs"), built


def board_from(golden, tmp_path, layout=LAYOUT, profile=PROFILE, save=None):
    """An emulated board whose flash is a copy of `golden`, wired for layout+profile."""
    state = str(tmp_path / "board")
    shutil.copytree(golden, os.path.join(state, "fs"))
    if save is not None:
        with open(os.path.join(state, "fs", build.SAVE_FILE), "w") as f:
            f.write(save)
    dev = EmulatedDevice(state)
    hw = Hardware.wire(dev, layout, profile)
    return dev, hw


def _plan():
    return build.plan(LAYOUT, PROFILE)


# -- finding the board, and boards that cannot take the firmware --------------------

def _port(device, vid, pid, maker, product):
    return SimpleNamespace(device=device, serial_number="e6605838", vid=vid, pid=pid,
                           manufacturer=maker, product=product)


def test_no_board_lists_what_mpremote_sees():
    ports = [_port("/dev/ttyUSB0", 0x1A86, 0x7523, "QinHeng", "USB Serial")]
    with pytest.raises(DeviceError) as e:
        find_port(None, ports=ports)
    msg = str(e.value)
    assert "no MicroPython board found" in msg
    assert "/dev/ttyUSB0 e6605838 1a86:7523 QinHeng USB Serial" in msg  # mpremote's format
    assert "RPI-RP2" in msg and "--port" in msg
    with pytest.raises(DeviceError) as e:
        find_port(None, ports=[])
    assert "no serial ports at all" in str(e.value)


def test_the_one_pico_is_found_and_two_need_a_choice():
    pico = _port("/dev/ttyACM0", 0x2E8A, 0x0005, "MicroPython", "Board in FS mode")
    other = _port("/dev/ttyS0", None, None, None, None)
    assert find_port(None, ports=[other, pico]) == "/dev/ttyACM0"
    assert find_port("/dev/ttyACM7", ports=[]) == "/dev/ttyACM7"
    with pytest.raises(DeviceError) as e:
        find_port(None, ports=[pico, _port("/dev/ttyACM1", 0x2E8A, 0x0005, "MicroPython", "x")])
    assert "several boards" in str(e.value) and "/dev/ttyACM1" in str(e.value)


def test_too_old_micropython_says_what_to_install():
    pico = "Raspberry Pi Pico with RP2040"
    old = {"name": "micropython", "version": (1, 18, 0), "mpy": 5, "machine": pico}
    msg = check_compatible(old, (6, 0, 0))
    assert "1.18.0" in msg and "1.22.0 or newer" in msg
    assert "https://micropython.org/download/RPI_PICO/" in msg
    pico2 = {"name": "micropython", "version": (1, 21, 0), "mpy": 6 | 2 << 8,
             "machine": "Raspberry Pi Pico2 with RP2350"}
    assert "RPI_PICO2" in check_compatible(pico2, (6, 0, 0))
    ok = {"name": "micropython", "version": (1, 24, 1), "mpy": 6 | 3 << 8 | 10 << 10, "machine": pico}
    assert check_compatible(ok, (6, 0, 0)) is None
    future = dict(ok, mpy=7)
    assert ".mpy version 7" in check_compatible(future, (6, 0, 0))
    cp = {"name": "circuitpython", "version": (9, 2, 1), "mpy": 5, "machine": pico}
    assert "not MicroPython" in check_compatible(cp, (6, 0, 0))


def test_bad_layout_is_refused_before_any_board_is_touched(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "bad", "modules": [')
    proc = run_flash("/dev/does-not-exist", layout=str(bad))
    assert proc.returncode == 2
    assert str(bad) in proc.stderr
    proc = run_flash("/dev/does-not-exist", profile=str(tmp_path / "missing.json"))
    assert proc.returncode == 2 and "does not exist" in proc.stderr


def test_profile_the_chip_refuses_is_refused_before_any_board_is_touched(tmp_path):
    """A watchdog the RP2040 refuses (the board would die at boot) or a budget it
    cannot survive: one line, exit 2, nothing copied."""
    with open(PROFILE) as f:
        data = json.load(f)
    for changes, reason in (
        ({"watchdog_ms": 9000}, "watchdog_ms 9000 is more than MicroPython on the rp2040 "
                                "accepts (at most 8388)"),
        ({"game": {"budget_ms": 4500}}, "game: budget_ms 4500 does not fit the 5000 ms "
                                        "watchdog: the board may think that long without "
                                        "feeding it (a blocking decision); at most 4000"),
    ):
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(dict(data, **changes)))
        proc = run_flash("/dev/does-not-exist", profile=str(bad))
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert proc.stderr == "attila flash: %s: %s\n" % (bad, reason), proc.stderr
        assert "copy" not in proc.stdout


def test_a_circuitpython_profile_on_port_points_to_drive():
    # Issue 33 item 10: --port with a CircuitPython profile says what to run instead.
    cp = os.path.join(ROOT, "boards", "profiles", "circuitpython-pico.json")
    proc = run_flash("/dev/does-not-exist", profile=cp)
    assert proc.returncode == 2
    assert proc.stderr == (
        "attila flash: %s is a circuitpython profile; --port installs the MicroPython port: "
        "for a CircuitPython board, attila flash --drive PATH --profile %s (PATH: its "
        "mounted CIRCUITPY drive)\n" % (cp, cp))


# -- make flash against the emulated board --------------------------------------------

@needs_emulator
def test_make_flash_lands_verifies_and_boots(flashed):
    out, golden, built = flashed
    assert "%d to copy, 1 up to date" % (len(built) - 1) in out  # the opening table was there
    assert "verified %d files (sha256)" % len(built) in out
    assert "the board says: attila: 4x5 on pico, 20 squares" in out
    for dest, data in built.items():
        with open(os.path.join(golden, dest), "rb") as g:
            assert g.read() == data, dest


def _script(layout):
    """A whole game as (action, occupancy after each physical step)."""
    from attila.game import notation
    from attila.play.controller import first_action
    from attila.game.rules import Game

    game = Game(layout)
    occ = 0
    steps = []
    while True:
        action = first_action(game)
        if not action:
            break
        if action.startswith("@"):
            occ |= 1 << layout.index(action[1:])
            steps.append(occ)
        else:
            a, rest = action.split("-")
            b, c = rest.split(",")
            occ &= ~(1 << layout.index(a))
            steps.append(occ)  # the knight is lifted ...
            occ |= 1 << layout.index(b)
            steps.append(occ)  # ... put down on its jump ...
            occ |= 1 << layout.index(c)
            steps.append(occ)  # ... and a tile scorches a square
        notation.play(game, action)
    return game, steps


@needs_emulator
def test_flashed_board_plays_a_scripted_game(flashed, tmp_path):
    from attila.game import layoutfile
    from attila.game.notation import log
    from attila.game.rules import OVER
    from attila.saves.savetext import restore

    _out, golden, _built = flashed
    layout, _modules, _tiles = layoutfile.load(LAYOUT)
    game, steps = _script(layout)
    assert game.phase == OVER and len(steps) > 20
    dev, hw = board_from(golden, tmp_path)
    with dev:
        # Power-up: main.py starts from the board's flash.
        assert wait_for(lambda: boot_line(dev), "the firmware to start").startswith(
            "attila: 4x5 on pico")
        writes_before, _ = hw.strip()
        play_steps(dev, hw, steps)

        def saved():
            text = saved_game(dev)
            return text if log(game) in text else None

        text = wait_for(saved, "the whole game in game.txt and its journal")
        back = restore(text)
        assert log(back) == log(game) and back.phase == OVER
        writes, buf = hw.strip()
        assert writes > writes_before, "the LEDs were never written during the game"
        assert len(buf) == 3 * layout.size
        assert any(hw.leds()), "the LEDs are all dark at the end of the game"
        assert b"Traceback" not in dev.serial_log()


def saved_game(dev):
    """The board's save text with its journal carried out ("" while it has none)."""
    from attila.saves.savetext import current
    from attila.saves.store import journal_of

    files = dev.files()
    if build.SAVE_FILE not in files:
        return ""
    return current(files[build.SAVE_FILE], files.get(journal_of(build.SAVE_FILE), b""))


def _save_text(layout_path=LAYOUT, actions="@a1 @e4"):
    from attila.game import layoutfile
    from attila.game.notation import play
    from attila.game.rules import Game
    from attila.saves.savetext import checksum, dump

    layout, _m, _t = layoutfile.load(layout_path)
    game = Game(layout)
    for a in actions.split():
        play(game, a)
    body = dump(game)
    return body + "end %d\n" % checksum(body)


@needs_emulator
def test_reflash_copies_only_changes_and_keeps_the_game(flashed, tmp_path):
    _out, golden, _built = flashed
    save = _save_text()
    dev, _hw = board_from(golden, tmp_path, save=save)
    with dev:
        proc = run_flash(dev.port)  # (copies what changed in firmware/ since the fixture)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        # pico.json starts a 5 s watchdog, which mpremote's Ctrl-C does not stop
        assert "runs a watchdog (5000 ms); restarting it in maintenance mode" in proc.stdout
        assert "maintenance" not in dev.files()  # the marker is gone again
        proc = run_flash(dev.port)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "0 to copy, %d up to date" % len(_plan()) in proc.stdout  # layout.opening too
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
        # The 4x5 game cannot go on on the L: it is set aside, not lost.
        assert "saved game is for another layout" in proc.stdout
        assert build.SAVE_FILE not in files
        aside = [p for p in files if p.startswith("games/saved-")]
        assert len(aside) == 1 and files[aside[0]] == save.encode()

        # A save that fits is removed on request.
        with open(os.path.join(dev.root, build.SAVE_FILE), "w") as f:
            f.write(_save_text(OTHER_LAYOUT, "@a1"))
        proc = run_flash(dev.port, "--clear-game", layout=OTHER_LAYOUT)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "saved game removed" in proc.stdout
        assert build.SAVE_FILE not in dev.files()


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
    real_write = device.Board.write

    def bad_write(self, path, data):
        real_write(self, path, data[:-1] + b"#" if path == "layout.json" else data)

    monkeypatch.setattr(device.Board, "write", bad_write)
    with dev:
        code = cli.main(["flash", "--port", dev.port, "--layout", OTHER_LAYOUT, "--profile", PROFILE])
    err = capsys.readouterr().err
    assert code == 1
    assert "verification failed: layout.json differs on the board" in err


@needs_emulator
def test_games_fetches_the_saved_game(flashed, tmp_path):
    _out, golden, _built = flashed
    save = _save_text(actions="@a1 @e4 @b1")
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
    save = _save_text(actions="@a1 @e4 @b1")  # (no gen line: generation 0)
    finished = _save_text(actions="@a1 @e4 @b1 @e3 @c1 @a3")
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


@needs_emulator
def test_layout_port_switches_just_the_layout(flashed, tmp_path):
    _out, golden, _built = flashed
    direct = os.path.join(ROOT, "boards", "profiles", "pico-direct.json")
    dev, _hw = board_from(golden, tmp_path, profile=direct)
    shutil.copy(direct, os.path.join(dev.root, "profile.json"))  # a board wired pin by pin
    with dev:
        before = dev.files()
        proc = subprocess.run(attila_cmd() + ["layout", OTHER_LAYOUT, "--port", dev.port,
                                              "--colour", "never"],
                              capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=ROOT)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "copied %s to the board as layout.json (verified)" % OTHER_LAYOUT in proc.stdout
        assert "the board says: attila: l-shape on pico-direct" in proc.stdout
        after = dev.files()
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


def _micropython_profiles():
    folder = os.path.join(ROOT, "boards", "profiles")
    out = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name)) as f:
                if json.load(f).get("port", "micropython") == "micropython":
                    out.append(os.path.join(folder, name))
    return out


@needs_emulator
@pytest.mark.parametrize("profile", _micropython_profiles(), ids=os.path.basename)
def test_every_profile_reads_its_switches_on_the_board(flashed, tmp_path, profile):
    """The firmware with each MicroPython profile follows a setup through its own wiring
    (direct pins, diode matrix, 74HC165 bit-banged or by SPI) on the emulated board."""
    from attila.game import layoutfile
    from attila.game.notation import log

    _out, golden, _built = flashed
    layout, _modules, _tiles = layoutfile.load(LAYOUT)
    game, steps = _script(layout)
    dev, hw = board_from(golden, tmp_path, profile=profile)
    shutil.copy(profile, os.path.join(dev.root, "profile.json"))
    with open(profile) as f:
        name = json.load(f)["name"]
    with dev:
        line = wait_for(lambda: boot_line(dev), "the firmware to start")
        assert line.startswith("attila: 4x5 on %s" % name), line
        play_steps(dev, hw, steps[:9])  # the six placements and the first turn
        want = " ".join(log(game).split()[:7])
        wait_for(lambda: ("log %s\n" % want) in saved_game(dev),
                 "the first moves in game.txt and its journal")
        assert b"Traceback" not in dev.serial_log()


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


@pytest.mark.parametrize("argv", [
    ["flash", "--port", "auto"],
    ["layout", "boards/4x5.json", "--port", "auto"],
    ["games", "--port", "auto"],
])
def test_port_auto_finds_the_board_like_no_port(argv, monkeypatch, capsys, tmp_path):
    """`--port auto` (as the README shows it) looks for the one board plugged
    in, as no --port does; it used to be refused as a path that does not exist."""
    from attila_tools import cli
    from attila_tools.board import device

    monkeypatch.chdir(build.ROOT)
    monkeypatch.setattr(device, "_list_ports", lambda: [])
    monkeypatch.setattr(build, "BUILD", str(tmp_path / "build"))
    if argv[0] == "games":
        argv = argv + ["--out", str(tmp_path / "games")]
    assert cli.main(argv) != 0
    err = capsys.readouterr().err
    assert "auto does not exist" not in err
    assert "no MicroPython board found" in err


class _ReportingBoard:
    """A board that only says what it is; anything else is a copy we must not make."""

    machine = "Raspberry Pi Pico with RP2040"

    def __init__(self, port):
        self.port = port

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def info(self):
        return {"name": "micropython", "version": (1, 27, 0), "mpy": 6 | 3 << 8 | 2 << 10,
                "machine": self.machine, "platform": "rp2"}

    def __getattr__(self, name):
        raise AssertionError("the board was touched: %s" % name)


@pytest.mark.parametrize("machine, profile, words", [
    ("Raspberry Pi Pico with RP2040", "esp32.json",
     "boards/profiles/esp32.json is a profile for the esp32, but the board is a Raspberry Pi "
     "Pico with RP2040: its firmware would stop at boot. Give --profile for the RP2040: "
     "boards/profiles/pico-direct.json, boards/profiles/pico-matrix.json, "
     "boards/profiles/pico-spi.json, boards/profiles/pico.json (or \"chip\": \"other\")"),
    ("Raspberry Pi Pico with RP2040", "pico2.json",
     "boards/profiles/pico2.json is a profile for the rp2350, but the board is a Raspberry Pi "
     "Pico with RP2040"),
    ("Raspberry Pi Pico2 with RP2350", "pico.json",
     "boards/profiles/pico.json is a profile for the rp2040, but the board is a Raspberry Pi "
     "Pico2 with RP2350: its firmware would stop at boot. Give --profile for the RP2350: "
     "boards/profiles/pico2.json"),
    ("Generic ESP32 module with ESP32", "pico.json", "is a profile for the rp2040, but the "
     "board is a Generic ESP32 module with ESP32"),
    ("Raspberry Pi Pico W with RP2040", "buzzer-25",
     "buzzer: pin 25 is not on the Raspberry Pi Pico W's header (GP23, GP24, GP25 and GP29 "
     "run its wireless chip), as the board is a Raspberry Pi Pico W"),
])
def test_flash_refuses_a_profile_for_another_chip_than_the_board_reports(
        machine, profile, words, monkeypatch, capsys, tmp_path):
    """The board says what it is (os.uname().machine); a profile for another chip,
    or with pins that board keeps, is refused before anything is copied: exit 2."""
    monkeypatch.chdir(ROOT)
    if profile == "buzzer-25":  # a plain RP2040 profile with the buzzer on GPIO 25
        with open(PROFILE) as f:
            data = dict(json.load(f), buzzer=25, board="")
        path = tmp_path / "p.json"
        path.write_text(json.dumps(data))
        profile = str(path)
    else:
        profile = os.path.join("boards", "profiles", profile)
    monkeypatch.setattr(_ReportingBoard, "machine", machine)
    monkeypatch.setattr(flash, "Board", _ReportingBoard)
    monkeypatch.setattr(flash, "find_port", lambda port: "/dev/ttyACM0")
    monkeypatch.setattr(flash, "check_compatible", lambda info, mpy: None)
    assert cli.main(["flash", "--profile", profile, "--source"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("attila flash: "), err
    assert words in err, err


def test_flash_takes_a_profile_for_the_chip_the_board_reports(monkeypatch):
    from attila import profile as profiles
    from attila_tools.board.device import check_chip

    pico = {"machine": "Raspberry Pi Pico W with RP2040"}
    assert check_chip(pico, profiles.load(PROFILE), PROFILE) is None  # no GP23-25, GP29
    wasm = {"machine": "JavaScript with Emscripten"}  # the emulated board: no chip of ours
    assert check_chip(wasm, profiles.load(PROFILE), PROFILE) is None
    assert check_chip({"machine": ""}, profiles.load(PROFILE), PROFILE) is None
