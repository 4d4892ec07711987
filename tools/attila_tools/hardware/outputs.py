"""`make hardware`: regenerate the boards and write what a fab, an assembler and a maker need.

    attila hardware --committed [--out build/hardware]

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
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

from attila_tools.errors import ToolError
from attila_tools.hardware import (assembly, boards, circuit, generate, geometry, models3d,
                                   schematic, schematic_views, shopping)
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


def fab_files(name, src, out):
    """What the fab and the assembler take, from the project in src: the Gerbers
    and drill files, the parts list, the assembler's BOM and placement."""
    pcb = os.path.join(src, name + ".kicad_pcb")
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        run("kicad-cli", "pcb", "export", "gerbers", "-l", LAYERS, "-o", tmp + "/", pcb)
        run("kicad-cli", "pcb", "export", "drill", "-o", tmp + "/", pcb)
        zip_dir(tmp, os.path.join(out, name + "-gerbers.zip"))
    board = assembly.load_board(name, os.path.dirname(src))
    assembly.parts_list(name, os.path.join(out, name + "-parts.csv"), board)
    assembly.jlc_bom(name, os.path.join(out, name + "-jlcpcb-bom.csv"), board)
    assembly.jlc_cpl(name, os.path.join(out, name + "-jlcpcb-cpl.csv"), board)


def board_outputs(name, out):
    src = os.path.join(generate.PCB_DIR, name)
    pcb, sch = os.path.join(src, name + ".kicad_pcb"), os.path.join(src, name + ".kicad_sch")
    fab_files(name, src, out)
    ibom(name, pcb, out)
    renders(name, pcb, out)
    schematic_views.export(name, sch, out)


PIXELS_PER_MM = 8
VIEW = 1.1  # the picture's size over the board's: the renderer's margin around it


def render_at_scale(name, folder):
    """The board from above with its parts (boards/3dmodels), at PIXELS_PER_MM
    (`attila hardware --render`: boards of two pitches compare at one scale)."""
    x0, y0, x1, y1 = boards.Board(name).outline
    w, h = (round((x1 - x0) * PIXELS_PER_MM * VIEW), round((y1 - y0) * PIXELS_PER_MM * VIEW))
    out = os.path.join(folder, name + ".png")
    r = subprocess.run(["kicad-cli", "pcb", "render", "-w", str(w), "-h", str(h), "--quality",
                        "basic", "-o", out, os.path.join(folder, name + ".kicad_pcb")],
                       env=dict(os.environ, KICAD9_3DMODEL_DIR=models3d.MODELS),
                       capture_output=True, text=True)
    if r.returncode:
        raise ToolError("%s: kicad-cli pcb render failed: %s" % (name, r.stderr.strip()))
    return out


def two_pitches(out, kind="2x3", pitches=(40.0, 50.0)):
    """A module at two pitches, each from above at one scale (the docs' picture of
    what re-sizing does): [out/module-KIND-PITCHmm.png]; the first pitch's board
    is the committed one where it is the game's."""
    name, made = circuit.module_name(kind), []
    for pitch in pitches:
        geometry.use_pitch(pitch)
        try:
            with tempfile.TemporaryDirectory() as tmp:
                folder = os.path.join(tmp, name)
                if pitch == 40.0:
                    shutil.copytree(os.path.join(generate.PCB_DIR, name), folder)
                else:
                    generate.write(name, folder)
                made.append(os.path.join(out, "%s-%gmm.png" % (name, pitch)))
                shutil.copy(render_at_scale(name, folder), made[-1])
        finally:
            geometry.use_pitch(40.0)
    return made


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(generate.ROOT, "build", "hardware"))
    args = ap.parse_args(argv)
    why = generate.kicad_missing()
    if why:
        raise ToolError(why, "make hardware")
    try:
        shopping.check()  # before the long part: a part nobody can buy stops here
        for name in sorted(boards.BOARDS):
            generate.update(name, os.path.join(generate.PCB_DIR, name))
            board_outputs(name, os.path.join(args.out, name))
            print("%-11s %s" % (name, os.path.relpath(os.path.join(args.out, name), generate.ROOT)))
        its = shopping.items()
    except SourcingError as e:
        e.prog = "make hardware"  # what the maker ran: cli.main prints it so
        raise
    shopping.write_csv(its, os.path.join(args.out, "shopping-4x5.csv"))
    shopping.write_md(its, FIGURES)
    pictures = os.path.join(generate.ROOT, "docs", "pages", "build", "boards")
    os.makedirs(pictures, exist_ok=True)
    for name in sorted(boards.BOARDS):
        # the schematics' legible views (the 2x2's are the 2x3's, less two squares)
        views = ["%s-%s.svg" % (name, v) for v, _page, _box in schematic.views(name)
                 if name != "module-2x2"]
        renders_ = [name + ".png"] + ([name + "-bottom.png"] if circuit.board_kind(name) else [])
        for fn in renders_ + views:
            shutil.copy(os.path.join(args.out, name, fn), os.path.join(pictures, fn))
    # what re-sizing does: the 2x3 module at 40 and at 50 mm, one scale (resize.md)
    for path in two_pitches(args.out):
        shutil.copy(path, pictures)
    print("%-11s %s (%d lines, about %.0f USD)" % (
        "shopping", os.path.relpath(os.path.join(args.out, "shopping-4x5.csv"), generate.ROOT),
        len(its), shopping.total(its)))
    return 0
