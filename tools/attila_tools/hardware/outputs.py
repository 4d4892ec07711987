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

from attila_tools.hardware import circuit, generate

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


def write_total(path):
    total = {}
    for name, n in PER_4X5.items():
        for refs, value, fp, maker, mpn, qty in bom_rows(name):
            key = (value, fp, maker, mpn)
            total[key] = total.get(key, 0) + qty * n
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Value", "Footprint", "Manufacturer", "MPN", "Qty per 4x5"])
        for (value, fp, maker, mpn), qty in sorted(total.items()):
            w.writerow([value, fp, maker, mpn, qty])
    return total


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
    run("kicad-cli", "sch", "export", "pdf", "-o", os.path.join(out, name + "-schematic.pdf"), sch)
    with tempfile.TemporaryDirectory() as tmp:
        run("kicad-cli", "sch", "export", "svg", "-o", tmp, sch)
        for fn in glob.glob(os.path.join(tmp, "*.svg")):
            shutil.copy(fn, os.path.join(out, name + "-schematic.svg"))
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
        generate.write(name, os.path.join(generate.PCB_DIR, name))
        board_outputs(name, os.path.join(args.out, name))
        print("%-11s %s" % (name, os.path.relpath(os.path.join(args.out, name), generate.ROOT)))
    total = write_total(os.path.join(args.out, "bom-4x5.csv"))
    print("%-11s %s (%d parts)" % ("bom-4x5", os.path.relpath(os.path.join(args.out, "bom-4x5.csv"),
                                                              generate.ROOT), sum(total.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
