"""The board the flash tests share: flashed once per session with `make flash`."""

import os
import shutil

import pytest
from emulated_board import LAYOUT, PROFILE, ROOT, EmulatedDevice, available, make_flash, plan

from attila_tools.board import build


@pytest.fixture(scope="session")
def flashed(tmp_path_factory):
    """A board flashed once with `make flash`: (output, copy of its flash, the files
    built for it). Once for all the files that use it (session scope):
    each test starts from a copy of its flash (emulated_board.board_from)."""
    if available():
        pytest.skip("emulator: %s" % available())
    state = str(tmp_path_factory.mktemp("flashed"))
    # The layout's opening table (most of a megabyte) is on the board already, from an
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
    for dest, src in plan().items():  # what was built for that flash
        with open(src, "rb") as f:
            built[dest] = f.read()
    golden = str(tmp_path_factory.mktemp("golden"))
    shutil.copytree(os.path.join(state, "fs"), os.path.join(golden, "fs"))
    return out, os.path.join(golden, "fs"), built
