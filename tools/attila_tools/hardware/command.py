"""`attila hardware`: the boards' KiCad projects for other pieces or other modules.

    attila hardware --pitch 50 --out build/boards-50mm
    attila hardware --pitch 50 --module 2x4 --out build/boards-2x4

writes the controller and each module (the game's 2x2 and 2x3 unless
--module names others: columns x rows, up to eight squares) laid out for
squares of the pitch, then holds every board to KiCad's DRC at full strength
(with its schematic), KiCad's ERC and the copper checks (board_checks.py),
one line a board. Exit status 1 when a board fails a check, 2 for a size the
boards cannot be laid out for (the message says why). `make hardware` runs
`attila hardware --committed` (outputs.py).
"""

import argparse
import os
import sys

from attila_tools.errors import ToolError, UsageError
from attila_tools.hardware import board_checks, boards, generate, geometry, outputs

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
                         "(boards of two pitches compare at one scale)" % outputs.PIXELS_PER_MM)
    ap.add_argument("--committed", action="store_true",
                    help="the game's boards instead, regenerated into boards/pcb, and what a "
                         "fab, an assembler and a maker need into build/hardware (make hardware)")
    return ap


def names(args):
    """The boards to write; SizeError (why) for one that cannot be laid out."""
    kinds = args.module or list(GAME_MODULES)
    modules = boards.module_names(kinds)
    for name in modules:
        boards.Board(name).route()  # placed and routed: a size too small says so
    return ([] if args.no_controller else ["controller"]) + modules


def main(argv=None):
    args = parser().parse_args(argv)
    if args.committed:
        if args.module or args.pitch != geometry.PITCH:
            raise UsageError("--committed writes the game's boards: it takes no --pitch or --module")
        return outputs.main(["--out", args.out] if args.out else [])
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
            outputs.render_at_scale(name, folder)
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
