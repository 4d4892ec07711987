"""The boards' parts as boxes, for the fit checks: read from the KiCad
engineer's `.kicad_pcb` files (through attila_tools.hardware.pcbfile) when
they are there, so the checks measure the parts against the boards
themselves, not against numbers typed again.
"""

import os

from attila_tools.hardware import geometry

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
PCB_DIR = os.path.join(ROOT, "boards", "pcb")


def pcb_path(name):
    """The .kicad_pcb of a board (module-2x2, module-2x3, controller), or None."""
    folder = os.path.join(PCB_DIR, name)
    if not os.path.isdir(folder):
        return None
    files = sorted(f for f in os.listdir(folder) if f.endswith(".kicad_pcb"))
    return os.path.join(folder, files[0]) if files else None


def missing(name):
    """Why a board's parts cannot be read ("" when they can)."""
    if pcb_path(name) is None:
        return "boards/pcb/%s/*.kicad_pcb is not there yet (the KiCad boards' branch)" % name
    try:
        from attila_tools.hardware import pcbfile  # noqa: F401
    except ImportError:
        return "attila_tools.hardware.pcbfile (the .kicad_pcb reader) is not there yet"
    return ""


def module_parts(kind):
    """The module board's outline, mounting holes and parts, from its .kicad_pcb.

    Returns {"outline": (x0, y0, x1, y1), "holes": [(x, y)], "parts": [(ref,
    side, x0, y0, x1, y1, height)]} in the module's frame, or None.
    """
    if missing("module-" + kind):
        return None
    return _read(pcb_path("module-" + kind))


def from_geometry(kind):
    """The module board as geometry.py places it: outline, holes and LEDs only
    (geometry gives no part sizes), for the checks while no .kicad_pcb is there."""
    leds = []
    parts = []
    half = 2.5  # the WS2812B's 5 x 5 mm body
    for k in range(geometry.squares(kind)):
        x, y = geometry.at(kind, k, geometry.LED_AT)
        leds.append(("LED%d" % (k + 1), x, y))
        parts.append(("LED%d" % (k + 1), "top", x - half, y - half, x + half, y + half,
                      geometry.HEIGHT["led"]))
    return {"outline": geometry.board_outline(kind), "holes": geometry.mounting_holes(kind),
            "leds": leds, "parts": parts, "source": "geometry.py"}


def controller_layout():
    """The controller's layout (see parts.controller) from its .kicad_pcb, or None."""
    if missing("controller"):
        return None
    return None


def _read(path):
    raise NotImplementedError(path)
