"""`attila analyse GAME`: a finished (or unfinished) game, action by action.

    attila analyse GAME [--layout FILE] [--turns N]

GAME is a game log (`@a1 @e4 ... b1-c3,d4`, as `attila sim --replay`
reads it, a line `first H` when the Huns began) or a saved game (the
board's game.txt, as `attila games` fetches it; its checksum is checked and
it brings its own layout). Every action is shown with the value of the
side that acted before and after it, from the retrograde tables of the
layout (attila_tools.analyse.analysis), each win thrown away with a winning action
instead, and a summary line. The tables are solved and cached in
build/retro/ on first use (20 squares: 1.6 GB and the time `make bench` gives,
estimated up front).
Layouts beyond the tables (more than 20 squares, or a tile supply other
than the default) are refused with one line and exit status 2.
"""

import os
import sys

from attila.errors import AttilaError
from attila.game.rules import SIDE_NAMES

from attila_tools.analyse import analysis
from attila_tools.errors import UsageError
from attila_tools.options import Parser
from attila_tools.solve import retro

PROG = "attila analyse"
MAX_SQUARES = 20  # as attila solve --from-setup: the table is 1.6 GB at 20 squares


def build_parser():
    p = Parser(prog=PROG, description="Judge every action of a game with perfect play: "
                "won or lost before and after it, the wins thrown away and what won instead.")
    p.add_argument("game", metavar="GAME",
                   help="a game log (@a1 @e4 ... b1-c3,d4) or a saved game (game.txt)")
    p.add_argument("--layout", metavar="FILE",
                   help="layout file (default boards/4x5.json; a saved game brings its own)")
    p.add_argument("--turns", type=int, default=analysis.DISTANCE_FREE, metavar="N",
                   help="search the turns to the end from N free squares down "
                   "(default %d; 0: never)" % analysis.DISTANCE_FREE)
    return p


def load_game(path, layout_path=None):
    """(layout, first side, items) of a game file; AttilaError says why not."""
    from attila.game import layoutfile
    from attila_tools.gamefiles import DEFAULT_LAYOUT, find_layout, layout_like, load_replay, saved_layout

    layout, _modules, tiles = layoutfile.load(find_layout(layout_path or DEFAULT_LAYOUT))
    saved = saved_layout(path)
    if saved is not None and saved != layout and not layout_path:
        layout, _modules, tiles = layout_like(saved)
    first, items, tiles = load_replay(path, layout, tiles)
    reach(layout, tiles)
    return layout, first, items


def reach(layout, tiles=None):
    """AttilaError when the tables cannot hold the layout's games (one line why)."""
    n = layout.size
    name = layout.name or "the layout"
    if not 7 <= n <= MAX_SQUARES:
        raise AttilaError("%s: %d squares: out of reach of the retrograde tables (7 to %d "
                          "squares; no analysis)" % (name, n, MAX_SQUARES))
    if tiles is not None and tiles != n - 6:
        raise AttilaError("%s: a supply of %d tiles; the tables cover the default (%d)"
                          % (name, tiles, n - 6))


def tables_for(layout, stream=None):
    """The layout's tables: from the cache, or solved (said on `stream`) and cached."""
    stream = stream if stream is not None else sys.stderr
    if os.path.exists(retro.cache_path(layout)):
        return retro.Tables.load(layout)
    retro.library()  # the kernel is there (else one line says how to build it) before the wait
    from attila_tools.files import shown, size_text

    seconds, nbytes = retro.estimate(layout)
    stream.write("%s: solving the tables of %s once (%s, %s), kept in %s\n"
                 % (PROG, layout.name or "the layout",
                    retro.estimate_text(seconds),
                    size_text(nbytes), shown(retro.CACHE)))
    stream.flush()
    progress = None
    if hasattr(stream, "isatty") and stream.isatty():
        progress = retro.Progress(1, stream, label=layout.name or "solving")
    return retro.Tables.load(layout, progress=progress)


def lines(review, path):
    """The report: a header, one line per action, the summary."""
    layout = review.layout
    rows = review.rows()
    out = ["%s: %s, %s placed first, %d action%s" % (
        path, layout.name or "/".join(layout.rows()), SIDE_NAMES[review.first], len(rows),
        "" if len(rows) == 1 else "s")]
    if review.distance_free > 0:
        legend = "'in N': the game ends N turns later (searched from %d free squares down)" \
            % review.distance_free
    else:
        legend = "turns to the end not searched"
    out.append("value for the side that acted, before -> after, with perfect play "
               "from there; " + legend)
    for r in rows:
        text = "%3d. %-6s %-12s %-11s -> %-11s %s" % (
            r.number, SIDE_NAMES[r.side], r.action, r.before.text(), r.after.text(), r.note())
        out.append(text.rstrip())
    out.append(review.summary())
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser().parse_args(argv)
    if args.turns < 0:
        raise UsageError("--turns must be 0 or more, not %d" % args.turns)
    layout, first, items = load_game(args.game, args.layout)
    tables = tables_for(layout)
    review = analysis.Review(tables, first, items, distance_free=args.turns)
    report = lines(review, args.game)
    try:
        sys.stdout.write("\n".join(report) + "\n")
    except BrokenPipeError:
        pass  # | head: the reader has seen enough
    return 0
