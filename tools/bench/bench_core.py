"""Core benchmark under CPython, plus the MicroPython small-heap checks.

Run by tools/bench/run.py with the venv's CPython. The speed figures come
from corebench.py, the same code mpy_core.py runs under MicroPython. Then,
as subprocesses of the unix port (.venv/bin/micropython), the seeded full
random game on the 4x5 board is played under `-X heapsize=64K` (OK or
MemoryError), and the smallest heap (1 KB steps) that still plays it is
searched, with the core imported from source and from mpy-cross output.
"""

import os
import platform
import shutil
import subprocess
import sys
import tempfile

from benchkit import FIRMWARE, HERE  # (first: the paths)

import corebench

GAME = "import corebench\nprint(corebench.game_summary())\n"


def _tool(name):
    exe = os.path.join(os.path.dirname(sys.executable), name)
    return exe if os.path.exists(exe) else shutil.which(name)


def play_under(micropython, path, heap):
    """Play the seeded game with -X heapsize=heap; -> (ok, last line of output)."""
    proc = subprocess.run(
        [micropython, "-X", "heapsize=%s" % heap, "-c", GAME],
        env=dict(os.environ, MICROPYPATH=os.pathsep.join(path)),
        capture_output=True, text=True, timeout=120,
    )
    lines = (proc.stdout + proc.stderr).strip().splitlines()
    return proc.returncode == 0, (lines[-1] if lines else "no output")


def smallest_heap(micropython, path, low=8, high=64):
    """Smallest heap in KB (between low and high) that plays the game, or None."""
    if not play_under(micropython, path, "%dK" % high)[0]:
        return None
    while low < high:
        mid = (low + high) // 2
        if play_under(micropython, path, "%dK" % mid)[0]:
            high = mid
        else:
            low = mid + 1
    return high


def compile_core(mpy_cross, out):
    """mpy-cross every firmware/attila module and corebench into `out`; a module
    with native code stays source, as `attila flash` leaves it for a board whose
    arch it cannot tell (mpy-cross needs -march for it)."""
    from attila_tools.board.build import native

    os.makedirs(os.path.join(out, "attila"))
    pairs = [(os.path.join(HERE, "corebench.py"), os.path.join(out, "corebench.mpy"))]
    src = os.path.join(FIRMWARE, "attila")
    for name in sorted(os.listdir(src)):
        if name.endswith(".py"):
            py = os.path.join(src, name)
            if native(py):
                shutil.copy(py, os.path.join(out, "attila", name))
            else:
                pairs.append((py, os.path.join(out, "attila", name[:-3] + ".mpy")))
    for py, mpy in pairs:
        subprocess.run([mpy_cross, "-o", mpy, py], check=True, capture_output=True)


def micropython_checks():
    micropython = _tool("micropython")
    if not micropython:
        print("micropython: not found, heap checks skipped")
        return 1
    status = 0
    source = [FIRMWARE, HERE]
    ok, line = play_under(micropython, source, "64K")
    print("micropython -X heapsize=64K, full random 4x5 game (core from source): %s (%s)"
          % ("OK" if ok else "FAILED", line))
    if not ok:
        status = 1
    low = smallest_heap(micropython, source)
    print("smallest heap that plays it (core from source): %s"
          % ("%d KB" % low if low else "more than 64 KB"))
    mpy_cross = _tool("mpy-cross")
    if mpy_cross:
        with tempfile.TemporaryDirectory() as tmp:
            compile_core(mpy_cross, tmp)
            ok, line = play_under(micropython, [tmp], "64K")
            print("micropython -X heapsize=64K, full random 4x5 game (core as .mpy): %s (%s)"
                  % ("OK" if ok else "FAILED", line))
            if not ok:
                status = 1
            low = smallest_heap(micropython, [tmp])
            print("smallest heap that plays it (core as .mpy): %s"
                  % ("%d KB" % low if low else "more than 64 KB"))
    return status


def main():
    print("interpreter: %s %s" % (platform.python_implementation(), platform.python_version()))
    corebench.bench_movegen()
    ok = corebench.bench_perft()
    corebench.bench_random_game()
    print("seeded game: %s" % corebench.game_summary())
    status = micropython_checks()
    return status if ok else 1


if __name__ == "__main__":
    sys.exit(main())
