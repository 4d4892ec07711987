"""Code says why, not how fast: no measured figure in a comment, no pointer a reader cannot open.

A figure a run measured is true of one build on one day; typed into a
comment it drifts while the code it sits by does not change. The limit the
code keeps is what a comment states ("a step must fit the 10 ms loop",
"the journal holds 16 lines"); how long, how big or how many times faster
something came out lives in the tables `make bench` writes
(docs/pages/inside/benchmarks.md).

Read from the source: every comment (tokenize) and every docstring (ast) of
firmware/ and sim/ (the vendored CircuitPython libraries aside), and the
Makefile's comments. A measured figure is a number (in digits or words,
fractions too) next to a unit of time, size or ratio, said the way a
measurement is: approximately ("about 2 KB"), as what something took or
cost ("cost a quarter of a millisecond"), or as a speed compared ("twenty
times slower"). And no file points at an issue by its number or at a page
the repository does not have: a reader can open a doc page or a test.
"""

import ast
import io
import os
import re
import sys
import tokenize

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDERS = ("firmware", "sim")
VENDORED = os.path.join("firmware", "ports", "circuitpython", "lib")

WORD_NUMBERS = ("one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
                "twenty|thirty|forty|fifty|sixty|hundred|thousand|half|quarter|third|twice|"
                "thrice|double|several|a few|a half|a quarter|a third|a tenth")
NUMBER = r"(?:\d[\d,]*(?:\.\d+)?(?:\s*-\s*\d[\d,]*(?:\.\d+)?)?\s*|(?:%s)\s+(?:of\s+an?\s+)?)" % (
    WORD_NUMBERS.replace(" ", r"\s+"))
TIME = r"(?:ms|µs|us|ns|s|secs?|seconds?|millis(?:econds?)?|microseconds?|minutes?|mins?|hours?)"
SIZE = r"(?:bytes?|B|KB|kB|KiB|MB|MiB|words|nodes)"
RATIO = r"(?:times|x|%|percent|per\s+cent)"
UNIT = "(?:%s|%s|%s)" % (TIME, SIZE, RATIO)
FIGURE = r"%s(?:\w+\s+)?%s(?!\w)" % (NUMBER, UNIT)
TALK = [
    (r"(?<!\w)(?:about|around|roughly|nearly|almost|approximately|some|~)\s*" + FIGURE,
     "an approximate figure"),
    (r"(?<!\w)(?:took|takes|cost|costs|spends?|spent|ran|runs\s+in|measured(?:\s+at)?)\s+"
     r"[^.;:()\n]{0,40}?%s(?:%s|%s)(?!\w)" % (NUMBER, TIME, RATIO), "a figure it took"),
    (r"%s(?:%s|%s)\s+(?:\w+\s+)?(?:faster|slower|quicker|cheaper|dearer|the\s+speed)"
     % (NUMBER, TIME, RATIO), "a speed compared"),
]
PATTERNS = [(re.compile(p, re.IGNORECASE), why) for p, why in TALK]


def sources():
    out = []
    for folder in FOLDERS:
        for top, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = sorted(d for d in dirs if d not in ("node_modules", "__pycache__"))
            rel = os.path.relpath(top, ROOT)
            if rel == VENDORED or rel.startswith(VENDORED + os.sep):
                continue
            out += [os.path.join(rel, f) for f in sorted(files) if f.endswith(".py")]
    return out


def _joined(lines):
    """[(line, text)] with comments on lines that follow each other as one
    text (a figure may break across them)."""
    out = []
    for number, text in lines:
        if out and out[-1][0] + out[-1][1].count("\n") == number - 1:
            out[-1] = (out[-1][0], out[-1][1] + "\n" + text)
        else:
            out.append((number, text))
    return out


