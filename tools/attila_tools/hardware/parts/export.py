"""Write the printable parts: STL (to print) and STEP (for CAD) under
build/hardware/, line drawings for the docs, and their figures.

    python -m attila_tools.hardware.parts.export [--out DIR] [--no-pictures]

One line a part. `make hardware-parts` runs it.
"""

import argparse
import os
import sys

from build123d import Box, Pos, Rot, export_step, export_stl

from attila_tools.hardware import geometry
from attila_tools.hardware.parts import baffle, board, case, controller, dims, field, layout, mesh
from attila_tools.hardware.parts import picture, tray

ROOT = board.ROOT
OUT = os.path.join(ROOT, "build", "hardware")
PICTURES = os.path.join(ROOT, "docs", "pages", "build", "printed")
FIGURES = os.path.join(ROOT, "docs", "figures", "parts.md")
FIT_FIGURES = os.path.join(ROOT, "docs", "figures", "parts-fit.md")
BUY_FIGURES = os.path.join(ROOT, "docs", "figures", "parts-buy.md")
KINDS = ("2x2", "2x3")
LAYOUT = os.path.join(ROOT, "boards", "4x5.json")


def parts():
    """[(file name, solid as printed)]: every printable part."""
    out = []
    for kind in KINDS:
        out.append(("module-%s-baffle" % kind, baffle.baffle(kind)))
        out.append(("module-%s-tray" % kind, tray.tray(kind)))
    lay, _source = controller.layout()
    out.append(("controller-case", case.box(lay)))
    lid = case.lid(lay)
    top = lid.bounding_box().max.Z
    out.append(("controller-case-lid", Pos(0, 0, top) * Rot(180, 0, 0) * lid))
    key = case.key(lay)
    out.append(("controller-case-key", Pos(0, 0, -key.bounding_box().min.Z) * key))
    return out


def board_solid(kind):
    """A plain module board (its outline, board thickness) where it sits in its tray."""
    x0, y0, x1, y1 = geometry.board_outline(kind)
    return Pos((x0 + x1) / 2, (y0 + y1) / 2, dims.BOARD_Z + geometry.THICKNESS / 2) * Box(
        x1 - x0, y1 - y0, geometry.THICKNESS)


def plate_solid(kind):
    """The top plate, where it sits in its tray."""
    w, h = tray.plate_size(kind)
    sw, sh = geometry.squares_outline(kind)
    return Pos(sw / 2, sh / 2, dims.PLATE_Z + dims.PLATE / 2) * Box(w, h, dims.PLATE)


def module_stack(kind, steps=4):
    """A module's tray with the first `steps` of: board, baffle, plate."""
    shapes = [tray.tray(kind)]
    if steps >= 2:
        shapes.append(board_solid(kind))
    if steps >= 3:
        shapes.append(Pos(0, 0, dims.BAFFLE_Z) * baffle.baffle(kind))
    if steps >= 4:
        shapes.append(plate_solid(kind))
    return shapes


def assembled(path=LAYOUT):
    """Every module of a layout in its tray, with its board and baffle (no plates)."""
    shapes = []
    for kind, loc in layout.placements(path):
        for s in module_stack(kind, steps=3):
            shapes.append(loc * s)
    return shapes


def figures(volumes):
    """The docs' table of the parts: volume and filament mass."""
    lines = ["| File | Volume | PLA | For the 4x5 board |", "|---|---:|---:|---:|"]
    count = {"module-2x2-baffle": 2, "module-2x2-tray": 2, "module-2x3-baffle": 2,
             "module-2x3-tray": 2, "controller-case": 1, "controller-case-lid": 1,
             "controller-case-key": 2}
    total = 0.0
    for name, vol in volumes:
        grams = vol / 1000.0 * dims.DENSITY
        total += grams * count[name]
        lines.append("| `%s.stl` | %.1f cm³ | %.0f g | %d |"
                     % (name, vol / 1000.0, grams, count[name]))
    lines.append("| **the 4x5 board and its controller** | | **%.0f g** | %d |"
                 % (total, sum(count.values())))
    return "\n".join(lines) + "\n"


