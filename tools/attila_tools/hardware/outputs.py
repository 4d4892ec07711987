"""`make hardware`: regenerate the boards and write what a fab and a maker need.

    python -m attila_tools.hardware.outputs [--out build/hardware] [-v]

Per board, under build/hardware/BOARD/: BOARD-gerbers.zip (Gerbers and
drill files), BOARD-bom.csv (manufacturer part numbers, quantities for one
board and for the 4x5 board), BOARD-cpl.csv (placement for assembly),
BOARD.png (3D render, top), BOARD-schematic.pdf and .svg; and bom-4x5.csv,
the whole 4x5 board's parts with totals. Quiet: one line per board.
"""

import argparse
import csv
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

from attila_tools.hardware import circuit, generate, schematic, schematic_views

# Boards of each kind a 4x5 board needs (the game's set: two small, two large).
PER_4X5 = {"module-2x2": 2, "module-2x3": 2, "controller": 1}
LAYERS = "F.Cu,B.Cu,F.Paste,B.Paste,F.Silkscreen,B.Silkscreen,F.Mask,B.Mask,Edge.Cuts"


def run(*args, cwd=None):
    r = subprocess.run(list(args), capture_output=True, text=True, cwd=cwd)
    if r.returncode:
        raise SystemExit("make hardware: %s failed:\n%s" % (" ".join(args[:4]), r.stderr.strip()))
    return r.stdout


def bom_rows(name):
    """[(refs, value, footprint, maker, mpn, qty)] of one board, grouped by part."""
    groups = {}
    for p in circuit.BOARDS[name]():
        if p["ref"].startswith("H"):
            continue  # mounting holes: drilled, not bought
        key = (p["value"], p["footprint"], p["maker"], p["mpn"])
        groups.setdefault(key, []).append(p["ref"])
    out = []
    for (value, fp, maker, mpn), refs in sorted(groups.items(), key=lambda kv: kv[1][0]):
        refs.sort(key=lambda r: (r.rstrip("0123456789"), int(r[len(r.rstrip("0123456789")):] or 0)))
        out.append((" ".join(refs), value, fp, maker, mpn, len(refs)))
    return out


def write_bom(name, path):
    n = PER_4X5[name]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["References", "Value", "Footprint", "Manufacturer", "MPN", "Qty per board",
                    "Boards per 4x5", "Qty per 4x5"])
        for refs, value, fp, maker, mpn, qty in bom_rows(name):
            w.writerow([refs, value, fp, maker, mpn, qty, n, qty * n])


# Rough unit prices (EUR, at the quantities of a few boards): the author's
# estimate of typical distributor list prices in 2025, not a quote (there is
# no network here); upload the BOM to a distributor or an assembly service
# for a real one.
PRICE_EUR = {"WS2812B-B/W": 0.15, "CT10-1530-G1": 1.60, "CL10B104KB8NNNC": 0.01,
             "RC0603FR-0710KL": 0.01, "RC0603FR-0733RL": 0.01, "RC0603FR-07330RL": 0.01,
             "74HC165D,653": 0.30, "SN74AHCT1G125DBVR": 0.20, "61200821621": 0.40,
             "SC0915": 4.00, "SS14": 0.05, "EEU-FR1A102": 0.50, "PJ-063AH": 0.80,
             "B3F-1000": 0.30, "PS1240P02BT": 0.80, "1040310811": 1.50}
PRICES_SOURCE = "estimated typical distributor prices, 2025; not a quote"


def totals():
    """{(maker, mpn): [names, footprint, qty per 4x5]} over the 4x5 board's boards."""
    total = {}
    for name, n in PER_4X5.items():
        for refs, value, fp, maker, mpn, qty in bom_rows(name):
            t = total.setdefault((maker, mpn), [[], fp, 0])
            if value not in t[0]:
                t[0].append(value)
            t[2] += qty * n
    return total


def write_total(path):
    total = totals()
    cost = 0.0
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Part", "Footprint", "Manufacturer", "MPN", "Qty per 4x5",
                    "Est. unit EUR", "Est. EUR"])
        for (maker, mpn), (values, fp, qty) in sorted(total.items(), key=lambda kv: kv[1][0]):
            price = PRICE_EUR.get(mpn, 0.0)
            cost += price * qty
            w.writerow(["/".join(values), fp, maker, mpn, qty, "%.2f" % price,
                        "%.2f" % (price * qty)])
        w.writerow(["total", "", "", "", sum(t[2] for t in total.values()), "", "%.2f" % cost])
    return total, cost


