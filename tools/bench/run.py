#!/usr/bin/env python3
"""Run every benchmark: tools/bench/bench_*.py under CPython, mpy_*.py under MicroPython.

    python tools/bench/run.py [NAME ...]     (make bench)
    python tools/bench/run.py long_test_time (make bench-test-time)

bench_*.py run with this interpreter (the venv's CPython), and so do pico_*.py,
which measure the firmware on the emulated Pico (tools/pico); mpy_*.py run with
the unix port (.venv/bin/micropython) and MICROPYPATH=firmware:tools/bench,
from the repository root. Each script gets a header and its output as it
comes. A failing script does not stop the others: its error is printed and
the run exits 1 at the end. NAME filters the scripts by substring. A
long_*.py script (CPython) runs only when a NAME picks it: it measures what
takes too long for every `make bench` (a fresh clone's `make test`).

What a script prints is also written to docs/figures/<script>.md (on success
only), which the docs site includes: its figures come from this run, never
from a hand, with the date and the machine they were measured on.
"""

import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIGURES = os.path.join(ROOT, "docs", "figures")


def micropython_bin():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(exe):
        return exe
    exe = os.path.join(ROOT, ".venv", "bin", "micropython")
    return exe if os.path.exists(exe) else shutil.which("micropython")


def scripts(filters):
    found = []
    for name in sorted(os.listdir(HERE)):
        if not name.endswith(".py"):
            continue
        if name.startswith("bench_"):
            kind = "cpython"
        elif name.startswith("long_"):
            if not filters:
                continue  # only when named
            kind = "cpython"
        elif name.startswith("pico_"):
            kind = "pico"
        elif name.startswith("mpy_"):
            kind = "micropython"
        else:
            continue
        if filters and not any(f in name for f in filters):
            continue
        found.append((name, kind))
    return found


def run_teed(cmd, env):
    """Run a script from the repository root, its output shown as it comes
    and kept: (exit status, output)."""
    lines = []
    with subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          text=True, bufsize=1) as proc:
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            lines.append(line)
    return proc.returncode, "".join(lines)


def machine():
    """The machine a figure is measured on, in a few words: its processor, its
    cores, its memory and its system ("x86_64 Linux, 2 cores (AMD EPYC), 23 GB")."""
    import platform

    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith(("model name", "Hardware", "Model")):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = ""
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        memory = ", %d GB" % round(pages / 1e9)
    except (ValueError, OSError, AttributeError):
        pass
    return "%s %s, %d cores%s%s" % (platform.machine(), platform.system(), os.cpu_count() or 1,
                                     " (%s)" % model if model else "", memory)


def write_figures(name, label, out, folder=FIGURES):
    """docs/figures/<script>.md: the script's output as the docs include it,
    with the date and the machine it was measured on."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name[:-3] + ".md")
    # (a long_*.py script has a make target of its own: long_test_time.py, make bench-test-time)
    target = "make bench-" + name[5:-3].replace("_", "-") if name.startswith("long_") else \
        "make bench"
    with open(path, "w") as f:
        f.write("<!-- written by `%s` (tools/bench/run.py): do not edit -->\n" % target)
        f.write("Printed by `tools/bench/%s` (%s) in the last `%s`, %s, on %s:\n\n"
                % (name, label, target, time.strftime("%Y-%m-%d"), machine()))
        f.write("```text\n%s%s```\n" % (out, "" if out.endswith("\n") or not out else "\n"))
    return path


def main(argv=None):
    filters = sys.argv[1:] if argv is None else argv
    todo = scripts(filters)
    if not todo:
        print("bench: no benchmark script matches %s" % " ".join(filters))
        return 1
    failed = []
    mp = micropython_bin()
    for name, kind in todo:
        path = os.path.join("tools", "bench", name)
        if kind == "cpython":
            cmd, env, label = [sys.executable, path], dict(os.environ), "CPython"
        elif kind == "pico":
            cmd, env, label = [sys.executable, path], dict(os.environ), "emulated Pico, rp2040js"
        else:
            if not mp:
                print("== %s (MicroPython unix) ==\nmicropython not found (run `make install`)\n"
                      % name)
                failed.append(name)
                continue
            env = dict(os.environ, MICROPYPATH=os.pathsep.join(
                [os.path.join(ROOT, "firmware"), HERE]))
            cmd, label = [mp, path], "MicroPython unix"
        print("== %s (%s) ==" % (name, label))
        sys.stdout.flush()
        t0 = time.time()
        try:
            rc, out = run_teed(cmd, env)
        except OSError as e:
            print("cannot run %s: %s" % (name, e))
            rc = -1
        if rc != 0:
            print("!! %s failed (exit status %s)" % (name, rc))
            failed.append(name)
        else:
            write_figures(name, label, out)
        print("-- %s: %.1f s\n" % (name, time.time() - t0))
        sys.stdout.flush()
    if failed:
        print("bench: %d of %d scripts failed: %s" % (len(failed), len(todo), ", ".join(failed)))
        return 1
    print("bench: %d scripts ran" % len(todo))
    return 0


if __name__ == "__main__":
    sys.exit(main())
