"""The `attila` command: analysis of positions, layout checks, and the other tools.

    attila moves POSITION         legal actions, as one JSON object
    attila perft POSITION DEPTH   number of legal lines of DEPTH plies
    attila show POSITION          draw a position
    attila layout FILE            check and draw a layout file
    attila sim | flash | games | analyse | solve | verify | book ...   tools of their own (loaded lazily)

Bad input gives exit status 2 and one line on stderr; never a traceback.
"""

import importlib
import json
import sys

from attila.errors import AttilaError

from attila_tools.errors import ToolError, UsageError
from attila_tools.options import PositionParser

# Subcommands that live in their own modules: name -> (module, help).
# Each module has main(argv) -> exit code; it is imported only when called.
PLUGINS = {
    "sim": ("attila_sim.app", "play on the desktop simulator"),
    "flash": ("attila_tools.board.flash", "build and copy the firmware to a board"),
    "games": ("attila_tools.board.games", "fetch the saved game and game logs from a board"),
    "analyse": ("attila_tools.analyse.analyse_cmd", "judge every action of a game with perfect play"),
    "solve": ("attila_tools.solve.solve_cmd", "solve a position (--from-setup: a whole layout)"),
    "verify": ("attila_tools.solve.verify", "check a certificate of a solved layout"),
    "book": ("attila_tools.solve.bookmaker", "make the board's setup book from a certificate"),
    "choose": ("attila_tools.board.choose_cmd", "the action the board would play in each position"),
    "card": ("attila_tools.solve.card_cmd", "write a layout's solved game for the board's microSD card"),
    "hardware": ("attila_tools.hardware.command",
                 "the boards' KiCad projects for another square size or module (KiCad 9)"),
}

PHASES = ("setup", "play", "play", "over")  # by rules phase: SETUP, MOVE, SCORCH, OVER


def _position(words, tiles):
    from attila.game.notation import parse_position

    return parse_position(" ".join(words), tiles)


def _tiles_option(parser):
    parser.add_argument(
        "--tiles",
        type=int,
        metavar="N",
        help="scorched-earth tiles in the supply (default: one per free square after setup)",
    )


def build_parser():
    """The argument parser of `attila` (plugins listed, but parsed by themselves)."""
    from attila_tools.board import layout_cmd

    parser = PositionParser(
        prog="attila",
        description="Attila board: analyse positions, check layouts, run the tools.",
        epilog="A position is one line: rows from the top rank down, '/' between "
        "them (R Roman, H Hun, x scorched, . free, - no square), a space, the side "
        "to move. Quote it: attila moves 'R.x.H/.x.../H.x.R/..HR. R'",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("moves", help="legal actions of a position, as JSON")
    p.add_argument("position", nargs="+", metavar="POSITION")
    _tiles_option(p)

    p = sub.add_parser("perft", help="count the legal lines of DEPTH plies")
    p.add_argument("words", nargs="+", metavar="POSITION DEPTH")
    _tiles_option(p)

    p = sub.add_parser("show", help="draw a position")
    p.add_argument("position", nargs="+", metavar="POSITION")
    _tiles_option(p)
    p.add_argument("--colour", choices=("auto", "always", "never"), default="auto",
                   help="colour the pieces (auto: only on a terminal)")

    p = sub.add_parser("layout", help="check and draw a layout file")
    layout_cmd.add_arguments(p)

    for name, (_, text) in PLUGINS.items():
        sub.add_parser(name, help=text, add_help=False)
    return parser


def moves_report(game):
    """The `attila moves` object; every key is always there (empty lists if not applicable)."""
    from attila.game.perft import turns
    from attila.game.rules import MOVE, OVER, SETUP, SIDES

    from attila_tools.squares import bits

    names = game.layout.names
    placements = []
    moves = []
    if game.phase == SETUP:
        placements = sorted("@" + names[i] for i in bits(game.placements()))
    elif game.phase == MOVE:
        for a in bits(game.movable()):
            for b in bits(game.destinations(a)):
                moves.append(names[a] + "-" + names[b])
        moves.sort()
    return {
        "side": SIDES[game.side],
        "phase": PHASES[game.phase],
        "placements": placements,
        "moves": moves,
        "turns": turns(game),
        "trapped": sorted(names[i] for i in bits(game.trapped())),
        "winner": SIDES[game.winner] if game.phase == OVER else None,
    }


def _moves(args):
    game = _position(args.position, args.tiles)
    print(json.dumps(moves_report(game)))
    return 0


def _perft(args):
    from attila.game.perft import perft

    if len(args.words) < 2:
        raise UsageError("give a POSITION and a DEPTH (see attila perft --help)", "attila perft")
    text = args.words[-1]
    if text in ("R", "H") or "/" in text:
        raise UsageError("DEPTH is missing after the position", "attila perft")
    try:
        depth = int(text)
    except ValueError:
        depth = -1
    if depth < 0 or not text.strip().lstrip("+").isdigit():
        raise UsageError("depth %r must be a whole number >= 0" % text, "attila perft")
    game = _position(args.words[:-1], args.tiles)
    print(perft(game, depth))
    return 0


def _show(args):
    from attila_tools.draw.terminal import position_lines, use_colour

    game = _position(args.position, args.tiles)
    print("\n".join(position_lines(game, use_colour(sys.stdout, args.colour))))
    return 0


def _layout(args):
    from attila_tools.board import layout_cmd

    return layout_cmd.run(args)


COMMANDS = {"moves": _moves, "perft": _perft, "show": _show, "layout": _layout}


def _plugin(name, argv):
    module_name = PLUGINS[name][0]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name and module_name.startswith(e.name):
            raise UsageError("%s is not available in this build" % name, "attila")
        raise UsageError("%s cannot start: %s" % (name, e), "attila")
    main = getattr(module, "main", None)
    if main is None:
        raise UsageError("%s is not available in this build" % name, "attila")
    code = main(argv)
    return 0 if code is None else code


def _tiles_ok(args):
    tiles = getattr(args, "tiles", None)
    if tiles is not None and tiles < 0:
        raise UsageError("--tiles must be >= 0, not %d" % tiles, "attila " + args.command)


def main(argv=None):
    """Run `attila`; returns the exit status (0 ok, 2 bad input, 1 a board
    that failed). The one place where the tools' errors are printed."""
    argv = list(sys.argv[1:] if argv is None else argv)
    prog = "attila"
    try:
        if argv and argv[0] in PLUGINS:
            # Plugins parse their own arguments, all of them.
            prog = "attila " + argv[0]
            return _plugin(argv[0], argv[1:])
        parser = build_parser()
        if not argv:
            raise UsageError("give a command: %s (see attila --help)"
                             % ", ".join(list(COMMANDS) + list(PLUGINS)))
        args = parser.parse_args(argv)
        _tiles_ok(args)
        return COMMANDS[args.command](args)
    except ToolError as e:
        # One line; a board's own lines (its ports, its traceback) may follow it.
        sys.stderr.write("%s: %s\n" % (e.prog or prog, e))
        return e.status
    except AttilaError as e:
        sys.stderr.write("%s: %s\n" % (prog, str(e).replace("\n", " ")))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
