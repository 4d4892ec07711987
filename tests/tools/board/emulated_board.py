"""The emulated board as the flash tests drive it, and the commands they run.

The board is tools/emulator (MicroPython WebAssembly behind a pseudo-terminal),
reached by the real mpremote transport. Its hands (play_steps) wait for what
the board prints, never for a time: a slow emulator only takes longer.
conftest.py flashes one board per session (`flashed`); each test starts from
a copy of its flash (board_from).
"""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from attila_tools.board import build  # noqa: E402
from tests.helpers import wait_for  # noqa: E402
from tools.emulator.bridge import EmulatedDevice, available  # noqa: E402
from tools.emulator.hardware import Hardware  # noqa: E402

LAYOUT = os.path.join(ROOT, "boards", "4x5.json")
OTHER_LAYOUT = os.path.join(ROOT, "boards", "l-shape.json")
PROFILE = os.path.join(ROOT, "boards", "profiles", "pico.json")
HANG_GUARD_S = 300  # against a hung board only; nothing here is timed

needs_emulator = pytest.mark.skipif(bool(available()), reason="emulator: %s" % available())


def attila_cmd():
    """The attila command of this checkout's .venv (python -m when it is not installed)."""
    exe = os.path.join(os.path.dirname(sys.executable), "attila")
    return [exe] if os.path.exists(exe) else [sys.executable, "-m", "attila_tools.cli"]


def run_flash(port, *extra, layout=LAYOUT, profile=PROFILE):
    """`attila flash --port PORT` in a process of its own."""
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


def plan():
    """The files `attila flash` puts on the board for LAYOUT and PROFILE."""
    return build.plan(LAYOUT, PROFILE)


def saved_game(dev):
    """The board's save text with its journal carried out ("" while it has none)."""
    from attila.saves.savetext import current
    from attila.saves.store import journal_of

    files = dev.files()
    if build.SAVE_FILE not in files:
        return ""
    return current(files[build.SAVE_FILE], files.get(journal_of(build.SAVE_FILE), b""))


def save_text(layout_path=LAYOUT, actions="@a1 @e4"):
    """game.txt as the board saves a game of these actions (with its checksum line)."""
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


def scripted_game(layout):
    """A whole game as (action, occupancy after each physical step)."""
    from attila.game import notation
    from attila.opponent.chooser import action_text
    from attila.play.plan import first_action
    from attila.game.rules import Game

    game = Game(layout)
    occ = 0
    steps = []
    while True:
        action = action_text(game.layout, first_action(game))
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
