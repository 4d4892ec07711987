"""The boards' parts as boxes, for the fit checks: read from the KiCad
engineer's `.kicad_pcb` files (through attila_tools.hardware.pcbfile) when
they are there, so the checks measure the parts against the boards
themselves, not against numbers typed again.
"""

import math
import os

from attila_tools.hardware import catalogue, geometry

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

    Returns {"outline": (x0, y0, x1, y1), "holes": [(x, y)], "leds": [(ref,
    x, y)], "parts": [(ref, side, x0, y0, x1, y1, height)], "reeds": [(its
    square's centre, one end, the other end)], "source": path} in the
    module's frame, or None.
    """
    if missing("module-" + kind):
        return None
    return _read(pcb_path("module-" + kind), kind)


def from_geometry(kind):
    """The module board as geometry.py places it: outline, holes and LEDs only
    (geometry gives no part sizes), for the checks while no .kicad_pcb is there."""
    leds = []
    parts = []
    half = 2.5  # the WS2812B's 5 x 5 mm body
    for k in range(geometry.squares(kind)):
        x, y = geometry.square_centre(kind, k)
        leds.append(("LED%d" % (k + 1), x, y))
        parts.append(("LED%d" % (k + 1), "top", x - half, y - half, x + half, y + half,
                      catalogue.LED.height))
    return {"outline": geometry.board_outline(kind), "holes": geometry.mounting_holes(kind),
            "leds": leds, "parts": parts, "source": "geometry.py"}


def part_height(fp):
    """A footprint's height (mm) above its side of the board (a connector's
    below): its own "Height" field, else the catalogue's part that uses it,
    else 0 (a footprint no part of ours uses)."""
    if "Height" in fp.fields:
        return float(fp.fields["Height"])
    try:
        return catalogue.height(fp.name)
    except KeyError:
        return 0.0


def courtyard(node, fp):
    """(x0, y0, x1, y1) of a footprint's courtyard on KiCad's page, or None."""
    from attila_tools.hardware.pcbfile import find, find_all
    a = math.radians(fp.rot)
    ca, sa = math.cos(a), math.sin(a)
    pts = []
    for key in ("fp_line", "fp_rect", "fp_poly", "fp_circle"):
        for item in find_all(node, key):
            layer = find(item, "layer")
            if layer is None or not layer[1].endswith("CrtYd"):
                continue
            local = []
            for k in ("start", "end", "center"):
                v = find(item, k)
                if v is not None:
                    local.append((float(v[1]), float(v[2])))
            if key == "fp_rect":
                (x0, y0), (x1, y1) = local[0], local[1]
                local = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
            if key == "fp_circle":
                (cx, cy), (ex, ey) = local[-1], local[-2] if len(local) > 1 else local[-1]
                r = math.hypot(ex - cx, ey - cy)
                local = [(cx - r, cy - r), (cx + r, cy + r)]
            pts_node = find(item, "pts")
            if pts_node is not None:
                local += [(float(q[1]), float(q[2])) for q in find_all(pts_node, "xy")]
            for px, py in local:
                # the same turn as pcbfile's pads (counter-clockwise, y down)
                pts.append((fp.at[0] + px * ca + py * sa, fp.at[1] - px * sa + py * ca))
    if not pts:
        return None
    xs, ys = [q[0] for q in pts], [q[1] for q in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def _read(path, kind):
    """A module board's outline, holes, LEDs and parts in its own frame."""
    from attila_tools.hardware import frame, pcbfile
    pcb = pcbfile.load(path)

    def mod(xy):
        return frame.to_module(kind, xy)

    ox0, oy0, ox1, oy1 = pcb.outline()
    (x0, y1), (x1, y0) = mod((ox0, oy0)), mod((ox1, oy1))
    out = {"outline": (x0, y0, x1, y1), "holes": [], "leds": [], "parts": [], "reeds": [],
           "source": os.path.relpath(path, ROOT)}
    nodes = {}
    for node in pcbfile.find_all(pcb.tree, "footprint"):
        fields = {q[1]: q[2] for q in pcbfile.find_all(node, "property")}
        nodes[fields.get("Reference")] = node
    for ref, fp in sorted(pcb.footprints.items()):
        if fp.name.startswith("MountingHole:"):
            out["holes"].append(mod(fp.at))
            continue
        if fp.name.startswith("LED_SMD:"):
            out["leds"].append((ref,) + mod(fp.at))
        if fp.name.startswith("Button_Switch_SMD:SW_SPST_REED"):
            ends = [mod(fp.pads[n].at) for n in sorted(fp.pads)[:2]]
            mid = ((ends[0][0] + ends[1][0]) / 2, (ends[0][1] + ends[1][1]) / 2)
            centres = [geometry.square_centre(kind, k) for k in range(geometry.squares(kind))]
            square = min(centres, key=lambda c: (c[0] - mid[0]) ** 2 + (c[1] - mid[1]) ** 2)
            out["reeds"].append((square, ends[0], ends[1]))
        box = courtyard(nodes[ref], fp)
        if box is None:
            raise ValueError("%s: %s has no courtyard" % (path, ref))
        (bx0, by1), (bx1, by0) = mod(box[:2]), mod(box[2:])
        out["parts"].append((ref, fp.side, bx0, by0, bx1, by1, part_height(fp)))
    return out
