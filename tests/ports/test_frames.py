"""The idle loop step's functions keep their frames off MicroPython's heap.

MicroPython gives a function call a frame of its locals and value stack on
the C stack when it fits VM_MAX_STATE_ON_STACK (11 words; an exception
handler takes 2 more), else from the heap, freed again on return. On the
RP2040 that heap search crosses every small hole left below the first free
run big enough: with the opening table's modules loaded at boot, three such
frames slow an idle step of main.py down (docs/pages/inside/benchmarks.md).
The size is the compiler's n_state, read here from the unix port's
`micropython -v -v` (the same compiler as mpy-cross). A function on the
path that grows past 11 slots fails this test: split it, or keep fewer
locals (attila.board.Board.step says how).
"""

import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ON_STACK = 11  # VM_MAX_STATE_ON_STACK / sizeof(mp_uint_t)

# (file, function names): what an idle step of main.py calls.
IDLE_PATH = [
    ("firmware/attila/board.py", ("step",)),
    ("firmware/attila/sensing/inputs.py", ("step",)),
    ("firmware/attila/play/controller.py", ("tick", "_work", "_ask")),
    ("firmware/attila/play/presses.py", ("tick",)),
    ("firmware/attila/play/plan.py", ("wanted",)),
    ("firmware/attila/sensing/scanners.py", ("scan", "_scan_levels", "read")),
    ("firmware/attila/console.py", ("drain", "writable")),
    ("firmware/attila/ticks.py", ("ticks_diff",)),
    ("firmware/ports/micropython/hardware.py", ("one", "read", "readinto")),
]


def _micropython():
    exe = os.path.join(ROOT, ".venv", "bin", "micropython")
    return exe if os.path.exists(exe) else shutil.which("micropython")


def frames(path):
    """[(function name, slots)] of a source file, as the unix port compiles it."""
    exe = _micropython()
    src = os.path.join(ROOT, path)
    out = subprocess.run(
        [exe, "-v", "-v", "-c", "compile(open(%r).read(), %r, 'exec')" % (src, path)],
        capture_output=True, text=True, timeout=60, check=True).stdout
    found = []
    name = None
    state = 0
    for line in out.splitlines():
        m = re.match(r"File .*, code block '([^']+)'", line)
        if m:
            name = m.group(1)
            continue
        m = re.match(r"\(N_STATE (\d+)\)", line)
        if m:
            state = int(m.group(1))
            continue
        m = re.match(r"\(N_EXC_STACK (\d+)\)", line)
        if m:
            found.append((name, state + 2 * int(m.group(1))))
    return found


@pytest.mark.skipif(not _micropython(), reason="no unix micropython (make install builds it)")
@pytest.mark.parametrize("path,names", IDLE_PATH)
def test_the_idle_path_fits_the_stack(path, names):
    every = frames(path)
    if not every:
        pytest.skip("this micropython prints no bytecode with -v -v (MICROPY_DEBUG_PRINTERS off)")
    got = [(name, slots) for name, slots in every if name in names]
    assert sorted(set(name for name, _ in got)) == sorted(names), "a function is gone: %r" % (got,)
    big = [(name, slots) for name, slots in got if slots > ON_STACK]
    assert not big, "%s: frames from the heap (more than %d slots): %r" % (path, ON_STACK, big)
