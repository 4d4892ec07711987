#!/usr/bin/env python3
"""The architecture drawing, read from the real code (docs/pages/inside/architecture.svg).

    python tools/docs/architecture.py          write the drawing
    python tools/docs/architecture.py --check  exit 1 when the committed drawing differs

Each box is a layer and lists what its folder holds (modules, packages);
an arrow from one layer to another means some file of the first imports
the second (read from the source with ast, lazy imports included, as
tests/tools/test_layers.py reads them). The portable core's row is the
one-way flow of a loop step, each stage a module of firmware/attila.
Nothing is drawn by hand: add a module or an import and `make docs`
redraws it.
"""

import argparse
import ast
import os
from xml.sax.saxutils import escape

try:
    from . import drawn  # as tools.docs.architecture (the tests)
except ImportError:
    import drawn  # run as a script: its own folder is on the path

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "docs", "pages", "inside", "architecture.svg")
# The core's folders and modules, each with its docstring's summary: included
# by the architecture page (--8<--), written with the drawing.
MODULES = os.path.join(ROOT, "docs", "generated", "core-modules.md")
CORE = os.path.join(ROOT, "firmware", "attila")

# (key, folder, title, what it is, fill, stroke, top-level module names it answers to)
LAYERS = (
    ("harness", ("tools/bench", "tools/pico"), "tools/bench, tools/pico",
     "harnesses: benchmarks, the emulated Pico", "#efc3d8", "#a0285f", ("pico",)),
    ("sim", ("sim/attila_sim",), "sim/attila_sim",
     "the simulator: virtual switches, strip, buttons", "#bfdcf5", "#1f5f99", ("attila_sim",)),
    ("tools", ("tools/attila_tools",), "tools/attila_tools",
     "the maker tools (attila ...)", "#f5e3b3", "#9a6b00", ("attila_tools",)),
    ("ports", ("firmware/ports/micropython", "firmware/ports/circuitpython"), "firmware/ports",
     "real pins, LEDs, watchdog, flash", "#c9ecc0", "#2e7d32", ()),
    ("core", ("firmware/attila",), "firmware/attila",
     "the portable core: the same on MicroPython and CPython", "#e4e4e4", "#444", ("attila",)),
)
# One loop step through the core (board.py): the stages, each a module.
FLOW = (("sensing/scanners", "scan"), ("sensing/debounce", "debounce"),
        ("play/controller", "controller"), ("play/painter", "LED frame"),
        ("leds/strip", "strip bytes"))

W = 900
PAD = 20
LINE = 16
CHARS = 96
GUTTER = 140  # the arrows' lane, right of the boxes  # characters of a listing line


def entries(folder):
    """The modules (name.py) and packages (name/) a folder holds, sorted."""
    path = os.path.join(ROOT, folder)
    out = []
    for name in sorted(os.listdir(path)):
        full = os.path.join(path, name)
        if name.endswith(".py") and name != "__init__.py":
            out.append(name[:-3])
        elif os.path.isdir(full) and os.path.exists(os.path.join(full, "__init__.py")):
            out.append(name + "/")
    return out


def listed(key, folders):
    """The folders a layer's box lists, one row each: the core's packages
    get a row of their own (attila: its top modules; game: ...)."""
    if key != "core":
        return folders
    out = []
    for folder in folders:
        out.append(folder)
        out += [folder + "/" + e[:-1] for e in entries(folder) if e.endswith("/")]
    return out


def summary(path):
    """The first paragraph of a module's docstring, on one line."""
    with open(path, encoding="utf-8") as f:
        doc = ast.get_docstring(ast.parse(f.read(), path)) or ""
    return " ".join(doc.split("\n\n")[0].split())


def module_list():
    """Markdown: the core's top modules, then each package and its modules."""
    out = ["<!-- written by tools/docs/architecture.py (make docs): do not edit -->",
           "- `firmware/attila/`: " + summary(os.path.join(CORE, "__init__.py"))]
    packages = []
    for name in entries("firmware/attila"):
        if name.endswith("/"):
            packages.append(name)
        else:
            out.append("    - `%s.py`: %s" % (name, summary(os.path.join(CORE, name + ".py"))))
    for package in packages:
        folder = os.path.join(CORE, package[:-1])
        out.append("    - **`%s`** %s" % (package, summary(os.path.join(folder, "__init__.py"))))
        for name in entries("firmware/attila/" + package[:-1]):
            out.append("        - `%s.py`: %s" % (name, summary(os.path.join(folder, name + ".py"))))
    return "\n".join(out) + "\n"


def sources(folder):
    out = []
    for top, dirs, files in os.walk(os.path.join(ROOT, folder)):
        dirs[:] = sorted(d for d in dirs if d not in ("node_modules", "__pycache__"))
        out += [os.path.join(top, f) for f in sorted(files) if f.endswith(".py")]
    return out


def imported_tops(path):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    tops = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            tops.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            tops.add(node.module.split(".")[0])
    return tops


def edges():
    """{(from layer, to layer): number of files of the first that import the second}."""
    owner = {name: layer[0] for layer in LAYERS for name in layer[6]}
    count = {}
    for layer in LAYERS:
        for folder in layer[1]:
            for path in sources(folder):
                for top in imported_tops(path):
                    to = owner.get(top)
                    if to and to != layer[0]:
                        count[(layer[0], to)] = count.get((layer[0], to), 0) + 1
    return count


