"""Each constant once: the firmware and the simulator name a fact in one module.

A figure typed twice drifts apart the day one of them changes (the clock's
period was once written in four files, the level names in six, the
opponent's pace in three). Read from the source of firmware/ and sim/:

- no two modules define a module-level constant of the same name and value;
- the clocks' period is attila.ticks' alone;
- no constant is renamed on import (`OVER as ENDED`: one name, one meaning);
- the levels, their names and the time a decision has are attila.opponent.levels'.
"""

import ast
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDERS = ("firmware/attila", "firmware/ports", "sim/attila_sim")
VENDORED = "firmware/ports/circuitpython/lib"
# Set aside, for reasons of the machine's, not of taste:
ASIDE = {
    # The search's stack row and states: MicroPython folds only a module's own
    # const() names, and each kernel reads them in its innermost loop, so each
    # keeps its own copy of attila.opponent.search's layout;
    # tests/portable/test_opponent_choices.py proves the three agree node for node.
    "firmware/attila/opponent/kernel.py", "firmware/attila/opponent/kernelv.py",
    # CircuitPython's boot.py runs before the core is loaded and must not load
    # it (it would be compiled twice at every power-up): it repeats the two
    # file names it shares with attila.board and code.py.
    "firmware/ports/circuitpython/boot.py",
}


def sources(folders=FOLDERS):
    out = []
    for folder in folders:
        for top, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = sorted(d for d in dirs if d not in ("node_modules", "__pycache__"))
            rel = os.path.relpath(top, ROOT).replace(os.sep, "/")
            if rel == VENDORED or rel.startswith(VENDORED + "/"):
                continue
            out += [rel + "/" + f for f in sorted(files) if f.endswith(".py")]
    return out


def tree(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def constants(path):
    """{NAME: value} of a module's public constants: upper-case names assigned
    a literal (or const(literal)) at module level. (A private one, _NAME, is
    the module's own: MicroPython keeps it out of the module's namespace.)"""
    out = {}
    for node in tree(path).body:
        if not isinstance(node, ast.Assign):
            continue
        value = node.value
        if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "const":
            value = value.args[0]
        try:
            value = ast.literal_eval(value)
        except ValueError:
            continue
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id.isupper() and target.id[0] != "_":
                out[target.id] = value
    return out


def twice(paths):
    """["NAME = value: a.py, b.py"] of the constants two modules define alike:
    the same value under the same name, or under a name that ends with it
    (PLACED and CUE_PLACED)."""
    defined = [(name, repr(value), path) for path in paths
               for name, value in sorted(constants(path).items())]
    found = []
    for name, value, path in defined:
        same = [p for n, v, p in defined if v == value and p != path
                and (n == name and p > path or n.endswith("_" + name))]
        if same:
            found.append("%s = %s: %s" % (name, value, ", ".join([path] + same)))
    return found


def test_no_two_modules_define_the_same_constant():
    found = twice([p for p in sources() if p not in ASIDE])
    assert found == [], "defined twice (import it from one of them):\n" + "\n".join(found)


def test_the_check_finds_a_constant_typed_twice(tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text("from attila.compat import const\nBURN = const(2)\n"
                                   "CUE_TURN = const(3)\n_OWN = const(4)\n")
    (tmp_path / "b.py").write_text("BURN = 2  # the same fact\nTURN = 3\n_OWN = 4\nOTHER = 5\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", str(tmp_path))
    assert twice(["a.py", "b.py"]) == ["BURN = 2: a.py, b.py", "TURN = 3: b.py, a.py"]


# The clocks' period: MicroPython's ticks_ms wraps every 2**30 ms,
# CircuitPython's every 2**29; attila.ticks.ticks_diff (or TICKS_MASK) is
# right on both.
PERIOD = (0x1FFFFFFF, 0x20000000)


def period_written(path):
    """Lines where a module writes the clocks' period as a number of its own."""
    found = []
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Constant) and node.value in PERIOD and type(node.value) is int:
            found.append(node.lineno)
        elif (isinstance(node, ast.BinOp) and isinstance(node.right, ast.Constant)
              and node.right.value in (29, 30) and isinstance(node.left, ast.Constant)
              and (isinstance(node.op, ast.LShift) and node.left.value == 1
                   or isinstance(node.op, ast.Pow) and node.left.value == 2)):
            found.append(node.lineno)
    return found


def test_the_clocks_period_is_written_in_attila_ticks_alone():
    found = ["%s:%d" % (p, n) for p in sources() if p != "firmware/attila/ticks.py"
             for n in period_written(p)]
    assert found == [], "the clock's period typed again (use attila.ticks):\n" + "\n".join(found)
    assert period_written("firmware/attila/ticks.py")


def renamed_constants(path):
    found = []
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.asname and alias.name.isupper() and alias.asname != alias.name:
                    found.append("%s:%d: %s as %s" % (path, node.lineno, alias.name, alias.asname))
    return found


def test_no_constant_is_renamed_on_import():
    found = [line for p in sources() for line in renamed_constants(p)]
    assert found == [], "a second name for one constant:\n" + "\n".join(found)


LEVEL_WORDS = {"beginner", "easy", "normal", "strong"}


def levels_typed(path):
    """Where a module types the levels, their names or a decision's time
    instead of naming attila.opponent.levels."""
    found = []
    for node in ast.walk(tree(path)):
        if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) > 1 and all(
                isinstance(e, ast.Constant) and e.value in LEVEL_WORDS for e in node.elts):
            found.append("%s:%d: the level names" % (path, node.lineno))
        pairs = []
        if isinstance(node, ast.Call):
            pairs = [(k.arg, k.value) for k in node.keywords]
        elif isinstance(node, (ast.FunctionDef, ast.Lambda)):
            args = node.args.args[len(node.args.args) - len(node.args.defaults):]
            pairs = [(a.arg, d) for a, d in zip(args, node.args.defaults)]
        for name, value in pairs:
            if name in ("level", "budget_ms") and isinstance(value, ast.Constant) \
                    and type(value.value) is int:
                found.append("%s:%d: %s=%d" % (path, node.lineno, name, value.value))
    return found


def test_the_levels_and_a_decisions_time_are_named_from_attila_opponent_levels():
    found = [line for p in sources() if p != "firmware/attila/opponent/levels.py"
             for line in levels_typed(p)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("source, found", [
    ("LEVELS = ('beginner', 'easy', 'normal', 'strong')\n", ["x.py:1: the level names"]),
    ("def chooser(level=3, budget_ms=2000):\n    pass\n",
     ["x.py:1: level=3", "x.py:1: budget_ms=2000"]),
    ("build(layout, level=STRONG, budget_ms=BUDGET_MS)\n", []),
])
def test_the_check_finds_levels_typed(tmp_path, monkeypatch, source, found):
    (tmp_path / "x.py").write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", str(tmp_path))
    assert levels_typed("x.py") == found
