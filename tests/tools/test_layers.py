"""Imports go one way, and no module reaches for another's private names.

    firmware/attila          the portable core: imports neither the tools nor the simulator
    tools/attila_tools       the tools: the core only (never attila_sim); inside, by package:
        files, gamefiles,           the files a command is given (replayfile: a game
        replayfile, squares,        to replay, from its bytes), square sets,
        errors, options             the one error base; the commands' argument parser
        draw/ solve/                on those
        analyse/ (on solve/), board/ (on draw/)
        hardware/                   the boards' geometry, KiCad files, printed parts
        cli                         on all of them
    sim/attila_sim           the simulator: the core and the tools
    tools/bench, tools/pico  harnesses on top: anything below

The one exception: `attila sim` is handed to the simulator by name
(attila_tools.cli.PLUGINS, imported only when called). Read from the source
(the AST), so a lazy import inside a function counts as much as one at the top.
"""

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools", "attila_tools")
SIM = os.path.join(ROOT, "sim", "attila_sim")
CORE = os.path.join(ROOT, "firmware", "attila")
HAND_OFF = os.path.join(TOOLS, "cli.py")  # the only place that names attila_sim


def sources(*folders):
    """Every .py file below the folders (paths relative to the repository)."""
    out = []
    for folder in folders:
        for top, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = sorted(d for d in dirs if d not in ("node_modules", "__pycache__"))
            out += [os.path.join(top, f) for f in sorted(files) if f.endswith(".py")]
    return out


def tree(path):
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def imported(path):
    """(line, module) of every import in the file, lazy ones included."""
    out = []
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            out.append((node.lineno, node.module))
    return out


def where(path, line):
    return "%s:%d" % (os.path.relpath(path, ROOT), line)


def _top(module):
    return module.split(".")[0]


def test_the_tools_never_import_the_simulator():
    found = [where(p, n) + " imports " + m for p in sources("tools/attila_tools")
             for n, m in imported(p) if _top(m) == "attila_sim"]
    assert found == []


def test_only_the_cli_names_the_simulator_and_only_to_hand_it_attila_sim():
    named = []
    for path in sources("tools/attila_tools"):
        for node in ast.walk(tree(path)):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and node.value.startswith("attila_sim")):
                named.append((path, node.value))
    assert named == [(HAND_OFF, "attila_sim.app")]
    from attila_tools import cli

    assert cli.PLUGINS["sim"][0] == "attila_sim.app"


# Inside attila_tools: what each part may import of the others (itself included).
BELOW = {"errors", "files", "gamefiles", "options", "replayfile", "squares"}
MAY_USE = {
    "errors": BELOW, "files": BELOW, "gamefiles": BELOW, "options": BELOW, "replayfile": BELOW,
    "squares": BELOW,
    "draw": BELOW | {"draw"},
    "solve": BELOW | {"solve"},
    "analyse": BELOW | {"analyse", "solve"},
    "board": BELOW | {"board", "draw"},
    "hardware": BELOW | {"hardware"},
}


def _part(module):
    """The part of attila_tools a module belongs to: its package, or its own name."""
    return module.split(".")[1] if module.count(".") else ""


def test_the_tools_parts_import_only_those_below_them():
    found = []
    for path in sources("tools/attila_tools"):
        rel = os.path.relpath(path, TOOLS)
        part = rel.split(os.sep)[0].replace(".py", "")
        if part in ("__init__", "cli"):
            continue  # the package's docstring; the command, which uses every part
        assert part in MAY_USE, "%s: a part of attila_tools this test does not know" % rel
        for line, module in imported(path):
            if _top(module) != "attila_tools":
                continue
            used = _part(module)
            if used not in MAY_USE[part]:
                found.append("%s imports %s (%s may use %s)"
                             % (where(path, line), module, part, ", ".join(sorted(MAY_USE[part]))))
    assert found == []


def test_the_core_imports_neither_the_tools_nor_the_simulator():
    found = [where(p, n) + " imports " + m for p in sources("firmware/attila")
             for n, m in imported(p) if _top(m) in ("attila_tools", "attila_sim")]
    assert found == []


@pytest.mark.parametrize("folder", ["tools", "sim", "firmware"])
def test_no_private_name_is_taken_from_another_module(folder):
    """`from m import _x` and `m._x` (m imported) are both refused; a module's
    own private names, and dunders, are its business."""
    found = []
    for path in sources(folder):
        modules = set()
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name.startswith("_") and not a.name.startswith("__"):
                        found.append("%s: from %s import %s"
                                     % (where(path, node.lineno), node.module, a.name))
                    modules.add(a.asname or a.name)
            elif isinstance(node, ast.Import):
                modules.update((a.asname or a.name).split(".")[0] for a in node.names)
        for node in ast.walk(tree(path)):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in modules and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                found.append("%s: %s.%s" % (where(path, node.lineno), node.value.id, node.attr))
    assert found == []


