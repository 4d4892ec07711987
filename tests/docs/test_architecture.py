"""The architecture drawing is what the code says (tools/docs/architecture.py)."""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tools.docs import architecture  # noqa: E402


def test_committed_drawing_is_the_code():
    with open(architecture.OUT) as f:
        drawn = f.read()
    assert drawn == architecture.drawing(), "architecture.svg differs from the code (run `make docs`)"


def test_the_layers_import_downwards_only():
    order = [layer[0] for layer in architecture.LAYERS]
    found = architecture.edges()
    assert ("sim", "core") in found and ("tools", "core") in found and ("ports", "core") in found
    assert [e for e in found if order.index(e[1]) < order.index(e[0])] == []
    assert ("tools", "sim") not in found  # attila sim is handed over by name only


def drawn_listing(text):
    """{folder: [names]} as the drawing lists the core's folders ("play:  coach,
    controller, ..."; a line with no folder goes on the one before)."""
    listing, folder = {}, None
    for row in re.findall(r'font-family="monospace"[^>]*xml:space="preserve">([^<]*)</text>', text):
        head = re.match(r"(\w+):\s+", row)
        if head:
            folder, row = head.group(1), row[head.end():]
        elif not row.startswith(" "):
            folder = None  # a box without folders (the simulator's, the tools')
        listing.setdefault(folder, []).extend(n.strip() for n in row.split(",") if n.strip())
    return listing


def test_every_core_module_and_flow_stage_is_drawn():
    text = architecture.drawing()
    listing = drawn_listing(text)
    core = os.path.join(ROOT, "firmware", "attila")
    for top, _dirs, names in os.walk(core):
        modules = sorted(n[:-3] for n in names if n.endswith(".py") and n != "__init__.py")
        assert listing[os.path.basename(top)] == modules, top
    for module, stage in architecture.FLOW:
        assert "%s.py</text>" % os.path.basename(module) in text and ">%s</text>" % stage in text


def test_check_names_a_stale_drawing(tmp_path, capsys):
    path = tmp_path / "architecture.svg"
    path.write_text("<svg/>")
    assert architecture.main(["--check", "--out", str(path)]) == 1
    assert "differs from the code" in capsys.readouterr().out
    assert path.read_text() == "<svg/>"  # --check writes nothing
    assert architecture.main(["--out", str(path)]) == 0
    assert architecture.main(["--check", "--out", str(path)]) == 0


def test_the_core_module_list_is_the_code():
    """docs/generated/core-modules.md, included by the architecture page, lists
    every module of the core with its docstring's summary, as written now."""
    with open(architecture.MODULES) as f:
        listed = f.read()
    assert listed == architecture.module_list(), "core-modules.md differs (run `make docs`)"
    core = os.path.join(ROOT, "firmware", "attila")
    for top, _dirs, names in os.walk(core):
        for name in names:
            if name.endswith(".py") and name != "__init__.py":
                assert "`%s`: %s" % (name, architecture.summary(os.path.join(top, name))) in listed
    assert "- **`opponent/`** The computer opponent" in listed
    with open(os.path.join(ROOT, "docs", "pages", "inside", "architecture.md")) as f:
        assert '--8<-- "generated/core-modules.md"' in f.read()
