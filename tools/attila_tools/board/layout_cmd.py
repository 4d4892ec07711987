"""`attila layout FILE`: check a layout file, draw it, list its LED/sensor chain.

Built to grow: add_arguments() declares the options and run() acts on them,
so more outputs (an SVG drawing, a board on a serial port) plug in as extra
options without touching cli.py.
"""

import os
import sys

from attila.errors import LayoutError
from attila.game.layoutfile import load

from attila_tools.draw.terminal import layout_lines, use_colour


def add_arguments(parser):
    """Declare the options of `attila layout` on an argparse parser."""
    parser.add_argument("file", metavar="FILE", nargs="?",
                        help="layout file, e.g. boards/4x5.json")
    parser.add_argument(
        "--colour",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the modules (auto: only on a terminal)",
    )
    # Maker tools (attila_tools.draw.picture / attila_tools.board.flash, helper "flash"):
    parser.add_argument("--list", action="store_true", help="list the layouts in boards/")
    parser.add_argument("--svg", metavar="OUT", help="also draw the layout into an SVG file")
    parser.add_argument("--png", metavar="OUT", help="also draw the layout into a PNG file")
    parser.add_argument("--profile", metavar="PROFILE",
                        help="chain order of this hardware profile in the pictures")
    parser.add_argument("--port", metavar="PORT",
                        help="copy just this layout to a flashed board on PORT (auto: the one "
                        "plugged in) and restart it")


def unplayable(layout, tiles=None):
    """Why no game can be played on the layout (over before it begins), or None."""
    from attila.game.rules import OVER, Game

    if not any(layout.knight[i] for i in range(layout.size)):
        return ("no knight could ever move on it: no square is a knight's jump from "
                "another (a knight jumps 2 squares one way and 1 the other)")
    if Game(layout, tiles=tiles).phase == OVER:
        return ("the game would be over before it starts: no square takes the first "
                "knight (each needs a free square a knight's jump away)")
    return None


def run(args, out=None):
    """Load and draw the layout; LayoutError (bad file) goes up to the caller."""
    out = out or sys.stdout
    if getattr(args, "list", False):
        return _list(out)
    if not args.file:
        raise LayoutError("layout: give a layout FILE (or --list)")
    layout, modules, tiles = load(args.file)
    why = unplayable(layout, tiles)
    if why:
        raise LayoutError("%s: %s" % (args.file, why))
    _check_pictures(args)
    wiring = None
    if getattr(args, "profile", None):
        from attila.profile import load as load_profile

        wiring = load_profile(args.profile).wiring(layout, modules)
    if getattr(args, "port", None):
        from attila_tools.board.device import PortError, check_port
        from attila_tools.files import FileError

        try:
            check_port(args.port)
        except PortError as e:
            raise FileError("layout --port %s" % e)
    lines = layout_lines(layout, modules, use_colour(out, args.colour))
    if tiles is not None:
        lines.insert(1, "tiles: %d" % tiles)
    out.write("\n".join(lines) + "\n")
    return _maker(args, layout, modules, wiring, out)


def _list(out):
    from attila_tools.board.build import layouts

    for path, layout, modules, description in layouts():
        out.write("%-28s %2d squares, %d module%s  %s\n" % (
            os.path.relpath(path), layout.size, len(modules), "" if len(modules) == 1 else "s",
            description))
    return 0


def _check_pictures(args):
    """--svg / --png: the name's extension must be the flag's, the path free to write."""
    from attila_tools.files import FileError, check_output

    for flag in ("svg", "png"):
        path = getattr(args, flag, None)
        if path:
            if os.path.splitext(path)[1].lower() != "." + flag:
                raise FileError("%s: --%s draws an %s picture: give a name ending in .%s"
                                % (path, flag, flag.upper(), flag))
            check_output(path, flag)


def _maker(args, layout, modules, wiring, out):
    """--svg / --png pictures and --port (copy to a board); 1 when the board fails."""
    for path in (getattr(args, "svg", None), getattr(args, "png", None)):
        if path:
            from attila_tools.draw.picture import save

            save(path, layout, modules, wiring)
            out.write("picture: %s\n" % path)
    if getattr(args, "port", None):
        from attila_tools.board.device import DeviceError
        from attila_tools.board.flash import switch_layout

        out.flush()
        try:
            return switch_layout(args.port, args.file)
        except DeviceError as e:
            e.prog = "attila layout"  # a board's trouble, named by the command that met it
            raise
    return 0