def test_the_rules_above_see_every_package():
    # A folder moved or renamed would make the tests above check nothing.
    for folder in (TOOLS, SIM, CORE):
        assert os.path.isfile(os.path.join(folder, "__init__.py")), folder
    assert len(sources("tools/attila_tools")) >= 20
    assert len(sources("sim/attila_sim")) >= 10


def _module_of(path, root):
    """The dotted name of a source file below `root` (a package's parent)."""
    rel = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
    return rel[:-len(".__init__")] if rel.endswith(".__init__") else rel


def import_graph(folder):
    """{module: {modules of the same package it imports}} of the package in
    `folder`, imports inside functions included; `from pkg import mod` counts
    as importing pkg.mod when that is a module."""
    root = os.path.dirname(folder)
    package = os.path.basename(folder)
    names = {_module_of(p, root): p for p in sources(os.path.relpath(folder, ROOT))}
    graph = {}
    for name, path in names.items():
        used = set()
        for node in ast.walk(tree(path)):
            found = []
            if isinstance(node, ast.Import):
                found = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found = [node.module] + [node.module + "." + a.name for a in node.names]
            used.update(m for m in found if m in names and m.split(".")[0] == package)
        used.discard(name)
        # A package's __init__ is imported with each of its modules: leave it
        # out, as it imports none of them here.
        graph[name] = {m for m in used if not names[m].endswith("__init__.py")}
    return graph


def circles(graph):
    """Every import circle, each as a list of modules starting at its least name."""
    found = set()

    def walk(start, node, path, seen):
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                found.add(tuple(path))
            elif nxt not in seen and nxt > start:
                walk(start, nxt, path + [nxt], seen | {nxt})

    for start in sorted(graph):
        walk(start, start, [start], {start})
    return sorted(list(c) for c in found)


@pytest.mark.parametrize("folder", [TOOLS, SIM, CORE], ids=os.path.basename)
def test_no_import_circle_inside_a_package(folder):
    """A circle hidden by an import inside a function still ties two modules
    into one: neither can be read or tested without the other. The shared
    piece goes down into a module both import."""
    assert [" -> ".join(c + c[:1]) for c in circles(import_graph(folder))] == []


def test_the_circle_finder_sees_a_lazy_import(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.b import f\n")
    (pkg / "b.py").write_text("def f():\n    from pkg import a\n")
    (pkg / "c.py").write_text("import pkg.a\n")
    global ROOT
    old, ROOT = ROOT, str(tmp_path)
    try:
        assert circles(import_graph(str(pkg))) == [["pkg.a", "pkg.b"]]
    finally:
        ROOT = old


# The core's jobs, lowest first: a module imports only from its own job or
# from a lower rank (docs/pages/inside/architecture.md, "The core, folder by
# folder"). Two jobs are top-level modules, not folders: the basics every
# job may use, and the board, which puts the others together.
CORE_RANKS = (
    ("basics",),
    ("game",),
    ("sensing", "leds", "saves", "opponent"),
    ("online",),  # the other board's player is an opponent (attila.opponent.chooser)
    ("play",),
    ("board",),
)
BASICS = ("compat", "errors", "datafile", "ticks", "pins")
BOARD = ("board", "assembly", "profile", "sound", "console", "controls")


def _job(module):
    """attila.game.rules -> 'game'; attila.errors -> 'basics'; attila.assembly -> 'board'."""
    name = module.split(".")[1]
    return "basics" if name in BASICS else "board" if name in BOARD else name


def _rank(job):
    for rank, jobs in enumerate(CORE_RANKS):
        if job in jobs:
            return rank
    raise AssertionError("attila.%s is in no job of CORE_RANKS: give it one" % job)


def test_the_cores_jobs_import_downwards_only():
    graph = import_graph(CORE)
    wrong = []
    for module, used in sorted(graph.items()):
        if module == "attila":
            continue
        for other in sorted(used):
            a, b = _job(module), _job(other)
            if a != b and _rank(b) >= _rank(a):
                wrong.append("%s imports %s" % (module, other))
    assert wrong == []
    assert {_job(m) for m in graph if m != "attila"} == {j for jobs in CORE_RANKS for j in jobs}
