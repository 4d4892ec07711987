"""`attila solve POSITION`: who wins with perfect play, and the best action.

Prints one JSON object:
    {"result": "win"|"loss", "best": "b1-c3,d4"|"@b1"|null, "nodes": N, "seconds": S}
result is for the side to move; best is a winning action, or the one that
holds out longest when the position is lost (null when the game is over).
Bad input: exit status 2 and one line on stderr.

    attila solve --from-setup LAYOUT...   whole layouts, setup included (retro_cmd)
"""

import json
import sys

from attila_tools.errors import UsageError
from attila_tools.options import PositionParser


def build_parser():
    p = PositionParser(
        prog="attila solve",
        description="Solve a position with perfect play by both sides (setup too).",
        epilog="Example: attila solve 'R.x.H/.x.../H.x.R/..HR. R'",
    )
    p.add_argument("position", nargs="+", metavar="POSITION",
                   help="rows from the top rank down and the side to move")
    p.add_argument("--tiles", type=int, metavar="N",
                   help="scorched-earth tiles in the supply (default: one per free square after setup)")
    p.add_argument("--no-resist", action="store_true",
                   help="when lost, do not look for the longest-resisting action (faster)")
    return p


def main(argv=None):
    """Entry point; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if any(a == "--from-setup" or a.startswith("--from-setup=") for a in argv):
        from attila_tools.solve import retro_cmd

        return retro_cmd.main(argv)
    from attila.game.notation import parse_position

    args = build_parser().parse_args(argv)
    if args.tiles is not None and args.tiles < 0:
        raise UsageError("--tiles must be >= 0, not %d" % args.tiles)
    game = parse_position(" ".join(args.position), args.tiles)
    from attila.game.rules import SETUP
    from attila_tools.solve.game import solve_game

    bar = None
    if game.phase == SETUP:
        # Setup positions are the slow ones: say how far the search is.
        from attila_tools.solve.retro import Progress

        if not game.knights[0] | game.knights[1]:
            print("attila solve: the empty board: every setup is searched here, which takes "
                  "long on a real layout; attila solve --from-setup LAYOUT solves a whole "
                  "layout once and keeps the result", file=sys.stderr)
        bar = Progress(1, label="attila solve")

    def progress(k, n):
        bar.total = n
        bar.show(k, "placement %d of %d" % (k + 1, n))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        report = solve_game(game, resist=not args.no_resist,
                            progress=progress if bar is not None else None)
    finally:
        sys.setrecursionlimit(limit)
        if bar is not None:
            bar.end()
    print(json.dumps(report))
    return 0