def fit_figures():
    """The docs' table of the fit, measured on the solids against the boards."""
    from attila_tools.hardware.parts import checks
    lines = ["| Module | Board to wall | Cell centre to LED | Top parts to baffle "
             "| Header and plug to tray | Magnets | Posts | Tray magnets / piece along a switch "
             "| Checked against |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for kind in KINDS:
        real = board.module_parts(kind) or board.from_geometry(kind)
        bf, tr = baffle.baffle(kind), tray.tray(kind)
        fit = checks.measured_fit(tr, real)
        off = 0.0
        for _ref, x, y in real["leds"]:
            w = checks.cell_walls(bf, tr, x, y)
            off = max(off, abs((w[0] + w[2]) / 2 - x), abs((w[1] + w[3]) / 2 - y))
        clear = checks.baffle_clearance(bf, real)
        plug = checks.plug_clearance(tr, real)
        pull = "-"
        if real.get("reeds"):
            pull = "%.1f / %.1f mT" % field.reed_fields(kind, real["reeds"])
        row = "| %s | %.2f-%.2f mm | %.2f mm | %s | %s | %d | %d of %d holes | %s | `%s` |"
        lines.append(row % (
            kind, min(fit.values()), max(fit.values()), off,
            "%.2f mm" % clear if clear is not None else "-",
            "%.2f mm" % plug if plug is not None else "-",
            len(tray.magnets(kind)), len(tray.posts(kind)), len(real["holes"]), pull,
            real["source"]))
    return "\n".join(lines) + "\n"


def buy_figures(path=LAYOUT):
    """The docs' table of what a layout's printed parts need besides filament."""
    kinds = [kind for kind, _loc in layout.placements(path)]
    lay, _source = controller.layout()
    count = {k: kinds.count(k) for k in KINDS}
    magnets = sum(count[k] * len(tray.magnets(k)) for k in KINDS)
    screws = sum(count[k] * len(tray.posts(k)) for k in KINDS)
    lines = ["| Qty | Part | For |", "|---:|---|---|",
             "| %d | %g x %g mm neodymium disc magnets, the same as in the pieces | %s |" % (
                 magnets, dims.MAGNET_D, dims.MAGNET_T,
                 ", ".join("%d in each %s tray" % (len(tray.magnets(k)), k) for k in KINDS)),
             "| %d + %d | M3 x 6 mm pan-head screws | %s, %d in the controller |" % (
                 screws, len(lay["holes"]),
                 ", ".join("%d in each %s board" % (len(tray.posts(k)), k) for k in KINDS),
                 len(lay["holes"]))]
    for k in KINDS:
        w, h = tray.plate_size(k)
        lines.append("| %d | top plate %g x %g mm, %g mm opal (light-diffusing) cast acrylic "
                     "| the %s modules |" % (count[k], w, h, dims.PLATE, k))
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--no-pictures", action="store_true")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    _lay, source = controller.layout()
    volumes = []
    for name, solid in parts():
        stl = os.path.join(args.out, name + ".stl")
        export_stl(solid, stl)
        export_step(solid, os.path.join(args.out, name + ".step"))
        tris = mesh.read_stl(stl)
        bad = mesh.problems(tris)
        if bad:
            print("hardware-parts: %s.stl is not a closed solid: %s" % (name, "; ".join(bad)))
            return 1
        volumes.append((name, mesh.volume(tris)))
        note = " (controller: %s)" % source if name.startswith("controller") else ""
        print("hardware-parts: %s.stl/.step %.1f cm3%s" % (name, volumes[-1][1] / 1000.0, note))
    if args.no_pictures:
        return 0
    os.makedirs(PICTURES, exist_ok=True)
    for name, solid in parts():
        picture.write_svg([solid], os.path.join(PICTURES, name + ".svg"), width_mm=120)
    for step in range(1, 5):
        picture.write_svg(module_stack("2x2", step), os.path.join(PICTURES, "step-%d.svg" % step),
                          width_mm=100)
    picture.write_svg(assembled(), os.path.join(PICTURES, "board-4x5.svg"), width_mm=170)
    with open(FIGURES, "w") as f:
        f.write(figures(volumes))
    with open(FIT_FIGURES, "w") as f:
        f.write(fit_figures())
    with open(BUY_FIGURES, "w") as f:
        f.write(buy_figures())
    print("hardware-parts: pictures in docs/pages/build/printed, figures in docs/figures/parts*.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
