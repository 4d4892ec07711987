"""How long `make test` takes from a fresh clone, part by part (make bench-test-time).

Run by tools/bench/run.py only when named (`make bench-test-time`): it takes
as long as `make test` itself, too long for every `make bench`. It clones
the repository's committed HEAD into a scratch folder, then times, there,
`make install` and `make test` as a person runs them. Make runs every
recipe line through a shell of ours (SHELL=...), which notes the line's
wall time and the processor time of everything it ran, so each part of
`make test` (make -j2 runs two at a time) is timed in the same run, and
each pytest run writes a JUnit report (PYTEST_ADDOPTS) from which the
CPython suite's time per test folder is summed. The machine is shared: the load average
before and after is printed with the times, and processor time beside wall
time (the load stretches the one, hardly the other).
"""

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree

from benchkit import ROOT  # (first: the paths)

# The recipe lines of `make test` worth a line of their own, by what they run.
PARTS = (
    ("pytest tests/pico --ignore-glob",
     "tests/pico on MicroPython, the emulated Pico (make test-pico)"),
    ("pytest tests/pico/test_cp_",
     "tests/pico/test_cp_*.py on CircuitPython (make test-circuitpython)"),
    ("pytest --ignore=tests/pico", "the CPython suite (make test-cpython)"),
    ("mpytest.py unix", "tests/portable on MicroPython unix (make test-micropython)"),
    ("mpytest.py wasm", "tests/portable on MicroPython WebAssembly (make test-wasm)"),
    ("build --strict", "the docs, strict (make test-docs)"),
)

# Make's shell: the recipe line run by /bin/sh, then its times noted.
SHELL = """#!%s
import json, os, resource, subprocess, sys, time
start = time.time()
env = dict(os.environ)
if "pytest" in sys.argv[-1]:  # its JUnit report, a file of its own
    env["PYTEST_ADDOPTS"] = "--junitxml=%%s/junit-%%d.xml" %% (env["ATTILA_JUNIT"], os.getpid())
code = subprocess.call(["/bin/sh"] + sys.argv[1:], env=env)
used = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(os.environ["ATTILA_TIMES"], "a") as f:
    f.write(json.dumps({"line": sys.argv[-1], "wall": time.time() - start, "exit": code,
                        "cpu": used.ru_utime + used.ru_stime}) + "\\n")
sys.exit(code)
"""


def minutes(s):
    return "%d s (%d min %02d s)" % (s, s // 60, s % 60) if s >= 60 else "%d s" % s


def make(target, clone, env):
    """Run `make target` in the clone; (wall seconds, processor seconds, exit status)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.time()
    with open(os.path.join(clone, "make-%s.log" % target), "w") as log:
        code = subprocess.call(["make", target, "SHELL=" + env["ATTILA_SHELL"]], cwd=clone,
                               env=env, stdout=log, stderr=subprocess.STDOUT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return time.time() - start, cpu, code


def folders(reports):
    """{test folder: seconds} summed over the JUnit reports' test cases."""
    out = {}
    for path in reports:
        try:
            tree = ElementTree.parse(path)
        except (OSError, ElementTree.ParseError):
            continue
        for case in tree.iter("testcase"):
            parts = (case.get("classname") or "").split(".")
            folder = "/".join(parts[:2]) if parts[0] == "tests" else parts[0]
            out[folder] = out.get(folder, 0.0) + float(case.get("time") or 0)
    return out


def main():
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "VIRTUAL_ENV")}
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()
    scratch = tempfile.mkdtemp(prefix="attila-test-time-")
    try:
        clone = os.path.join(scratch, "attila")
        subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", ROOT, clone], check=True)
        subprocess.run(["git", "checkout", "--quiet", head], cwd=clone, check=True)
        shell = os.path.join(scratch, "timed-sh")
        with open(shell, "w") as f:
            f.write(SHELL % sys.executable)
        os.chmod(shell, 0o755)
        times = os.path.join(scratch, "times.jsonl")
        env.update(ATTILA_SHELL=shell, ATTILA_TIMES=times, ATTILA_JUNIT=scratch)
        load = os.getloadavg()[0]
        print("make test from a fresh clone (git clone of %s); load average %.1f before it "
              "started (the machine is shared)" % (head, load))
        results = []
        for target in ("install", "test"):
            wall, cpu, code = make(target, clone, env)
            results.append((target, wall, cpu, code))
            print("make %s: %s wall, %s processor time%s" % (
                target, minutes(wall), minutes(cpu), "; FAILED (exit %d)" % code if code else ""))
            if code:
                with open(os.path.join(clone, "make-%s.log" % target)) as f:
                    sys.stdout.write(f.read()[-4000:])
                return 1
        print("the parts of make test (make -j2: two run at once):")
        with open(times) as f:
            lines = [json.loads(line) for line in f]
        for key, words in PARTS:
            for rec in lines:
                if key in rec["line"]:
                    print("  %s: %s wall, %s processor time" % (words, minutes(rec["wall"]),
                                                                  minutes(rec["cpu"])))
                    break
        suite = folders(os.path.join(scratch, n) for n in sorted(os.listdir(scratch))
                        if n.startswith("junit"))
        if suite:
            print("the CPython suite by test folder (its tests' own time, summed):")
            for name in sorted(suite, key=lambda k: -suite[k]):
                if not name.startswith("tests/pico"):
                    print("  %s: %s" % (name, minutes(suite[name])))
        total = sum(wall for _t, wall, _c, _x in results)
        print("install and test: %s wall; load average %.1f when it ended"
              % (minutes(total), os.getloadavg()[0]))
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
