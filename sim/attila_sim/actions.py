"""What a person does at the board, written as text (text mode, scripts, replays).

One line is one of:
  lift b1            pick up the piece on b1 (its square reads empty)
  put c3             put the held piece down on c3 (nothing held: take the
                     piece the game calls for from beside the board: a knight
                     of the side to place, or a tile during the scorch)
  put c3 R|H|x       take a Roman knight, a Hun knight or a tile and put it on c3
  drop               put the held piece back beside the board
  @b1                a setup placement: put a knight of the side to place on b1
  b1-c3,d4           a whole turn: lift b1, put it on c3, put a tile on d4
  b1-c3 / ,d4        half a turn: the move, or the scorch
  undo / menu        press a button (a short press)
  hint               MENU's short press where it shows a hint (refused, with
                     why, where MENU would do something else)
  hold undo|menu MS  hold a button down for MS milliseconds (a long press)
  wait MS            let MS milliseconds of the clock pass
  clear              every piece back beside the board
  selftest           start the self-test (on a board: MENU held at power-on)
  next [N|all]       the next step (N steps, every step) of a --replay
  sense a1,b3,...    the squares that read occupied from now on (for replaying
                     the sensor log of a physical board; '-' for none)
  raw 0x1f           the same from a raw scan: sensor chain bits, as a
                     scanner back-end returns them (hex with 0x, or decimal)
  show / help / quit  text mode's own lines: draw the board, list the lines,
                     stop (in a script: a record without an action, the
                     lines, the end of the script)
Empty lines and lines starting with # are skipped.

parse() turns a line into steps, small tuples the rig carries out one by one:
  ("lift", sq) ("take", kind) ("put", sq) ("drop",) ("press", button, ms)
  ("hint",) ("wait", ms) ("clear",) ("sense", mask) ("raw", bits) ("selftest",)
  ("next", n or -1) ("show",) ("help",) ("quit",)
A take of kind "?" means "the piece the game calls for", resolved when it is
carried out.

A line text mode cannot read is answered with what it expected and where to
look (`help`, and `menu` for a hint): a word is all a player may guess.
"""

from attila.errors import AttilaError, LayoutError

BUTTON_NAMES = ("undo", "menu")
# What each word expects after it (text mode says it for a word misused).
USAGE = {"lift": "lift SQ", "put": "put SQ [R|H|x]", "drop": "drop", "undo": "undo",
         "menu": "menu", "hint": "hint", "press": "press undo|menu",
         "hold": "hold undo|menu MS", "wait": "wait MS", "clear": "clear", "selftest": "selftest",
         "next": "next [N|all]", "sense": "sense SQ,SQ...", "raw": "raw BITS", "show": "show",
         "help": "help", "quit": "quit"}
_VERBS = tuple(USAGE)
TEXT_LINES = ("@SQ, a turn like b1-c3,d4, lift SQ, put SQ [R|H|x], drop, undo, menu, hint, "
              "hold BUTTON MS, wait MS, clear, next [N|all], show, help or quit")
# Where text mode points a player whose line it cannot read.
LOOK = " (type help for what you can type, menu for a hint)"
# Why `hint` is refused: what MENU does instead, by the controller's mode.
NO_HINT = {"over": "the game is over (menu: a new game)",
           "clear": "the board is being cleared for a new game (undo: back to the game)",
           "resume": "a saved game was found (menu: resume it, undo: discard it)",
           "selftest": "the self-test is on (menu: its next step)"}
BOARDS_TURN = "no hint now: the board plays the %s (its action is lit)"
SCRIPT_LINES = TEXT_LINES.replace(" or quit", ", quit, selftest, sense SQ,SQ... or raw BITS")
SHORT_PRESS_MS = 80
CALLED_FOR = "?"


class ActionError(AttilaError):
    """A line of actions that cannot be read."""


def _square(layout, text, line):
    try:
        return layout.index(text.strip())
    except LayoutError as e:
        raise ActionError("%s: %s" % (line, e))


def _ms(text, line):
    if not text.isdigit():
        raise ActionError("%s: %r is not a number of milliseconds" % (line, text))
    return int(text)


def _count(text, line):
    if not text.isdigit() or int(text) < 1:
        raise ActionError("%s: %r is not a number of steps" % (line, text))
    return int(text)


