"""Layout files: JSON that says where each module lies (see boards/README.md).

Two shapes:
  {"name": "4x5", "modules": [{"kind": "2x3", "at": "a1", "turn": 0}, ...]}
  {"name": "8x8", "custom": true, "rows": ["........", ...]}
Modules are listed in cable-chain order. Errors name the file and the field.
"""

from attila.datafile import decode, read_text

from attila.errors import LayoutError
from attila.game.geometry import from_rows, place_name
from attila.game.modules import Module, compose, place_module

_KEYS = ("name", "description", "custom", "modules", "rows", "tiles")


def _field(where, key, value, kind):
    if not isinstance(value, kind):
        raise LayoutError("%s: %s must be %s" % (where, key, _KIND_NAMES[kind]))
    return value


_KIND_NAMES = {str: "a string", int: "an integer", bool: "true or false", list: "a list"}


def _square(where, text):
    if (
        isinstance(text, str)
        and len(text) >= 2
        and "a" <= text[0] <= "z"
        and text[1:].isdigit()
        and int(text[1:]) >= 1
    ):
        return ord(text[0]) - 97, int(text[1:]) - 1
    raise LayoutError("%s: at must be a square name like \"a1\", not %r" % (where, text))


def parse(data, source="layout"):
    """(Layout, modules, tiles) from decoded JSON; LayoutError says where it is wrong."""
    if not isinstance(data, dict):
        raise LayoutError("%s: the top level must be an object {...}" % source)
    for key in sorted(data):  # sorted: MicroPython dicts keep no order
        if key not in _KEYS:
            raise LayoutError(
                "%s: unknown field %r (known: %s)" % (source, key, ", ".join(_KEYS))
            )
    name = _field(source, "name", data.get("name", ""), str)
    custom = _field(source, "custom", data.get("custom", False), bool)
    tiles = data.get("tiles")
    if tiles is not None and (
        not isinstance(tiles, int) or isinstance(tiles, bool) or tiles < 0
    ):
        raise LayoutError("%s: tiles must be a whole number >= 0, not %r" % (source, tiles))
    if "rows" in data:
        if not custom:
            raise LayoutError(
                "%s: rows describe a DIY board; add \"custom\": true" % source
            )
        if "modules" in data:
            raise LayoutError("%s: give rows or modules, not both" % source)
        layout, modules = _rows(source, _field(source, "rows", data["rows"], list), name)
        return layout, modules, _tiles(source, tiles, layout)
    if "modules" not in data:
        raise LayoutError("%s: needs \"modules\" (or \"rows\" for a DIY board)" % source)
    modules = _modules(source, _field(source, "modules", data["modules"], list))
    try:
        layout, modules = compose(modules, name, custom)
    except LayoutError as e:
        raise LayoutError("%s: %s" % (source, e))
    return layout, modules, _tiles(source, tiles, layout)


def _rows(source, rows, name):
    """(Layout, [its one module]) of a DIY board's rows."""
    for k, row in enumerate(rows):
        if not isinstance(row, str):
            raise LayoutError("%s: rows: row %d must be a string" % (source, k + 1))
        for c, ch in enumerate(row):
            if ch not in ".-":
                # Rows are listed from the top rank down: name the square too.
                raise LayoutError(
                    "%s: rows: row %d, column %d (%s): %r must be '.' (square) or '-' (none)"
                    % (source, k + 1, c + 1, place_name(c, len(rows) - 1 - k), ch)
                )
    try:
        layout = from_rows(rows, name)
    except LayoutError as e:
        raise LayoutError("%s: rows: %s" % (source, e))
    # A one-piece DIY board is a single module in square order.
    places = [(layout.files[i], layout.ranks[i]) for i in range(layout.size)]
    return layout, [Module(1, "custom", 0, 0, 0, places)]


def _modules(source, items):
    """The modules a layout lists, each placed (not yet put together)."""
    modules = []
    for k, item in enumerate(items):
        where = "%s: module %d" % (source, k + 1)
        if not isinstance(item, dict):
            raise LayoutError("%s must be an object {\"kind\", \"at\", \"turn\"}" % where)
        for key in sorted(item):
            if key not in ("kind", "at", "turn"):
                raise LayoutError(
                    "%s: unknown field %r (known: kind, at, turn)" % (where, key)
                )
        kind = _field(where, "kind", item.get("kind"), str)
        file, rank = _square(where, item.get("at"))
        turn = item.get("turn", 0)
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise LayoutError("%s: turn must be 0, 90, 180 or 270" % where)
        try:
            modules.append(place_module(k + 1, kind, file, rank, turn))
        except LayoutError as e:
            raise LayoutError("%s: %s" % (source, e))
    if not modules:
        raise LayoutError("%s: modules is empty" % source)
    return modules


def _tiles(source, tiles, layout):
    # More tiles than squares are never used, and the simulator lays out
    # every one of them beside the board.
    if tiles is not None and tiles > layout.size:
        raise LayoutError("%s: tiles must be at most %d (one a square), not %d"
                          % (source, layout.size, tiles))
    return tiles


def loads(text, source="layout"):
    """Parse layout JSON text."""
    return parse(decode(text, source, LayoutError), source)


def load(path):
    """Read a layout file; errors name the file."""
    return loads(read_text(path, LayoutError), path)
