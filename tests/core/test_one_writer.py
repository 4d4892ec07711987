"""The controller's state has one writer, and the ports talk to the board through its face.

Read from the source:

- the controller's mode is set in attila/play/controller.py alone (the
  core and the simulator; tests set it to stage a position);
- the controller's parts (attila/play/) write their own state only: none
  holds the controller, none assigns another object's attributes (they
  return what they decided and the controller applies it);
- the ports (firmware/ports/) ask nothing of a core object by name at run
  time (getattr, hasattr): what they call is attila.board.Board's face.
"""

import ast
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONTROLLER = "firmware/attila/play/controller.py"


def sources(folder):
    out = []
    for top, dirs, files in os.walk(os.path.join(ROOT, folder)):
        dirs[:] = sorted(d for d in dirs if d not in ("node_modules", "__pycache__", "lib"))
        rel = os.path.relpath(top, ROOT).replace(os.sep, "/")
        out += [rel + "/" + f for f in sorted(files) if f.endswith(".py")]
    return out


def tree(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def assigned(path):
    """[(line, target)] of every attribute a module assigns (x.y = ..., x.y += ...)."""
    found = []
    for node in ast.walk(tree(path)):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store):
                    found.append((node.lineno, part))
    return found


def test_the_mode_is_set_in_the_controller_alone():
    # (The core and the simulator: a CircuitPython watchdog has a mode of its own.)
    setters = sorted(set(path for folder in ("firmware/attila", "sim") for path in sources(folder)
                         for _line, target in assigned(path) if target.attr == "mode"))
    assert setters == [CONTROLLER]


def foreign_writes(path):
    """['path:line: x.y'] of the attributes a module assigns on objects not its own."""
    return ["%s:%d: %s" % (path, line, ast.unparse(target)) for line, target in assigned(path)
            if not (isinstance(target.value, ast.Name) and target.value.id in ("self", "cls"))]


def test_the_controllers_parts_write_their_own_state_only():
    found = [line for path in sources("firmware/attila/play") for line in foreign_writes(path)]
    assert found == [], "\n".join(found)


def test_no_part_holds_the_controller():
    held = []
    for path in sources("firmware/attila/play"):
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.FunctionDef) and node.name == "__init__":
                held += ["%s:%d: %s" % (path, node.lineno, a.arg) for a in node.args.args
                         if a.arg in ("c", "controller")]
    assert held == []


def test_the_check_finds_a_part_that_writes_the_controllers_state(tmp_path, monkeypatch):
    (tmp_path / "part.py").write_text(
        "class Part:\n    def follow(self, c):\n        self.seen = c.mask\n"
        "        c.mode = 1\n        c.settling.took = True\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", str(tmp_path))
    assert foreign_writes("part.py") == ["part.py:4: c.mode", "part.py:5: c.settling.took"]


def probes(path):
    """['path:line: getattr(x, ...)'] of a port's run-time questions to objects
    other than the modules it imports from outside the core (machine, board, vfs...)."""
    code = tree(path)
    outside = set()
    for node in ast.walk(code):
        if isinstance(node, ast.Import):
            outside |= {(a.asname or a.name).split(".")[0] for a in node.names
                        if not a.name.startswith("attila")}
    found = []
    for node in ast.walk(code):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("getattr", "hasattr"):
            asked = node.args[0] if node.args else None
            if not (isinstance(asked, ast.Name) and asked.id in outside):
                found.append("%s:%d: %s" % (path, node.lineno, ast.unparse(node)))
    return found


def test_the_ports_ask_no_core_object_what_it_has():
    found = [line for path in sources("firmware/ports") for line in probes(path)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("source, found", [
    ("import machine\nok = hasattr(machine, 'WDT')\n", []),
    ("def run(board):\n    plan = getattr(board.controller, 'plan', None)\n",
     ["main.py:2: getattr(board.controller, 'plan', None)"]),
    ("from attila import search\nx = hasattr(search, 'NATIVE')\n",
     ["main.py:2: hasattr(search, 'NATIVE')"]),
])
def test_the_check_finds_a_port_probing_the_core(tmp_path, monkeypatch, source, found):
    (tmp_path / "main.py").write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", str(tmp_path))
    assert probes("main.py") == found
