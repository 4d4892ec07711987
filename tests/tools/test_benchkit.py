"""The bench scripts share one kit and run alone (tools/bench).

Each bench_*.py, pico_*.py and mpy_*.py is run by itself (tools/bench/run.py):
what they share (paths, sampling, judging by the tables, the chip's loop
measures) lives in benchkit.py and chipkit.py, and no bench script imports
another one or edits sys.path itself (benchkit does, once). The mpy_*.py
scripts run under MicroPython with MICROPYPATH set by run.py: they may add the
fakes of tests/ports, nothing else. Read from the source (the AST), imports
inside functions included.
"""

import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, "tools", "bench")
PREFIXES = ("bench_", "pico_", "mpy_")


def _scripts():
    return sorted(n[:-3] for n in os.listdir(BENCH)
                  if n.endswith(".py") and n.startswith(PREFIXES))


def _tree(name):
    with open(os.path.join(BENCH, name + ".py"), encoding="utf-8") as f:
        return ast.parse(f.read(), name)


def _imported(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module.split(".")[0]


def _path_edits(tree):
    """Lines that change sys.path (an assignment to it or a call of its methods)."""
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = node.func.value
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            target = targets[0].value if isinstance(targets[0], ast.Subscript) else targets[0]
        if (isinstance(target, ast.Attribute) and target.attr == "path"
                and isinstance(target.value, ast.Name) and target.value.id == "sys"):
            yield node.lineno, ast.unparse(node)


def test_no_bench_script_imports_another():
    scripts = set(_scripts())
    assert {"bench_strength", "bench_realplay", "pico_board", "mpy_core"} <= scripts
    bad = ["%s.py:%d imports %s" % (name, line, module)
           for name in sorted(scripts) for line, module in _imported(_tree(name))
           if module in scripts]
    assert not bad, "a bench script imports another (share it through benchkit): " + "; ".join(bad)


def test_only_benchkit_edits_sys_path():
    bad = []
    for name in _scripts() + ["chipkit"]:
        for line, code in _path_edits(_tree(name)):
            if name.startswith("mpy_") and code == "sys.path.append('tests/ports/fakes')":
                continue  # MicroPython: the fake machine module, from the repository root
            bad.append("%s.py:%d: %s" % (name, line, code))
    assert not bad, "sys.path is set by benchkit: " + "; ".join(bad)


def test_wilson_interval():
    sys.path.insert(0, BENCH)
    try:
        from benchkit import wilson
    finally:
        sys.path.remove(BENCH)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    lo, hi = wilson(100, 100)  # asymmetric at 100%: the upper end stays at 1
    assert (round(lo, 4), round(hi, 4)) == (0.963, 1.0)
