"""The emulated Pico for these tests (tools/pico): the real firmware on MicroPython's RP2040 build.

`make install` installs rp2040js; a machine without it fails these tests
with the reason rather than skipping them. Time on the chip is emulated:
nothing here depends on the wall clock (the limits in ms are emulated
ones, against a hung board only).
"""

import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools.pico.board import PicoBoard  # noqa: E402
from tools.pico.chip import available  # noqa: E402

LAYOUT = os.path.join(ROOT, "boards", "4x5.json")
PROFILES = os.path.join(ROOT, "boards", "profiles")


def profile(name):
    return os.path.join(PROFILES, name)


@pytest.fixture(scope="session")
def mpy_dir(tmp_path_factory):
    """One mpy-cross build for the session, apart from build/flash (other tests use it)."""
    why = available()
    if why:
        pytest.fail("the emulated Pico cannot run: %s" % why)
    return str(tmp_path_factory.mktemp("mpy"))


@pytest.fixture
def flashed(tmp_path, mpy_dir):
    """flashed(profile_name, layout=LAYOUT, extra=None, flash_times="typical",
    flash_data=False) -> a PicoBoard (not started)."""

    def make(name="pico.json", layout=LAYOUT, extra=None, folder="board", flash_times="typical",
             flash_data=False):
        return PicoBoard.flashed(str(tmp_path / folder), layout, profile(name), extra=extra,
                                 out_dir=mpy_dir, flash_times=flash_times, flash_data=flash_data)

    return make