def wrap(words, width=CHARS):
    lines, cur = [], ""
    for w in words:
        if cur and len(cur) + 2 + len(w) > width:
            lines.append(cur + ",")
            cur = w
        else:
            cur = cur + ", " + w if cur else w
    return lines + ([cur] if cur else [])


def drawing():
    """The SVG text."""
    parts, boxes, y = [], {}, PAD
    for key, folders, title, what, fill, stroke, _ in LAYERS:
        listing = []
        rows = listed(key, folders)
        for folder in rows:
            names = [e for e in entries(folder) if not (key == "core" and e.endswith("/"))]
            if len(rows) > 1:
                lines = wrap(names, CHARS - 16)
                lines = [(os.path.basename(folder) + ":").ljust(16) + lines[0]] + [
                    " " * 16 + line for line in lines[1:]]
            else:
                lines = wrap(names)
            listing += lines
        h = 44 + LINE * len(listing) + (70 if key == "core" else 0)
        boxes[key] = (y, h)
        parts.append('<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="%s" stroke="%s"/>'
                     % (PAD, y, W - GUTTER - PAD, h, fill, stroke))
        parts.append('<text x="%d" y="%d"><tspan font-weight="bold">%s</tspan>'
                     '<tspan fill="#333" dx="10">%s</tspan></text>'
                     % (PAD + 12, y + 22, escape(title), escape(what)))
        for i, line in enumerate(listing):
            parts.append('<text x="%d" y="%d" font-family="monospace" font-size="12" '
                         'xml:space="preserve">%s</text>'
                         % (PAD + 12, y + 42 + LINE * i, escape(line)))
        if key == "core":
            parts += flow(y + 44 + LINE * len(listing))
        y += h + 26
    height = y - 26 + PAD + 24
    order = [layer[0] for layer in LAYERS]
    found = sorted(edges().items(), key=lambda e: (order.index(e[0][0]), order.index(e[0][1])))
    arrows, right = [], W - GUTTER
    into = {}
    for k, ((a, b), n) in enumerate(found):
        ia, ib = order.index(a), order.index(b)
        if ib < ia:
            raise SystemExit("architecture: %s imports %s: the flow goes up" % (a, b))
        x = right + 16 + 17 * k
        y0 = boxes[a][0] + 16 + 9 * sum(1 for (f, _) in found[:k] if f == a)
        into[b] = into.get(b, -1) + 1
        y1 = boxes[b][0] + 16 + 9 * into[b]
        arrows.append('<polyline points="%d,%d %d,%d %d,%d %d,%d" fill="none" stroke="#333" '
                      'stroke-width="1.3" marker-end="url(#a)"/>'
                      % (right, y0, x, y0, x, y1, right + 2, y1))
        arrows.append('<text x="%d" y="%d" font-size="10" fill="#333" text-anchor="end">%d</text>'
                      % (x - 3, y0 - 3, n))
    arrows.append('<text x="%d" y="%d" font-size="12" fill="#333">An arrow: files of one layer '
                  'import the other (the figure says how many files); none goes up.</text>'
                  % (PAD, height - PAD + 4))
    head = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="sans-serif" font-size="13">' % (W, height, W, height),
            "<title>The layers of the Attila board, who imports whom, and the one-way flow "
            "through the portable core (drawn by tools/docs/architecture.py)</title>",
            '<defs><marker id="a" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" '
            'markerHeight="8" orient="auto"><path d="M0 0 L10 5 L0 10 Z" fill="#333"/>'
            '</marker></defs>',
            '<rect width="100%" height="100%" fill="#fff"/>']
    return "\n".join(head + parts + arrows + ["</svg>", ""])


def flow(y):
    """The loop step's stages, left to right, each a module of the core."""
    out, n = [], len(FLOW)
    bw, gap = 118, (W - GUTTER - PAD - 24 - n * 118) // (n - 1)
    for i, (module, stage) in enumerate(FLOW):
        if not os.path.exists(os.path.join(ROOT, "firmware", "attila", module + ".py")):
            raise SystemExit("architecture: firmware/attila/%s.py is gone: update FLOW" % module)
        x = PAD + 12 + i * (bw + gap)
        out.append('<rect x="%d" y="%d" width="%d" height="46" rx="6" fill="#fff" stroke="#444"/>'
                   % (x, y + 8, bw))
        out.append('<text x="%d" y="%d" text-anchor="middle" font-weight="bold">%s</text>'
                   % (x + bw // 2, y + 28, stage))
        out.append('<text x="%d" y="%d" text-anchor="middle" font-family="monospace" '
                   'font-size="12">%s.py</text>' % (x + bw // 2, y + 46, os.path.basename(module)))
        if i:
            out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333" stroke-width="1.5" '
                       'marker-end="url(#a)"/>' % (x - gap, y + 31, x - 2, y + 31))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 when the committed drawing differs")
    ap.add_argument("--out", default=OUT, help="the drawing's file (default: %(default)s)")
    args = ap.parse_args(argv)
    files = {args.out: drawing()}
    if args.out == OUT:
        files[MODULES] = module_list()
    return drawn.refresh(files, args.check,
                         "differs from the code (make docs redraws it)")

if __name__ == "__main__":
    raise SystemExit(main())