def prose(path):
    """[(line, text)] of the comments and docstrings of a Python file, or of
    the comments of a Makefile."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        source = f.read()
    if not path.endswith(".py"):
        return _joined([(n, line.split("#", 1)[1]) for n, line in
                        enumerate(source.splitlines(), 1) if line.lstrip().startswith("#")])
    comments = [(t.start[0], t.string.lstrip("#"))
                for t in tokenize.generate_tokens(io.StringIO(source).readline)
                if t.type == tokenize.COMMENT]
    out = _joined(comments)
    for node in ast.walk(ast.parse(source, path)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = node.body[0] if node.body else None
            if (isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant)
                    and isinstance(doc.value.value, str)):
                out.append((doc.lineno, doc.value.value))
    return out


def talk(path):
    """Where the comments of a file quote a measured figure: ["path:line: why: 'words'"]."""
    found = []
    for line, text in prose(path):
        for pattern, why in PATTERNS:
            for m in pattern.finditer(text):
                found.append("%s:%d: %s: %r" % (path, line + text[:m.start()].count("\n"), why,
                                                 " ".join(m.group(0).split())))
    return found


def test_no_comment_quotes_a_measured_figure():
    found = []
    for path in sources() + ["Makefile"]:
        found += talk(path)
    assert found == []


@pytest.mark.parametrize("words, caught", [
    ("# functions with no calls inside: about 40 times the portable kernel's speed", True),
    ("# that search cost an idle step on the RP2040 a quarter of a millisecond", True),
    ("# the portable kernel, about twenty times slower a node than viper", True),
    ("# keypad's scanners take about 2 KB of the heap", True),
    ("# a setup node costs the kernel about 1.6 play nodes", True),
    ("# a fresh clone's `make test` took 10 minutes on 2 cores (602 s)", True),
    ("# the kernel searches some 16,000-17,700 nodes a second", True),
    ("# a step must fit the 10 ms loop", False),
    ("# a sector erase (45 ms, up to 400 ms)", False),
    ("SLICE = const(96)  # nodes per loop step: a step must fit the 10 ms loop", False),
    ("# debounce: a state holds 30 ms before it counts", False),
    ("# a record is 2 bytes: the square and the reply", False),
    ("# 50 % duty: a piezo's loudest square wave", False),
])
def test_the_patterns_catch_measured_figures_and_leave_limits(tmp_path, monkeypatch, words,
                                                              caught):
    (tmp_path / "x.py").write_text(words + "\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", str(tmp_path))
    assert bool(talk("x.py")) == caught


# Pointers a reader cannot follow: an issue by its number (the tracker is not
# in the repository), the design notes and rules text of the first sessions.
DANGLING = re.compile(r"(?i:\bissues?\s+#?\d+)|\b(?:DESIGN|RULES)\.md\b|\bcontracts? C\d")
CHECKED = (".py", ".mjs", ".js", ".md", ".html", ".toml")


def dangling(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return ["%s:%d: %s" % (path, n, line.strip()) for n, line in enumerate(f, 1)
                if DANGLING.search(line)]


def test_no_file_points_at_an_issue_or_a_page_the_repository_does_not_have():
    found = dangling("Makefile") + dangling("README.md")
    for folder in ("firmware", "sim", "tools", "tests", "docs/pages"):
        for top, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = sorted(d for d in dirs if d not in ("node_modules", "__pycache__"))
            for name in sorted(files):
                path = os.path.relpath(os.path.join(top, name), ROOT).replace(os.sep, "/")
                if name.endswith(CHECKED) and path != "tests/core/test_comments.py":
                    found += dangling(path)
    assert found == []


def test_the_check_finds_an_issue_number(tmp_path, monkeypatch):
    (tmp_path / "t.py").write_text("# Issue 33 item 14: the columns ran into each other.\n"
                                   "# (docs/pages/play/browser.md: the columns)\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", str(tmp_path))
    assert dangling("t.py") == ["t.py:1: # Issue 33 item 14: the columns ran into each other."]


# A module's docstring says what it is for, in a few lines; why it is built
# the way it is goes to docs/pages/inside/design.md, where it is read whole.
DOCSTRING_LINES = 10


def long_docstrings(paths):
    found = []
    for path in paths:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            doc = ast.get_docstring(ast.parse(f.read(), path), clean=False) or ""
        if len(doc.splitlines()) > DOCSTRING_LINES:
            found.append("%s: %d lines" % (path, len(doc.splitlines())))
    return found


def test_a_firmware_modules_docstring_says_what_it_is_for_in_a_few_lines():
    paths = [p for p in sources() if p.startswith("firmware")]
    assert "firmware/attila/play/controller.py" in [p.replace(os.sep, "/") for p in paths]
    assert long_docstrings(paths) == []


def test_the_check_counts_a_docstring_whole(tmp_path, monkeypatch):
    (tmp_path / "x.py").write_text('"""What it is for.\n\n' + "Why, at length.\n" * 10 + '"""\n')
    monkeypatch.setattr(sys.modules[__name__], "ROOT", str(tmp_path))
    assert long_docstrings(["x.py"]) == ["x.py: 12 lines"]
