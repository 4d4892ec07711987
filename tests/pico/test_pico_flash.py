"""`make flash` end to end against the emulated Pico, through a pseudo-terminal.

The chip starts with a file system that holds only the layout's opening
table (as an earlier flash left it; otherwise as a Pico fresh from its
UF2); real mpremote (through `make flash PORT=...`) copies the firmware
over the emulated USB serial port (the table is found up to date),
verifies every file's SHA-256 on the board and resets it; the board then
says its first words. The files on the chip's littlefs are read back
from its flash image and must be the ones built.
"""

import os
import shutil
import subprocess
import sys

from attila_tools.board.build import sources
from conftest import LAYOUT, ROOT, profile
from tools.pico.board import firmware_files
from tools.pico.chip import new_flash
from tools.pico.flashimage import read_files
from tools.pico.serve import Served

HANG_GUARD_S = 600  # against a hung board only
# The emulated chip runs at about a third of a real one's speed (less on a
# loaded machine): its first words after the reset take longer than the
# 8 s the flash tool waits for a real board.
BOOT_WAIT_S = 60


def test_make_flash_against_the_emulated_pico(tmp_path, mpy_dir):
    prof = profile("pico.json")
    # The layout's opening table (most of a megabyte) is on the chip already, as an
    # earlier flash left it: copied through the emulated USB it would take
    # about 2.5 minutes of this test (tests/tools/board/test_flash_serial.py copies
    # it whole); here it must be found up to date, and verified.
    os.makedirs(str(tmp_path / "board"))
    with open(os.path.join(ROOT, "boards", "solved", "4x5.opening"), "rb") as f:
        new_flash(str(tmp_path / "board" / "flash.bin"), {"layout.opening": f.read()})
    served = Served(str(tmp_path / "board"), LAYOUT, prof).start()
    try:
        make = shutil.which("make")
        if make and subprocess.run([make, "-q", "install"], cwd=ROOT).returncode == 0:
            cmd = [make, "-s", "flash", "PORT=" + served.port, "LAYOUT=" + LAYOUT, "PROFILE=" + prof,
                   "ARGS=--wait %d" % BOOT_WAIT_S]
        else:
            cmd = [os.path.join(os.path.dirname(sys.executable), "attila"), "flash", "--port",
                   served.port, "--layout", LAYOUT, "--profile", prof, "--wait", str(BOOT_WAIT_S)]
        # A make of its own, not a job of the make that runs these tests.
        env = {k: v for k, v in os.environ.items()
               if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=ROOT,
                              env=env)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 0, out
        assert "micropython 1.27.0 (Raspberry Pi Pico with RP2040)" in out
        # The viper kernel compiled on the host for the chip's own arch (its _mpy).
        assert "native code compiled for the board's armv6m: attila/opponent/kernelv.mpy" in out
        # Every file of the plan: the firmware, layout.json, layout.book, layout.opening,
        # profile.json.
        assert "verified %d files (sha256)" % (len(sources()) + 4) in out
        book = os.path.join(ROOT, "boards", "solved", "4x5.book")
        assert ("setup book boards/solved/4x5.book (%d bytes): the board places from it"
                % os.path.getsize(book)) in out
        opening = os.path.join(ROOT, "boards", "solved", "4x5.opening")
        assert ("opening table boards/solved/4x5.opening (%.1f kB): the game's first turn "
                "of play is exact" % (os.path.getsize(opening) / 1000.0)) in out
        assert "%d to copy, 1 up to date" % (len(sources()) + 3) in out
        assert "layout.opening" not in out.split("to copy", 1)[1]  # not copied again
        assert out.rstrip().endswith("the board says: attila: 4x5 on pico, 20 squares"), out
        served.pico._cmd(op="read")
    finally:
        served.close()
    with open(served.pico.flash_path, "rb") as f:
        on_chip = read_files(f.read())
    built = firmware_files(LAYOUT, prof, out_dir=mpy_dir)
    assert {k: v for k, v in on_chip.items() if k in built} == built
    assert set(on_chip) - set(built) <= {"game.txt", "game.txt.tmp"}
    assert "attila/opponent/kernelv.mpy" in on_chip and "attila/opponent/kernelv.py" not in on_chip
    assert served.pico.resets == []  # soft resets only: the chip never restarted
