"""`make flash` against the emulated Pico: how long a maker waits for it (make bench).

    python tools/bench/pico_flash.py          (make bench)

The emulated Pico behind a pseudo-terminal (tools/pico/serve.py's Served,
as `serve.py` starts it), on a fresh flash (an empty file system: every
file is copied, the 4x5 layout's opening table included), flashed with
`make flash PORT=...` as the docs say, timed on the wall clock; then
flashed again with nothing changed (every file's SHA-256 read back, none
copied). The copy goes through the emulated chip's USB serial port
(rp2040js over a pseudo-terminal): a real Pico's USB takes the bytes at
its own speed, which is not measured here.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

from benchkit import LAYOUT, PROFILE, ROOT  # (first: the paths)

from pico.serve import Served

BOOT_WAIT_S = 60  # the emulated chip's first words after the reset come slower than a Pico's


def flash(port):
    """`make flash` to `port`: (wall seconds, its output)."""
    make = shutil.which("make")
    cmd = [make, "-s", "flash", "PORT=" + port, "LAYOUT=" + LAYOUT, "PROFILE=" + PROFILE,
           "ARGS=--wait %d" % BOOT_WAIT_S]
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    start = time.time()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.time() - start
    if proc.returncode:
        raise SystemExit("make flash failed (exit %d):\n%s%s"
                         % (proc.returncode, proc.stdout, proc.stderr))
    return wall, proc.stdout + proc.stderr


def copied(folder):
    """Bytes of the files on the board's flash now (what a fresh flash copied)."""
    from pico.flashimage import read_files

    with open(os.path.join(folder, "flash.bin"), "rb") as f:
        files = read_files(f.read())
    return len(files), sum(len(data) for data in files.values())


def main():
    if not shutil.which("make"):
        print("flash: no make here")
        return 1
    folder = tempfile.mkdtemp(prefix="attila-flash-bench-")
    try:
        served = Served(folder, LAYOUT, PROFILE).start()
        try:
            first, out = flash(served.port)
            last = out.strip().splitlines()[-1] if out.strip() else ""
            files, size = copied(folder)
            again, _ = flash(served.port)
        finally:
            served.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("make flash to the emulated Pico (USB serial through rp2040js and a pseudo-terminal), "
          "4x5 with pico.json:")
    print("  a fresh board: %d files, %.0f kB copied, in %.0f s (%.1f kB/s, the reset and the "
          "board's first words included)" % (files, size / 1000, first, size / 1000 / first))
    print("  again, nothing changed: %.0f s (every file's SHA-256 read back)" % again)
    print("  the board's last line: %s" % last)
    return 0


if __name__ == "__main__":
    sys.exit(main())
