"""`make bench` writes each script's output where the docs include it (docs/figures)."""

import importlib.util
import os

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
    # The printed parts' figures come from the solids, written by make hardware-parts.
    with open(os.path.join(ROOT, "tools", "attila_tools", "hardware", "parts", "export.py"),
              encoding="utf-8") as f:
        parts = f.read()
    for name in sorted(included):
        assert os.path.exists(os.path.join(FIGURES, name)), name
        assert name[:-3] in scripts or '"%s"' % name in parts, (
            "%s is written neither by a bench script nor by make hardware-parts" % name)
