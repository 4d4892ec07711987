#!/usr/bin/env python3
"""Run the portable tests (tests/portable/test_*.py) under real MicroPython.

    python tools/mpytest.py unix   # .venv/bin/micropython, with a real heap limit
    python tools/mpytest.py wasm   # MicroPython WebAssembly in Node (tools/wasm/run.mjs)

Each test file runs in a fresh interpreter; tests/portable/runner.py imports
it, runs every ``test_*`` function (in name order) and prints markers that
this script turns into one line per file, the failures with the test name and
the MicroPython traceback (with the source line of each frame we can find),
the skipped tests with their reasons, and a last line
``micropython-unix: N passed, K skipped, M failed``. Exit status 1 on any
failure or when no test passed; 2 on bad arguments.

Both ports run from the repository root, so a test may read boards/4x5.json.
unix: MICROPYPATH=firmware:firmware/lib:<dir>:tests/portable, ``-X heapsize=512K`` (change
with --heapsize), so a memory blow-up fails as MemoryError. The unix port's
objects take twice the RP2040's bytes (8-byte words), so 512K holds about
what the Pico's 246 KB heap does, with room for the fixtures (a 64 KB
littlefs in RAM, a 14 KB card, the 8x8 board's big-int masks) whatever
stale words the conservative collector finds on the stack. The chip's own
heap is judged on the emulated Pico.
wasm: firmware/attila, firmware/lib, boards/ and the test directory are copied into the
port's in-memory file system at their host paths. The port has no
``machine``, rejects @micropython.native/viper, and its OSError numbers are
WASI ones (ENOENT is 44). Its heap grows on demand, so memory limits are
only checked on unix.

A module-level ``PORTS = ("unix",)`` in a test file limits it to the ports
named; its tests are then counted as skipped on the others. A test that does
not apply on an interpreter calls ``check.skip(reason)`` and is counted as
skipped, with its reason, never as passed.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
LIB = os.path.join(FIRMWARE, "lib")  # micropython-lib's modules the core uses (hmac)
PORTABLE = os.path.join(ROOT, "tests", "portable")
MARK = "@@mpytest"
HANG_GUARD_S = 900  # only against a hung interpreter; no test is timed


def micropython_bin():
    """The unix port's executable: the venv's, else one on PATH."""
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(exe):
        return exe
    exe = os.path.join(ROOT, ".venv", "bin", "micropython")
    if os.path.exists(exe):
        return exe
    return shutil.which("micropython")


def find_tests(test_dir, only):
    """Module names of the test files in test_dir (filtered by `only`)."""
    names = sorted(
        f[:-3] for f in os.listdir(test_dir) if f.startswith("test_") and f.endswith(".py")
    )
    if only:
        wanted = set(os.path.splitext(os.path.basename(o))[0] for o in only)
        missing = wanted.difference(names)
        if missing:
            raise ValueError("no such test file: %s" % ", ".join(sorted(missing)))
        names = [n for n in names if n in wanted]
    return names


def runner_code(name, port):
    return "import runner\nrunner.main([%r], %r)\n" % (name, port)


def run_unix(names, test_dir, heapsize):
    exe = micropython_bin()
    if not exe:
        raise SystemExit("mpytest: no micropython executable (run `make install`)")
    path = [FIRMWARE, LIB, test_dir]
    if os.path.abspath(test_dir) != PORTABLE:
        path.append(PORTABLE)
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(_rel(p) for p in path))
    for name in names:
        try:
            proc = subprocess.run(
                [exe, "-X", "heapsize=" + heapsize, "-c", runner_code(name, "unix")],
                cwd=ROOT, env=env, capture_output=True, text=True, timeout=HANG_GUARD_S,
            )
            yield name, proc.stdout, proc.stderr, proc.returncode
        except subprocess.TimeoutExpired as e:
            yield name, _text(e.stdout), "hung for %d s, killed" % HANG_GUARD_S, -1


def run_wasm(names, test_dir, heapsize):
    node = shutil.which("node")
    script = os.path.join(ROOT, "tools", "wasm", "run.mjs")
    pkg = os.path.join(ROOT, "tools", "wasm", "node_modules", "@micropython",
                       "micropython-webassembly-pyscript")
    if not node or not os.path.isdir(pkg):
        raise SystemExit("mpytest: node or %s missing (run `make install`)" % _rel(pkg))
    args = [node, script, "--heapsize", str(_bytes(heapsize)),
            "--copy", os.path.join(FIRMWARE, "attila"), "--copy", LIB, "--copy", test_dir,
            "--path", FIRMWARE, "--path", LIB, "--path", os.path.abspath(test_dir),
            "--cwd", ROOT]
    if os.path.isdir(os.path.join(ROOT, "boards")):
        args += ["--copy", os.path.join(ROOT, "boards")]
    if os.path.abspath(test_dir) != PORTABLE:
        args += ["--copy", PORTABLE, "--path", PORTABLE]
    for name in names:
        try:
            proc = subprocess.run(
                args + ["--exec", runner_code(name, "wasm")],
                cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S,
            )
            yield name, proc.stdout, proc.stderr, proc.returncode
        except subprocess.TimeoutExpired as e:
            yield name, _text(e.stdout), "hung for %d s, killed" % HANG_GUARD_S, -1


def parse(stdout):
    """-> (passes, fails [(test, text)], skipped [(test, reason)], file skip reason or None,
    done?)."""
    passes, fails, skipped, skip, done = [], [], [], None, False
    current, lines, loose = None, [], []
    for line in stdout.splitlines():
        if line.startswith(MARK + " "):
            word, _, rest = line[len(MARK) + 1:].partition(" ")
            if word == "FAIL":
                current, lines = rest, loose
                loose = []
            elif word == "END" and current is not None:
                fails.append((current, "\n".join(lines)))
                current, lines = None, []
            elif word == "PASS":
                passes.append(rest)
                loose = []
            elif word == "SKIPPED":
                test, _, reason = rest.partition(" ")
                skipped.append((test, reason))
                loose = []
            elif word == "SKIP":
                skip = rest
            elif word == "DONE":
                done = True
        elif current is not None:
            lines.append(line)
        else:
            loose.append(line)  # output printed by the test that follows
    if current is not None:  # died inside a failure report
        fails.append((current, "\n".join(lines)))
    return passes, fails, skipped, skip, done


_FRAME = re.compile(r'^(\s*)File "([^"]+)", line (\d+)')


def annotate(text):
    """Drop the runner's frame; add the source line under each frame we can read."""
    out = []
    for line in text.splitlines():
        m = _FRAME.match(line)
        if m and os.path.basename(m.group(2)) == "runner.py":
            continue  # the runner's own frame says nothing about the test
        out.append(line)
        if m:
            src = _source_line(m.group(2), int(m.group(3)))
            if src:
                out.append(m.group(1) + "  > " + src)
    return "\n".join(out)


