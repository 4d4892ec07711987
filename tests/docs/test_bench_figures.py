"""`make bench` writes each script's output where the docs include it (docs/figures),
and the pages quote a bench's figures only through those includes."""

import importlib.util
import os
import re

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
    assert "Printed by `tools/bench/mpy_demo.py` (MicroPython unix)" in text
    assert text.endswith("```text\nnodes/s: 42\nheap: 7 bytes\n```\n")


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
               if n.endswith(".py") and n.startswith(("bench_", "mpy_", "pico_"))}
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


def _prose(path):
    """(line number, text) of a page's lines outside code blocks and includes."""
    out, fenced = [], False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
            elif not fenced and not line.startswith(("    ", "--8<--")):
                out.append((n, line))
    return out


def test_pages_quote_bench_figures_only_through_their_includes():
    pages = [os.path.join(ROOT, "README.md")]
    for folder, _, files in os.walk(os.path.join(ROOT, "docs", "pages")):
        pages += [os.path.join(folder, n) for n in sorted(files) if n.endswith(".md")]
    typed = ["%s:%d: %s" % (os.path.relpath(p, ROOT), n, m.group(0))
             for p in pages for n, line in _prose(p) for m in MEASURED.finditer(line)]
    assert not typed, ("a bench figure typed by hand (include docs/figures/<script>.md "
                       "or point to the benchmarks page): " + "; ".join(typed))
