"""`make hardware`: regenerate the boards and write what a fab, an assembler and a maker need.

    python -m attila_tools.hardware.outputs [--out build/hardware]

Per board, under build/hardware/BOARD/: BOARD-gerbers.zip (Gerbers and
drill files), BOARD-parts.csv (every part, quantities for ONE board),
BOARD-jlcpcb-bom.csv and BOARD-jlcpcb-cpl.csv (JLCPCB's assembly files,
assembly.py), BOARD-ibom.html (interactive BOM for hand assembly),
BOARD.png and BOARD-bottom.png (3D renders with KiCad's models of the parts,
boards/3dmodels), BOARD-schematic.pdf and .svg; and shopping-4x5.csv, the
whole 4x5 board's shopping list (shopping.py), also on the order page
(docs/figures/shopping-4x5.md). Quiet: one line per board. A board part
without a sourcing row stops it, naming the part's MPN.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

from attila_tools.hardware import assembly, circuit, generate, models3d, schematic, shopping
from attila_tools.hardware.sourcing import SourcingError

LAYERS = "F.Cu,B.Cu,F.Paste,B.Paste,F.Silkscreen,B.Silkscreen,F.Mask,B.Mask,Edge.Cuts"


FIGURES = os.path.join(generate.ROOT, "docs", "figures", "shopping-4x5.md")


def run(*args, cwd=None, env=None):
    r = subprocess.run(list(args), capture_output=True, text=True, cwd=cwd, env=env)
    if r.returncode:
        raise SystemExit("make hardware: %s failed:\n%s" % (" ".join(args[:4]), r.stderr.strip()))
    return r.stdout


def zip_dir(folder, path):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for fn in sorted(os.listdir(folder)):
            info = zipfile.ZipInfo(fn, date_time=(2026, 1, 1, 0, 0, 0))
            with open(os.path.join(folder, fn), "rb") as f:
                z.writestr(info, f.read(), zipfile.ZIP_DEFLATED)


def crop(svg, box, zoom=2.5):
    """The part `box` (x0, y0, x1, y1 in mm) of a schematic's SVG, drawn `zoom`
    times its paper size so that a page fits it to its width with legible labels."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def outside(xs, ys):
        return not xs or max(xs) < x0 - 2 or min(xs) > x1 + 2 or max(ys) < y0 - 2 or min(ys) > y1 + 2

    def path(m):  # drop what lies wholly outside the view (the file shrinks tenfold)
        nums = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", m.group(1))]
        return "" if outside(nums[0::2], nums[1::2]) else m.group(0)

    def text(m):
        return "" if outside([float(m.group(1))], [float(m.group(2))]) else m.group(0)

    svg = re.sub(r'<path d="([^"]*)"\s*/>\n?', path, svg)
    svg = re.sub(r'<text x="(-?[\d.]+)" y="(-?[\d.]+)"[^>]*>.*?</text>\n?', text, svg, flags=re.S)
    return re.sub(r'width="[^"]*" height="[^"]*" viewBox="[^"]*"',
                  'width="%.1fmm" height="%.1fmm" viewBox="%.2f %.2f %.2f %.2f"'
                  % (w * zoom, h * zoom, x0, y0, w, h), svg, count=1)


IBOM = os.path.join(generate.ROOT, ".venv", "ibom")  # InteractiveHtmlBom, pinned (make install)


def renders(name, pcb, out):
    """The board from above (and a module from below, where its connectors stand),
    with KiCad's models of its parts (boards/3dmodels)."""
    gone = models3d.missing()
    if gone:
        print("make hardware: %s renders without %s (python -m attila_tools.hardware.models3d "
              "--fetch)" % (name, ", ".join(gone)), file=sys.stderr)
    env = dict(os.environ, KICAD9_3DMODEL_DIR=models3d.MODELS)
    sides = [("top", name + ".png")] + ([("bottom", name + "-bottom.png")]
                                         if circuit.board_kind(name) else [])
    for side, fn in sides:
        run("kicad-cli", "pcb", "render", "-w", "1200", "-h", "900", "--quality", "basic",
            "--side", side, "-o", os.path.join(out, fn), pcb, env=env)