def _source_line(path, lineno):
    full = path if os.path.isabs(path) else os.path.join(ROOT, path)
    try:
        with open(full, encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                if i == lineno:
                    return line.strip()
    except OSError:
        return None
    return None


def _rel(p):
    p = os.path.abspath(p)
    return os.path.relpath(p, ROOT) if p.startswith(ROOT + os.sep) else p


def _bytes(size):
    size = size.strip().upper()
    mult = {"K": 1024, "M": 1024 * 1024}.get(size[-1:], 1)
    return int(size.rstrip("KM")) * mult


def _text(data):
    if data is None:
        return ""
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else data


def _indent(text, pad="    "):
    return "\n".join(pad + line for line in text.splitlines())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("port", choices=("unix", "wasm"))
    ap.add_argument("files", nargs="*", help="test files or module names (default: all)")
    ap.add_argument("--dir", default=PORTABLE, help="directory of test_*.py (default tests/portable)")
    ap.add_argument("--heapsize", default="512K", help="MicroPython heap, e.g. 512K (default)")
    args = ap.parse_intermixed_args(argv)
    try:
        _bytes(args.heapsize)
    except ValueError:
        ap.error("bad --heapsize %r" % args.heapsize)
    test_dir = os.path.abspath(args.dir)
    if not os.path.isdir(test_dir):
        ap.error("no directory %s" % args.dir)
    try:
        names = find_tests(test_dir, args.files)
    except ValueError as e:
        ap.error(str(e))
    run = run_unix if args.port == "unix" else run_wasm
    total_pass = total_fail = total_skip = 0
    for name, stdout, stderr, rc in run(names, test_dir, args.heapsize):
        passes, fails, skipped, skip, done = parse(stdout)
        if not done and not fails:
            detail = (stderr.strip() or stdout.strip() or "no output")
            fails.append(("<interpreter>", "exit status %s\n%s" % (rc, detail)))
        elif stderr.strip() and rc != 0:
            fails.append(("<interpreter>", "exit status %s\n%s" % (rc, stderr.strip())))
        total_pass += len(passes)
        total_fail += len(fails)
        total_skip += len(skipped)
        if skip and not fails:
            print("%s.py: %d skipped (%s)" % (name, len(skipped), skip))
            continue
        line = "%s.py: %d passed" % (name, len(passes))
        if skipped:
            line += ", %d skipped" % len(skipped)
        if fails:
            line += ", %d failed" % len(fails)
        print(line)
        for test, reason in skipped:
            print("  SKIP %s.py::%s: %s" % (name, test, reason))
        for test, text in fails:
            print("  FAIL %s.py::%s" % (name, test))
            print(_indent(annotate(text)))
        sys.stdout.flush()
    print("micropython-%s: %d passed, %d skipped, %d failed"
          % (args.port, total_pass, total_skip, total_fail))
    return 1 if total_fail or not total_pass else 0


if __name__ == "__main__":
    sys.exit(main())