def _on_board(m, xy):
    """A module-frame point (mm) on the layout (mm from a1's corner), the module turned."""
    from attila_tools.hardware import geometry as g

    w, h = g.squares_outline(m.kind)
    x, y = xy
    x, y = {0: (x, y), 90: (y, w - x), 180: (w - x, h - y), 270: (h - y, x)}[m.turn]
    return (m.file * g.PITCH + x, m.rank * g.PITCH + y)


def cable_span():
    """(mm, layout): the longest straight distance between a module's OUT and the
    next module's IN over the shipped layouts made of the game's modules."""
    from attila.game import layoutfile
    from attila_tools.hardware import geometry as g

    best = (0.0, "")
    for path in sorted(glob.glob(os.path.join(generate.ROOT, "boards", "*.json"))):
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


def figures(path, total, cost):
    """The parts table the order page includes (boards/pcb/bom-4x5.md)."""
    lines = ["| qty | part | manufacturer | part number | est. EUR |", "|--:|---|---|---|--:|"]
    for (maker, mpn), (values, fp, qty) in sorted(total.items(), key=lambda kv: -kv[1][2]):
        lines.append("| %d | %s (`%s`) | %s | %s | %.2f |" % (
            qty, "/".join(values), fp.split(":")[1], maker, mpn, PRICE_EUR.get(mpn, 0.0) * qty))
    lines.append("| **%d** | **all parts of the 4x5 board** | | | **%.2f** |"
                 % (sum(t[2] for t in total.values()), cost))
    lines.append("")
    lines.append("Prices: %s. Written by `make hardware`." % PRICES_SOURCE)
    span, where = cable_span()
    lines.append("")
    lines.append("Longest module-to-module span between an OUT and the next IN connector over "
                 "the shipped layouts: %.0f mm (%s)." % (span, where))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def zip_dir(folder, path):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for fn in sorted(os.listdir(folder)):
            info = zipfile.ZipInfo(fn, date_time=(2026, 1, 1, 0, 0, 0))
            with open(os.path.join(folder, fn), "rb") as f:
                z.writestr(info, f.read(), zipfile.ZIP_DEFLATED)


def board_outputs(name, out):
    src = os.path.join(generate.PCB_DIR, name)
    pcb, sch = os.path.join(src, name + ".kicad_pcb"), os.path.join(src, name + ".kicad_sch")
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        run("kicad-cli", "pcb", "export", "gerbers", "-l", LAYERS, "-o", tmp + "/", pcb)
        run("kicad-cli", "pcb", "export", "drill", "-o", tmp + "/", pcb)
        zip_dir(tmp, os.path.join(out, name + "-gerbers.zip"))
    run("kicad-cli", "pcb", "export", "pos", "--format", "csv", "--units", "mm", "--side", "both",
        "-o", os.path.join(out, name + "-cpl.csv"), pcb)
    run("kicad-cli", "pcb", "render", "-w", "1200", "-h", "900", "--quality", "basic",
        "-o", os.path.join(out, name + ".png"), pcb)
    schematic_views.export(name, sch, out)
    write_bom(name, os.path.join(out, name + "-bom.csv"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(generate.ROOT, "build", "hardware"))
    args = ap.parse_args(argv)
    why = generate.kicad_missing()
    if why:
        print("make hardware: " + why, file=sys.stderr)
        return 2
    for name in sorted(circuit.BOARDS):
        generate.update(name, os.path.join(generate.PCB_DIR, name))
        board_outputs(name, os.path.join(args.out, name))
        print("%-11s %s" % (name, os.path.relpath(os.path.join(args.out, name), generate.ROOT)))
    total, cost = write_total(os.path.join(args.out, "bom-4x5.csv"))
    figures(os.path.join(generate.PCB_DIR, "bom-4x5.md"), total, cost)
    pictures = os.path.join(generate.ROOT, "docs", "pages", "build", "boards")
    os.makedirs(pictures, exist_ok=True)
    for name in sorted(circuit.BOARDS):
        # the schematics' legible views (the 2x2's are the 2x3's, less two squares)
        views = ["%s-%s.svg" % (name, v) for v, _page, _box in schematic.views(name)
                 if name != "module-2x2"]
        for fn in [name + ".png"] + views:
            shutil.copy(os.path.join(args.out, name, fn), os.path.join(pictures, fn))
    print("%-11s %s (%d parts, about %.0f EUR)" % (
        "bom-4x5", os.path.relpath(os.path.join(args.out, "bom-4x5.csv"), generate.ROOT),
        sum(t[2] for t in total.values()), cost))
    return 0


if __name__ == "__main__":
    sys.exit(main())
