"""Pin names read from KiCad's own symbol libraries (/usr/share/kicad/symbols),
so that the checks hold the boards to KiCad's pinout of a part, not to the
generator's own tables (circuit.py).

    pins("74xx:74HC165")      # {'D0': ['11'], 'Q7': ['9'], 'GND': ['8'], ...}
"""

import os

from attila_tools.errors import ToolError
from attila_tools.hardware import pcbfile

SYMBOLS = os.environ.get("KICAD9_SYMBOL_DIR", "/usr/share/kicad/symbols")

_cache = {}


class LibraryMissing(ToolError):
    """KiCad's symbol libraries are not installed where the check looks."""


def missing():
    """Why KiCad's symbol libraries cannot be read here ('' when they can)."""
    if not os.path.isdir(SYMBOLS):
        return "KiCad's symbol libraries are not in %s (Debian: kicad-symbols)" % SYMBOLS
    return ""


def _symbols(lib):
    path = os.path.join(SYMBOLS, lib + ".kicad_sym")
    if not os.path.exists(path):
        raise LibraryMissing("%s: no such symbol library (%s)" % (path, missing() or lib))
    if path not in _cache:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        out = {}
        for a, b in pcbfile.blocks(text):
            if text.startswith("(symbol ", a):
                out[text[a:b].split('"', 2)[1]] = text[a:b]
        _cache[path] = out
    return _cache[path]


def pins(lib_id):
    """{pin name: [pin numbers]} of a library symbol (a derived symbol: its parent's pins)."""
    lib, name = lib_id.split(":")
    symbols = _symbols(lib)
    if name not in symbols:
        raise LibraryMissing("%s: no symbol %s in %s.kicad_sym" % (lib_id, name, lib))
    tree = pcbfile.parse(symbols[name], lib_id)
    parent = pcbfile.find(tree, "extends")
    if parent is not None:
        tree = pcbfile.parse(symbols[parent[1]], lib_id)
    out = {}

    def walk(node):
        for c in node:
            if isinstance(c, list) and c:
                if c[0] == "pin":
                    out.setdefault(pcbfile.find(c, "name")[1], []).append(
                        pcbfile.find(c, "number")[1])
                else:
                    walk(c)

    walk(tree)
    return {k: sorted(v, key=lambda n: (len(n), n)) for k, v in out.items()}


def pin(lib_id, name):
    """The one pin number of a named pin ("74xx:74HC165", "Q7" -> "9")."""
    found = pins(lib_id).get(name)
    if not found or len(found) != 1:
        raise LibraryMissing("%s: pin %r is %s" % (lib_id, name, found or "not there"))
    return found[0]
