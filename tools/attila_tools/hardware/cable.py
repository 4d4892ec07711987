"""The 8-wire module cable: the one table of its wire order.

Every module has an IN and an OUT connector with these signals on the same
pin numbers, so identical cables chain any number of modules; the
controller's cable connector is the same. The schematic drawings
(tools/docs/schematics.py), the KiCad boards and the wiring page use it.
"""

import os

# the shipped layouts (longest_span measures the cable over them)
LAYOUTS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), "boards")

# pin -> wire name, as the docs print it
CABLE = ((1, "5V"), (2, "GND"), (3, "3V3"), (4, "LED DATA"), (5, "LOAD"), (6, "CLOCK"),
         (7, "SHIFT DATA"), (8, "GND"))

# pin -> net name on the boards (the two data wires change name at each
# module: LED data leaves through OUT from the last LED, shift data comes
# back through IN from the register; see `module_net`)
NETS = {1: "+5V", 2: "GND", 3: "+3V3", 4: "LED", 5: "LOAD", 6: "CLOCK", 7: "SHIFT", 8: "GND"}


def pin_of(net):
    """The cable pin numbers that carry a board net name of NETS."""
    return [p for p, n in sorted(NETS.items()) if n == net]


def _on_board(m, xy):
    """A module-frame point (mm) on the layout (mm from a1's corner), the module turned."""
    from attila_tools.hardware import geometry as g

    w, h = g.squares_outline(m.kind)
    x, y = xy
    x, y = {0: (x, y), 90: (y, w - x), 180: (w - x, h - y), 270: (h - y, x)}[m.turn]
    return (m.file * g.PITCH + x, m.rank * g.PITCH + y)


def longest_span():
    """(mm, layout): the longest straight distance between a module's OUT and the
    next module's IN over the shipped layouts made of the game's modules."""
    import glob

    from attila.game import layoutfile
    from attila_tools.hardware import geometry as g

    best = (0.0, "")
    for path in sorted(glob.glob(os.path.join(LAYOUTS, "*.json"))):
        try:
            layout, modules, _ = layoutfile.load(path)
        except Exception:
            continue
        mods = sorted(modules, key=lambda m: m.number)
        if any(m.kind not in g.KINDS for m in mods):
            continue
        for a, b in zip(mods, mods[1:]):
            pa = _on_board(a, g.connectors(a.kind)["OUT"])
            pb = _on_board(b, g.connectors(b.kind)["IN"])
            d = ((pa[0] - pb[0]) ** 2 + (pa[1] - pb[1]) ** 2) ** 0.5
            best = max(best, (d, os.path.basename(path)))
    return best