def parse(layout, line, script=True):
    """Steps for one line of text; ActionError says what is wrong (and lists
    the lines of a script, or of text mode when `script` is false)."""
    text = line.strip()
    if not text or text.startswith("#"):
        return []
    words = text.split()
    verb = words[0].lower()
    args = words[1:]
    if verb == "lift" and len(args) == 1:
        return [("lift", _square(layout, args[0], text))]
    if verb == "put" and len(args) in (1, 2):
        sq = _square(layout, args[0], text)
        if len(args) == 1:
            return [("put", sq)]
        kind = args[1]
        if kind not in ("R", "H", "x"):
            raise ActionError("%s: the piece must be R, H or x, not %r" % (text, kind))
        return [("take", kind), ("put", sq)]
    if verb == "drop" and not args:
        return [("drop",)]
    if verb in BUTTON_NAMES and not args:
        return [("press", verb, SHORT_PRESS_MS)]
    if verb == "press" and len(args) == 1 and args[0] in BUTTON_NAMES:
        return [("press", args[0], SHORT_PRESS_MS)]
    if verb == "hold" and len(args) == 2 and args[0] in BUTTON_NAMES:
        return [("press", args[0], _ms(args[1], text))]
    if verb == "wait" and len(args) == 1:
        return [("wait", _ms(args[0], text))]
    if verb == "clear" and not args:
        return [("clear",)]
    if verb == "selftest" and not args:
        return [("selftest",)]
    if verb in ("show", "help", "quit", "hint") and not args:
        return [(verb,)]
    if verb == "raw" and len(args) == 1:
        try:
            value = int(args[0], 0)
        except ValueError:
            value = -1
        if value < 0:
            raise ActionError("%s: %r is not a raw sensor reading like 0x1f" % (text, args[0]))
        return [("raw", value)]
    if verb == "next" and len(args) <= 1:
        if not args:
            return [("next", 1)]
        if args[0] == "all":
            return [("next", -1)]
        return [("next", _count(args[0], text))]
    if verb == "sense" and len(args) <= 1:
        mask = 0
        if args and args[0] != "-":
            for name in args[0].split(","):
                mask |= 1 << _square(layout, name, text)
        return [("sense", mask)]
    if len(words) == 1 and verb not in _VERBS and (script or _turnlike(layout, text)):
        return turn(layout, text, "" if script else LOOK)
    if script:
        raise ActionError("%r: expected %s" % (text, SCRIPT_LINES))
    if verb in USAGE:
        raise ActionError("%r: expected %s%s" % (text, USAGE[verb], LOOK))
    raise ActionError("%r is not a command%s" % (text, LOOK))


def _turnlike(layout, text):
    """True when a word is meant as an action ('@b1', 'b1-c3,d4', a square
    alone), not as a command text mode does not know."""
    if "@" in text or "-" in text or "," in text:
        return True
    try:
        layout.index(text)
    except LayoutError:
        return False
    return True


def turn(layout, text, look=""):
    """Steps for a placement '@b1', a turn 'b1-c3,d4' or half of one (`look`:
    where to look, after an error that says what was expected)."""
    if text.startswith("@"):
        return [("take", CALLED_FOR), ("put", _square(layout, text[1:], text))]
    step, comma, burn = text.partition(",")
    out = []
    if step:
        start, dash, end = step.partition("-")
        if not dash or not start or not end:
            raise ActionError("%r: expected a turn like b1-c3,d4 or a placement like @b1%s"
                              % (text, look))
        out += [("lift", _square(layout, start, text)), ("put", _square(layout, end, text))]
    if comma:
        if not burn:
            raise ActionError("%r: the scorch after ',' is missing" % text)
        out += [("take", "x"), ("put", _square(layout, burn, text))]
    if not out:
        raise ActionError("%r: nothing to do%s" % (text, look))
    return out


def parse_lines(layout, lines, source="script"):
    """[(line number, text, steps)] for every line that does something."""
    out = []
    for k, line in enumerate(lines):
        try:
            steps = parse(layout, line)
        except ActionError as e:
            raise ActionError("%s line %d: %s" % (source, k + 1, e))
        if steps:
            out.append((k + 1, line.strip(), steps))
    return out
