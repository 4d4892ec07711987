"""The retrograde solver on the 4x5 board, from the empty board (CPython + the C kernel).

Run by tools/bench/run.py (make bench). Solves boards/4x5.json in a child
process (`attila solve --from-setup`, certificate and book into a scratch
folder) and prints its wall time, user CPU time and peak memory, then
checks that the certificate and the book are byte for byte those stored in
boards/solved/. The tables stay cached in build/retro/ (1.6 GB on disk), and
`attila analyse` of the README's 4x5 game (tests/tools/analyse/game-4x5.log) must
print tests/tools/analyse/game-4x5.analysis line for line: `make test` checks the
command on small layouts only, as it does not solve 4x5.
ATTILA_BENCH_QUICK=1 skips it (it solves the whole 4x5 board).
"""

import os
import resource
import subprocess
import sys
import tempfile
import time

from benchkit import ROOT  # (first: the paths)

SOLVED = os.path.join(ROOT, "boards", "solved")


def main():
    if os.environ.get("ATTILA_BENCH_QUICK") == "1":
        print("retro: skipped (ATTILA_BENCH_QUICK=1)")
        return 0
    attila = os.path.join(os.path.dirname(sys.executable), "attila")
    with tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        proc = subprocess.run([attila, "solve", "--from-setup", "boards/4x5.json", "--out", out,
                               "--quiet", "--keep-tables"], cwd=ROOT, capture_output=True, text=True)
        wall = time.perf_counter() - t
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        sys.stdout.write(proc.stdout)
        if proc.returncode:
            sys.stdout.write(proc.stderr)
            return 1
        print("retro 4x5: %.0f s wall, %.0f s user CPU, %.0f s system, peak memory %.2f GB"
              % (wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss * 1024 / 1e9))
        same = True
        for name in ("4x5.cert.json.gz", "4x5.book"):
            with open(os.path.join(out, name), "rb") as a, \
                    open(os.path.join(SOLVED, name), "rb") as b:
                if a.read() != b.read():
                    print("retro 4x5: %s differs from boards/solved/%s" % (name, name))
                    same = False
        print("retro 4x5: certificate and book as stored: %s" % ("yes" if same else "NO"))
    game = os.path.join("tests", "tools", "analyse", "game-4x5.log")
    t = time.perf_counter()
    proc = subprocess.run([attila, "analyse", game], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t
    with open(os.path.join(ROOT, "tests", "tools", "analyse", "game-4x5.analysis")) as f:
        analysed = proc.returncode == 0 and proc.stdout == f.read()
    if not analysed:
        sys.stdout.write(proc.stdout + proc.stderr)
    print("retro 4x5: attila analyse %s (%.1f s) prints tests/tools/analyse/game-4x5.analysis: %s"
          % (game, wall, "yes" if analysed else "NO"))
    return 0 if same and analysed else 1


if __name__ == "__main__":
    sys.exit(main())
