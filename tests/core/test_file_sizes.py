"""No source file past 500 lines: a room that grows past that is split by job."""

import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIMIT = 500
KINDS = (".py", ".mjs", ".js", ".c", ".sh", ".html", ".css")


def tracked():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if out.returncode:  # not a checkout (an unpacked archive): walk the folders
        return [os.path.relpath(os.path.join(top, n), ROOT)
                for folder in ("firmware", "sim", "tools", "tests", "docs")
                for top, dirs, names in os.walk(os.path.join(ROOT, folder))
                if "node_modules" not in top for n in names]
    return out.stdout.split()


def test_no_source_file_is_past_500_lines():
    long = []
    for path in tracked():
        if not path.endswith(KINDS) or not os.path.exists(os.path.join(ROOT, path)):
            continue
        with open(os.path.join(ROOT, path), "rb") as f:
            n = f.read().count(b"\n")
        if n > LIMIT:
            long.append("%s: %d lines" % (path, n))
    assert not long, "past %d lines (split them by job):\n" % LIMIT + "\n".join(long)
