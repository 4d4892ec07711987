"""`attila hardware`: the boards' KiCad projects for other pieces or other modules.

    attila hardware --pitch 50 --out build/boards-50mm
    attila hardware --pitch 50 --module 2x4 --out build/boards-2x4

writes the controller and each module (the game's 2x2 and 2x3 unless
--module names others: columns x rows, up to eight squares) laid out for
squares of the pitch, then holds every board to KiCad's DRC at full strength
(with its schematic), KiCad's ERC and the copper checks (board_checks.py),
one line a board. Exit status 1 when a board fails a check, 2 for a size the
boards cannot be laid out for (the message says why).
"""

import argparse
import os
import subprocess
import sys

from attila_tools.errors import ToolError, UsageError
from attila_tools.hardware import board_checks, boards, circuit, generate, geometry, outputs

GAME_MODULES = ("2x2", "2x3")


def parser():
    ap = argparse.ArgumentParser(prog="attila hardware", description=__doc__.splitlines()[0])
    ap.add_argument("--pitch", type=float, default=geometry.PITCH, metavar="MM",
                    help="the squares' size, centre to centre (default %g mm: the game's)"
                    % geometry.PITCH)
    ap.add_argument("--module", action="append", metavar="CxR",
                    help="a module of C columns and R rows (again for more; default: %s)"
                    % " and ".join(GAME_MODULES))
    ap.add_argument("--out", metavar="DIR", help="where the projects go (default "
                    "build/hardware/boards-PITCHmm)")
    ap.add_argument("--no-controller", action="store_true",
                    help="the modules alone (the controller does not change with the pitch)")
    ap.add_argument("--no-check", action="store_true", help="write the projects only")
    ap.add_argument("--fab", action="store_true",
                    help="also what the fab and the assembler take: NAME-gerbers.zip, "
                         "NAME-jlcpcb-bom.csv, NAME-jlcpcb-cpl.csv, NAME-parts.csv")
    ap.add_argument("--render", action="store_true",
                    help="also NAME.png: each board from above with its parts, %g pixels a mm "
                         "(boards of two pitches compare at one scale)" % PIXELS_PER_MM)
    return ap


PIXELS_PER_MM = 8
VIEW = 1.1  # the picture's size over the board's: the renderer's margin around it


def render(name, folder):
    """The board from above with its parts (boards/3dmodels), at PIXELS_PER_MM."""
    from attila_tools.hardware import models3d

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
    import shutil
    import tempfile

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
                shutil.copy(render(name, folder), made[-1])
        finally:
            geometry.use_pitch(40.0)
    return made


def names(args):
    """The boards to write; SizeError (why) for one that cannot be laid out."""
    kinds = args.module or list(GAME_MODULES)
    modules = boards.module_names(kinds)
    for name in modules:
        boards.Board(name).route()  # placed and routed: a size too small says so
    return ([] if args.no_controller else ["controller"]) + modules


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        geometry.use_pitch(args.pitch)
        wanted = names(args)
    except geometry.SizeError as e:
        raise UsageError(str(e))
    why = generate.kicad_missing()
    if why:
        raise ToolError(why)
    out = args.out or os.path.join(generate.ROOT, "build", "hardware",
                                   "boards-%gmm" % geometry.PITCH)
    failed = 0
    for name in wanted:
        folder = os.path.join(out, name)
        generate.write(name, folder)
        if args.render:
            render(name, folder)
        if args.fab:
            outputs.fab_files(name, folder, folder)
        if args.no_check:
            print("%-11s %s" % (name, folder))
            continue
        found = board_checks.run(folder, name)
        print("%-11s %s: %s" % (name, folder, ", ".join("%s %d" % kv for kv in
                                                         found.count().items())))
        for line in found.lines():
            print("  " + line)
        failed += not found.clean()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
