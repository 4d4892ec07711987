"""`attila games`: fetch the saved game and the game logs from a board.

    attila games [--port PORT] [--out DIR]      copy them to DIR (default ./games)
    attila games --list [--port PORT]           only show what the board holds
    attila games show FILE                      print a fetched game, move by move

The board keeps the game in progress in game.txt and its journal
journal/now/game.txt.jnl (attila.saves.store: they survive a power cut; the game
fetched is the two put together), and every finished game as games/game-*.txt on its
flash. Each file fetched is named after the board
file and the time it was fetched, so nothing is overwritten. Replay one in
the simulator with the command printed for it
(`attila sim --replay FILE --layout boards/<its layout>.json`).
"""

import os
import sys
import time

from attila.board import RESUME_FILE
from attila.errors import AttilaError

from attila_tools.board.device import SerialBoard, PortError, check_port, find_port
from attila_tools.board.onboard import SAVE, calm, read_game, uncalm
from attila_tools.errors import UsageError
from attila_tools.options import Parser

LOG_DIR = "games/"


def _game(data):
    """The Game in a save file's bytes (checksum checked); AttilaError says why not."""
    from attila.saves.savetext import VERSION, restore, unpack

    if not data.startswith(VERSION.encode()):
        raise AttilaError("its first line is not %r" % VERSION)
    return restore(unpack(data))


def _describe(data):
    """One line about a save file's bytes ("12 actions, Romans to play: ...")."""
    from attila.game.notation import log
    from attila.game.rules import OVER, SIDE_NAMES

    try:
        game = _game(data)
    except AttilaError as e:
        return "not a readable game (%s)" % e
    moves = log(game)
    n = len(game.history)  # as the board counts them: a move and its scorch are two
    if game.phase == OVER:
        state = "%s won" % SIDE_NAMES[game.winner]
    else:
        state = "%s to play" % SIDE_NAMES[game.side]
    return "%d action%s, %s: %s" % (n, "" if n == 1 else "s", state, moves or "(no action yet)")


def layout_of(data):
    """The boards/*.json file whose layout the saved game is on (relative path), or None."""
    from attila_tools.board.build import layouts

    try:
        rows = _game(data).layout.rows()
    except AttilaError:
        return None
    for path, layout, _modules, _d in layouts():
        if layout.rows() == rows:
            return os.path.relpath(path)
    return None


def replay_hint(target, data):
    """The command that replays a fetched game in the simulator."""
    where = layout_of(data)
    if where:
        return "attila sim --replay %s --layout %s" % (target, where)
    return "attila sim --replay %s --layout LAYOUT (the board's layout.json)" % target


def board_games(board):
    """Paths of the game files on the board."""
    paths = board.files()
    found = [p for p in paths if p == SAVE]
    found += sorted(p for p in paths if p.startswith(LOG_DIR) and not p.endswith("/"))
    return found


def fetch(args):
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        raise PortError("%s: not a folder (--out names the folder the games go into)"
                        % args.out)
    if args.port:
        check_port(args.port)
    port = find_port(args.port)
    with SerialBoard(port) as board:
        if calm(board, "attila games"):  # a watchdog would reset the board mid-copy
            uncalm(board)  # main.py may start again at the end
        _fetch(args, board, port)
        if not args.no_reset:
            board.write(RESUME_FILE, b"")  # main.py takes the game back without asking
            board.reset(wait=2.0)  # the firmware runs again, game untouched
    return 0


def _fetch(args, board, port):
    found = board_games(board)
    if not found:
        print("attila games: no saved game and no game logs on the board (%s)" % port)
        return
    if args.list:
        for p in found:
            print("%s: %s" % (p, _describe(read_game(board, p) or b"")))
        return
    os.makedirs(args.out, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for p in found:
        data = read_game(board, p)
        if data is None:
            continue
        name = p.replace("/", "-")
        stem, ext = os.path.splitext(name)
        target = _free(os.path.join(args.out, "%s-%s" % (stem, stamp)), ext or ".txt")
        with open(target, "xb") as f:
            f.write(data)
        print("%s -> %s: %s" % (p, target, _describe(data)))
        print("  replay: %s" % replay_hint(target, data))


def _free(stem, ext):
    """stem + ext, or stem-2 + ext ... : a name no file has yet."""
    target = stem + ext
    k = 1
    while os.path.lexists(target):
        k += 1
        target = "%s-%d%s" % (stem, k, ext)
    return target


def show(path):
    from attila.game.notation import format_position, log, play
    from attila.game.rules import Game

    from attila_tools.files import read_bytes

    data = read_bytes(path)
    try:
        game = _game(data)
    except AttilaError as e:
        raise AttilaError("%s: not a game (%s)" % (path, str(e).replace("save: ", "")))
    replay = Game(game.layout, game.first, game.supply)

    print("%s: %s" % (path, _describe(data)))
    for k, action in enumerate(log(game).split()):
        play(replay, action)
        print("%3d. %-12s %s" % (k + 1, action, format_position(replay)))
    return 0


def parser():
    p = Parser(
        prog="attila games", description="Fetch the saved game and game logs from a board."
    )
    p.add_argument("--port", help="serial port of the board (default, or auto: the one plugged in)")
    p.add_argument("--out", default="games", help="directory for the files (default ./games)")
    p.add_argument("--list", action="store_true", help="show what the board holds; copy nothing")
    p.add_argument("--no-reset", action="store_true",
                   help="leave the board in the REPL afterwards (default: restart the firmware)")
    return p


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["show"]:
        if len(argv) != 2:
            raise UsageError("give one FILE", "attila games show")
        return show(argv[1])
    return fetch(parser().parse_args(argv))
