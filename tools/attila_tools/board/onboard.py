"""What the tools do on a connected board beside copying files: hold its
watchdog off for a while (calm, uncalm) and read its saved game.

`attila flash`, `attila layout` and `attila games` all do both; this module
sits below them so that none imports another.
"""

from attila.board import MAINTENANCE_FILE as MAINTENANCE
from attila.errors import AttilaError

from attila_tools.board.build import SAVE_FILE as SAVE
from attila_tools.board.device import DeviceError


def calm(board, prog="attila flash"):
    """Stop a firmware that runs a watchdog from resetting the board mid-copy.

    A watchdog (profile "watchdog_ms") keeps running once started, also after
    mpremote's Ctrl-C, and would reset the board a few seconds into the copy.
    So: put a `maintenance` file on the board and reset it; main.py then
    stops before it starts the watchdog. True when the file was put there
    (the caller removes it before the final reset).
    """
    state = board.eval(_WATCHDOG)
    watchdog_ms, has_main, in_maintenance = state
    if not watchdog_ms or not has_main or in_maintenance:
        return False
    print("%s: the firmware on the board runs a watchdog (%d ms); restarting it in "
        "maintenance mode first" % (prog, watchdog_ms), flush=True)
    board.exec("open(%r, 'w').close()" % MAINTENANCE)
    board.marker = True
    board.hard_reset()
    board.reconnect()
    return True


def uncalm(board):
    """Remove the maintenance marker calm() put there (if it is still there)."""
    if getattr(board, "marker", False) and board.in_raw_repl():
        try:
            board.remove(MAINTENANCE)
            board.marker = False
        except DeviceError:
            pass


_WATCHDOG = """
import os
def _e(p):
    try:
        os.stat(p)
        return True
    except OSError:
        return False
_w = 0
try:
    import json
    with open('profile.json') as _f:
        _w = json.load(_f).get('watchdog_ms', 0)
except Exception:
    pass
print(repr((_w if isinstance(_w, int) else 0, _e('main.py'), _e('maintenance'))))
"""


def read_game(board, path):
    """The bytes of a game file on the board; the save with its journal
    carried out for game.txt."""
    data = board.read(path)
    if path != SAVE or data is None:
        return data
    from attila.saves.store import journal_of

    journal = board.read(journal_of(SAVE))
    if not journal:
        return data
    from attila.saves.savetext import checksum, current

    try:
        text = current(data, journal)
    except AttilaError:
        return data
    return (text + "end %d\n" % checksum(text)).encode()
