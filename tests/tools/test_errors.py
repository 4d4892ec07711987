"""The tools' errors: one base, names of their own, printed in one place.

Every error class of attila_tools is an attila_tools.errors.ToolError
(files.FileError aside: an AttilaError, as the simulator and the board page
catch it with the core's; errors.py says why), none is named as one of the
core's (a BookError of the tools beside attila.opponent.book's read as the same
thing), and only attila_tools.cli prints an error it caught: a command
raises, cli.main prints one line and returns the status.
"""

import ast
import importlib
import os

from attila.errors import AttilaError

from attila_tools import cli
from attila_tools.errors import ToolError, UsageError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools", "attila_tools")
CORE = os.path.join(ROOT, "firmware", "attila")
# Exceptions that never reach the user: a search cut short, a certificate's refutation (a verdict).
INTERNAL = {"_TooDeep", "Refuted"}
CORE_KIND = {"FileError"}
# A command that reports each bad input line and goes on to the next (its exit status says so).
REPORTS_AND_GOES_ON = {"board/choose_cmd.py"}


def _sources(folder):
    for top, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(top, name)
                with open(path, encoding="utf-8") as f:
                    yield os.path.relpath(path, folder), ast.parse(f.read(), path)


def _classes(folder):
    return [(rel, node.name) for rel, tree in _sources(folder) for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef)]


def _module(rel):
    return "attila_tools." + rel[:-3].replace(os.sep, ".")


def _needs_kicad(rel):
    """The board generator's modules import KiCad's pcbnew, which only Debian's
    Python has (they run under it as a subprocess): read, not imported."""
    with open(os.path.join(TOOLS, rel), encoding="utf-8") as f:
        return "\nimport pcbnew" in f.read()


def test_every_error_of_the_tools_is_a_tool_error():
    found = []
    for rel, name in _classes(TOOLS):
        if name in INTERNAL:
            continue
        if _needs_kicad(rel):
            found += ["%s: %s, an error of KiCad's generator, is not a ToolError" % (rel, name)
                      for r, tree in _sources(TOOLS) if r == rel
                      for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                      and node.name == name and any(
                          getattr(b, "id", getattr(b, "attr", "")).endswith(("Error", "Exception"))
                          and getattr(b, "id", "") != "ToolError" for b in node.bases)]
            continue
        cls = getattr(importlib.import_module(_module(rel)), name)
        if not (isinstance(cls, type) and issubclass(cls, BaseException)):
            continue
        base = AttilaError if name in CORE_KIND else ToolError
        if not issubclass(cls, base):
            found.append("%s: %s is not a %s" % (rel, name, base.__name__))
    assert found == []


def test_no_error_of_the_tools_is_named_as_one_of_the_cores():
    core = {name for _rel, name in _classes(CORE) if name.endswith("Error")}
    assert core >= {"BookError", "CardError", "AttilaError"}
    same = sorted("%s: %s" % (rel, name) for rel, name in _classes(TOOLS) if name in core)
    assert same == []


def test_only_the_cli_prints_an_error_it_caught():
    found = []
    for rel, tree in _sources(TOOLS):
        if rel == "cli.py" or rel in REPORTS_AND_GOES_ON:
            continue
        for handler in ast.walk(tree):
            if not isinstance(handler, ast.ExceptHandler):
                continue
            for node in ast.walk(handler):
                if isinstance(node, ast.Attribute) and node.attr == "stderr":
                    found.append("%s:%d" % (rel, node.lineno))
    assert found == []


def test_the_cli_prints_a_tool_error_as_one_line_with_its_status(capsys, monkeypatch):
    from attila_tools.board import device

    def refuse(argv):
        raise device.DeviceError("the board did not answer")

    monkeypatch.setitem(cli.PLUGINS, "flash", ("attila_tools.board.flash", "flash"))
    monkeypatch.setattr("attila_tools.board.flash.main", refuse)
    assert cli.main(["flash"]) == 1
    assert capsys.readouterr().err == "attila flash: the board did not answer\n"

    def bad(argv):
        raise UsageError("--threads must be 1 or more")

    monkeypatch.setattr("attila_tools.board.flash.main", bad)
    assert cli.main(["flash"]) == 2
    assert capsys.readouterr().err == "attila flash: --threads must be 1 or more\n"
