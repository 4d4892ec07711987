"""KiCad's library symbols as a schematic needs them: the text KiCad copies
into a sheet's lib_symbols, each pin's end and electrical type, where the
library puts the reference and value (from /usr/share/kicad/symbols).

    sym = symbols.load("Device:R")
    sym.pins["1"]      # (0.0, 3.81, 270): the pin's end, symbol frame (y up), its angle
"""

import os

from attila_tools.hardware import pcbfile
from attila_tools.hardware.kicadlib import LibraryMissing

LIBRARY = os.environ.get("KICAD9_SYMBOL_DIR", "/usr/share/kicad/symbols")

_files, _symbols = {}, {}


class Symbol:
    def __init__(self, lib_id, text, pins, types, fields):
        self.lib_id = lib_id
        self.text = text  # the (symbol ...) block for a sheet's lib_symbols
        self.pins = pins  # number -> (x, y, angle): where a wire meets it
        self.types = types  # number -> electrical type ("power_out", "passive", ...)
        self.fields = fields  # "Reference"/"Value" -> (x, y, angle, justify)


def _chunks(lib):
    if lib not in _files:
        path = os.path.join(LIBRARY, lib + ".kicad_sym")
        if not os.path.exists(path):
            raise LibraryMissing("%s: no such symbol library (kicad-symbols)" % path)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        _files[lib] = {text[a:b].split('"', 2)[1]: text[a:b] for a, b in pcbfile.blocks(text)
                       if text.startswith("(symbol ", a)}
    return _files[lib]


def load(lib_id):
    """The library symbol `lib_id` ("Library:Name")."""
    if lib_id in _symbols:
        return _symbols[lib_id]
    lib, name = lib_id.split(":")
    chunks = _chunks(lib)
    if name not in chunks:
        raise LibraryMissing("%s: no symbol %s in %s.kicad_sym" % (lib_id, name, lib))
    chunk = chunks[name]
    parent = pcbfile.find(pcbfile.parse(chunk), "extends")
    if parent is not None:
        # A derived symbol: KiCad's cache holds the parent's drawing under the
        # child's name, with the child's own fields (what ERC compares).
        base = chunks[parent[1]]
        base = base.replace('(symbol "%s_' % parent[1], '(symbol "%s_' % name)
        base = base.replace('(symbol "%s"' % parent[1], '(symbol "%s"' % name, 1)
        chunk = _with_fields(base, chunk)
    chunk = chunk.replace('(symbol "%s"' % name, '(symbol "%s"' % lib_id, 1)
    tree = pcbfile.parse(chunk)
    pins, types = {}, {}

    def walk(node):
        for c in node:
            if isinstance(c, list) and c:
                if c[0] == "pin":
                    at = pcbfile.find(c, "at")
                    num = pcbfile.find(c, "number")[1]
                    pins[num] = (float(at[1]), float(at[2]), int(float(at[3])))
                    types[num] = str(c[1])
                else:
                    walk(c)

    walk(tree)
    fields = {}
    for prop in pcbfile.find_all(tree, "property"):
        at = pcbfile.find(prop, "at")
        if prop[1] in ("Reference", "Value") and at is not None:
            just = pcbfile.find(pcbfile.find(prop, "effects") or [], "justify")
            fields[prop[1]] = (float(at[1]), float(at[2]), int(float(at[3])),
                               " ".join(just[1:]) if just else "")
    _symbols[lib_id] = Symbol(lib_id, chunk, pins, types, fields)
    return _symbols[lib_id]


def _fields(chunk):
    """{name: (start, end)} of a symbol's (property ...) blocks."""
    return {chunk[a:b].split('"', 2)[1]: (a, b) for a, b in pcbfile.blocks(chunk)
            if chunk.startswith("(property ", a)}


def _with_fields(parent, child):
    """The parent symbol's text with the derived symbol's fields in place of its own."""
    theirs, mine = _fields(child), _fields(parent)
    for key, (a, b) in sorted(mine.items(), key=lambda kv: -kv[1][0]):
        if key in theirs:
            ca, cb = theirs[key]
            parent = parent[:a] + child[ca:cb] + parent[b:]
    return parent