def ibom(name, pcb, out):
    """InteractiveHtmlBom's page for hand assembly (it needs KiCad's own Python)."""
    if not os.path.isdir(os.path.join(IBOM, "InteractiveHtmlBom")):
        raise SystemExit("make hardware: InteractiveHtmlBom is not in .venv/ibom (make install)")
    env = dict(os.environ, PYTHONPATH=IBOM, INTERACTIVE_HTML_BOM_NO_DISPLAY="1")
    net = os.path.join(os.path.dirname(pcb), name + ".net")
    run(generate.KICAD_PYTHON, "-m", "InteractiveHtmlBom.generate_interactive_bom", "--no-browser",
        "--dest-dir", out, "--name-format", "%f-ibom", "--include-tracks", "--include-nets",
        "--extra-data-file", net, "--extra-fields", "Manufacturer,MPN", "--dark-mode",
        "--layer-view", "F", "--blacklist", "H*", pcb, env=env)


def schematics(name, sch, out):
    run("kicad-cli", "sch", "export", "pdf", "-o", os.path.join(out, name + "-schematic.pdf"), sch)
    with tempfile.TemporaryDirectory() as tmp:
        run("kicad-cli", "sch", "export", "svg", "-o", tmp, sch)
        for fn in glob.glob(os.path.join(tmp, "*.svg")):
            with open(fn, encoding="utf-8") as f:
                svg = f.read()
            # its title carries the export's date: the docs' copy must not change
            svg = re.sub(r"<title>[^<]*</title>", "<title>%s schematic</title>" % name, svg)
            with open(os.path.join(out, name + "-schematic.svg"), "w", encoding="utf-8") as f:
                f.write(svg)
            for view, box in schematic.views(name):
                with open(os.path.join(out, "%s-%s.svg" % (name, view)), "w", encoding="utf-8") as f:
                    f.write(crop(svg, box))


def board_outputs(name, out):
    src = os.path.join(generate.PCB_DIR, name)
    pcb, sch = os.path.join(src, name + ".kicad_pcb"), os.path.join(src, name + ".kicad_sch")
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        run("kicad-cli", "pcb", "export", "gerbers", "-l", LAYERS, "-o", tmp + "/", pcb)
        run("kicad-cli", "pcb", "export", "drill", "-o", tmp + "/", pcb)
        zip_dir(tmp, os.path.join(out, name + "-gerbers.zip"))
    board = assembly.load_board(name)
    assembly.parts_list(name, os.path.join(out, name + "-parts.csv"), board)
    assembly.jlc_bom(name, os.path.join(out, name + "-jlcpcb-bom.csv"), board)
    assembly.jlc_cpl(name, os.path.join(out, name + "-jlcpcb-cpl.csv"), board)
    ibom(name, pcb, out)
    renders(name, pcb, out)
    schematics(name, sch, out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(generate.ROOT, "build", "hardware"))
    args = ap.parse_args(argv)
    why = generate.kicad_missing()
    if why:
        print("make hardware: " + why, file=sys.stderr)
        return 2
    try:
        shopping.check()  # before the long part: a part nobody can buy stops here
        for name in sorted(circuit.BOARDS):
            generate.update(name, os.path.join(generate.PCB_DIR, name))
            board_outputs(name, os.path.join(args.out, name))
            print("%-11s %s" % (name, os.path.relpath(os.path.join(args.out, name), generate.ROOT)))
        its = shopping.items()
    except SourcingError as e:
        print("make hardware: %s" % e, file=sys.stderr)
        return 2
    shopping.write_csv(its, os.path.join(args.out, "shopping-4x5.csv"))
    shopping.write_md(its, FIGURES)
    pictures = os.path.join(generate.ROOT, "docs", "pages", "build", "boards")
    os.makedirs(pictures, exist_ok=True)
    for name in sorted(circuit.BOARDS):
        # the schematics' legible views (the 2x2's are the 2x3's, less two squares)
        views = ["%s-%s.svg" % (name, v) for v, _ in schematic.views(name)
                 if name != "module-2x2"]
        renders_ = [name + ".png"] + ([name + "-bottom.png"] if circuit.board_kind(name) else [])
        for fn in renders_ + views:
            shutil.copy(os.path.join(args.out, name, fn), os.path.join(pictures, fn))
    print("%-11s %s (%d lines, about %.0f USD)" % (
        "shopping", os.path.relpath(os.path.join(args.out, "shopping-4x5.csv"), generate.ROOT),
        len(its), shopping.total(its)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
