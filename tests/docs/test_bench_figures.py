"""`make bench` writes each script's output where the docs include it (docs/figures),
and the pages quote a bench's figures only through those includes."""

import importlib.util
import os
import re
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIGURES = os.path.join(ROOT, "docs", "figures")


def _run_py():
    spec = importlib.util.spec_from_file_location(
        "bench_run", os.path.join(ROOT, "tools", "bench", "run.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_scripts_output_becomes_its_figures_file(tmp_path):
    run = _run_py()
    path = run.write_figures("mpy_demo.py", "MicroPython unix", "nodes/s: 42\nheap: 7 bytes",
                             folder=str(tmp_path))
    assert path == str(tmp_path / "mpy_demo.md")
    text = (tmp_path / "mpy_demo.md").read_text()
    assert text.startswith("<!-- written by `make bench` (tools/bench/run.py): do not edit -->\n")
    # Where and when it was measured: the date and the machine.
    assert "Printed by `tools/bench/mpy_demo.py` (MicroPython unix) in the last `make bench`, " \
        "%s, on %s:\n" % (time.strftime("%Y-%m-%d"), run.machine()) in text
    assert re.fullmatch(r"\S+ \S+, \d+ cores( \(.+\))?(, \d+ GB)?", run.machine()), run.machine()
    assert text.endswith("```text\nnodes/s: 42\nheap: 7 bytes\n```\n")
    # A script too long for every make bench has its own target, named in its file.
    run.write_figures("long_demo.py", "CPython", "1 s\n", folder=str(tmp_path))
    assert "in the last `make bench-demo`, " in (tmp_path / "long_demo.md").read_text()


def test_every_included_figures_file_is_there_and_comes_from_a_bench_script():
    pages = os.path.join(ROOT, "docs", "pages")
    included = set()
    for folder, _, files in os.walk(pages):
        for name in files:
            if name.endswith(".md"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    for line in f:
                        if line.startswith('--8<-- "figures/'):
                            included.add(line.split('"')[1][len("figures/"):])
    assert included, "no page includes a figures file"
    scripts = {n[:-3] for n in os.listdir(os.path.join(ROOT, "tools", "bench"))
               if n.endswith(".py") and n.startswith(("bench_", "mpy_", "pico_", "long_"))}
    # The printed parts' figures come from the solids (make hardware-parts), the
    # shopping list from the boards (make hardware), the signals and the 5 V
    # from the simulation and the copper (make hardware-sim).
    parts = ""
    for path in (("parts", "export.py"), ("outputs.py",), ("signals.py",), ("signalpage.py",)):
        with open(os.path.join(ROOT, "tools", "attila_tools", "hardware", *path),
                  encoding="utf-8") as f:
            parts += f.read()
    for name in sorted(included):
        assert os.path.exists(os.path.join(FIGURES, name)), name
        assert name[:-3] in scripts or '"%s"' % name in parts, (
            "%s is written neither by a bench script nor by make hardware" % name)


# Figures only a bench measures: a speed, heap or room left, a loop step's
# median or longest. A page quotes them through its figures include (a
# target it sets, "5,000 nodes/s or more", "asked of it", is no figure).
MEASURED = re.compile(
    r"\d[\d,.]*\s*(?:nodes/s|nodes a second|nodes per second|plies/s|actions/s)"
    r"(?!\s+(?:or more|asked))"
    r"|\d[\d,.]*\s*(?:bytes|B|KB|kB|KiB)\s+(?:of (?:the )?heap\s+)?free"
    r"|\b(?:median|longest)\s+(?:of\s+)?\d[\d,.]*\s*(?:µs|us|ms)\b")


_CODE_SPAN = re.compile(r"`[^`]*`")


def _prose(path, code=True):
    """(line number, text) of a page's lines outside code blocks and includes;
    code=False blanks inline code out too (what the board or a command prints,
    such as a status line's "offline for 2 min", is no time a bench measures)."""
    out, fenced = [], False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
            elif not fenced and not line.startswith(("    ", "--8<--")):
                out.append((n, line if code else _CODE_SPAN.sub(
                    lambda m: "`%s`" % ("_" * (len(m.group(0)) - 2)), line)))
    return out


# A time something took (a test run, a solve, a flash) is a measurement: a
# page gives it through a bench's include, with where and when. Settings in
# seconds (a 2 s budget, MENU held 1.5 s) are not figures of this kind; a
# measured time is said in minutes or hours, in seconds spelled out, as
# "N m N s", or as "about N s", "N s on two threads", "N to M s".
TIMED = re.compile(
    r"\b\d[\d.,]*(?:\s*(?:-|–|to)\s*\d[\d.,]*)?\s*(?:minutes?|mins?|hours?|seconds?)\b"
    r"|\b(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|several|a few)\s+"
    r"(?:minutes?|hours?)\b"
    r"|\b\d+\s*m\s*\d+\s*s\b"
    r"|\babout\s+\d[\d.,]*\s*s\b"
    r"|\b\d[\d.,]*\s*s\s+on\s+(?:\w+\s+)?(?:threads|cores)\b"
    r"|\b\d[\d.,]*\s*(?:-|–|to)\s*\d[\d.,]*\s*s\b", re.I)


def test_a_timed_figure_is_caught_and_a_setting_is_not():
    for typed in ("in about 10 minutes on two cores", "1 m 55 s", "about 58 s", "a minute and "
                  "a half", "58 s on two threads", "0.2 to 3 seconds", "4 to 100 s",
                  "several minutes over mpremote", "one to two minutes", "10-25 minutes"):
        assert TIMED.search(typed), typed
    for setting in ("MENU held 1.5 s", "the board's 2 s time budget", "pressed 3 times within "
                    "2 s", "a slow blink (1 s)", "a stopped loop is reset after 5 s",
                    "every 1.6 s", "the 10 ms loop", "for three seconds"):
        assert not TIMED.search(setting), setting


def test_pages_type_no_time_a_bench_measures():
    pages = [os.path.join(ROOT, "README.md")]
    for folder, _, files in os.walk(os.path.join(ROOT, "docs", "pages")):
        pages += [os.path.join(folder, n) for n in sorted(files) if n.endswith(".md")]
    typed = []
    for p in pages:
        # The prose joined, so that a figure cut by a line break is seen whole.
        lines = _prose(p, code=False)
        text = " ".join(line.strip() for _, line in lines)
        starts, at = [], 0
        for n, line in lines:
            starts.append((at, n))
            at += len(line.strip()) + 1
        for m in TIMED.finditer(text):
            n = [n for start, n in starts if start <= m.start()][-1]
            typed.append("%s:%d: %s" % (os.path.relpath(p, ROOT), n, m.group(0)))
    assert not typed, ("a time typed by hand (include the bench's figures, docs/figures/"
                       "<script>.md, which say where and when it was measured): "
                       + "; ".join(typed))


def test_pages_quote_bench_figures_only_through_their_includes():
    pages = [os.path.join(ROOT, "README.md")]
    for folder, _, files in os.walk(os.path.join(ROOT, "docs", "pages")):
        pages += [os.path.join(folder, n) for n in sorted(files) if n.endswith(".md")]
    typed = ["%s:%d: %s" % (os.path.relpath(p, ROOT), n, m.group(0))
             for p in pages for n, line in _prose(p) for m in MEASURED.finditer(line)]
    assert not typed, ("a bench figure typed by hand (include docs/figures/<script>.md "
                       "or point to the benchmarks page): " + "; ".join(typed))
