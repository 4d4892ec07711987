"""No object of the core reads another's private names.

A name with a leading underscore belongs to the object (or the module) that
defines it: the painter, the words and the board read the controller's
public state, never its bookkeeping. Scanned here in every module of
firmware/attila: `x._name` where x is not `self` or `cls` fails, unless
`_name` is the module's own (defined in the same file: a function, a class,
a module name or an attribute of its own objects).
"""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORE = os.path.join(ROOT, "firmware", "attila")


def private_reads(source, name):
    """['file:line: x._name'] of the private reads across objects in `source`."""
    tree = ast.parse(source, name)
    own = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id in ("self", "cls")):
            own.add(node.attr)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        attr = node.attr
        if not attr.startswith("_") or attr.startswith("__") or attr in own:
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        found.append("%s:%d: %s" % (name, node.lineno, ast.unparse(node)))
    return found


def test_no_private_reads_across_objects_in_the_core():
    found, scanned = [], []
    for top, _dirs, names in sorted(os.walk(CORE)):
        for name in sorted(n for n in names if n.endswith(".py")):
            path = os.path.join(top, name)
            scanned.append(os.path.relpath(path, CORE).replace(os.sep, "/"))
            with open(path) as f:
                found += private_reads(f.read(), scanned[-1])
    assert "play/painter.py" in scanned  # the subpackages are read, the painter among them
    assert not found, "private names read across objects:\n" + "\n".join(found)


def test_the_scan_sees_a_read_of_another_objects_private_name():
    source = "def paint(c):\n    return c._hint\n\nclass P:\n    def f(self):\n        return self._x\n"
    assert private_reads(source, "painter.py") == ["painter.py:2: c._hint"]
