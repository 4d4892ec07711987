"""Terminal mode: the board drawn in text, a game played by typing what hands do.

The same rig as the window runs underneath (the real controller behind a
virtual strip and virtual reed switches); only the drawing and the input
differ. With colour, every square's background is its LED's colour (24-bit
ANSI where COLORTERM says the terminal shows it, else the nearest of the 256
colours); without, lit squares are shown in brackets and listed with their
colours under the board.
"""

import sys

from attila.leds.palette import HUN, ROMAN
from attila_sim import actions
from attila_sim.actions import ActionError
from attila_sim.table import TableError
from attila_tools.draw.terminal import plural, sgr, truecolour

HELP = """\
What you can type (squares are named like b3):
  @b1            put a knight of the side to place on b1 (setup)
  b1-c3,d4       a whole turn: move the knight b1 to c3, then scorch d4
  b1-c3   ,d4    half a turn: just the move, or just the scorch
  lift b1        pick up the piece on b1        put c3 [R|H|x]  put a piece down
  drop           put the held piece back beside the board
  undo   menu    press a button         hold menu 1500   a long press
  hint           the board's best action, lit (MENU's short press)
  wait 500       let time pass (the LEDs blink)   clear   empty the board
  next [N|all]   the next step(s) of a replay (an empty line: one step)
  show   help   quit"""


# Knights' letters on unlit squares: in their side's colour.
_PIECE_INK = {"R": ROMAN, "H": HUN}


def _fg_for(colour):
    r, g, b = colour
    return (0, 0, 0) if r * 299 + g * 587 + b * 114 > 128000 else (255, 255, 255)


def render(rig, colour=False):
    """The board as text lines: pieces, LED colours, hand and reserve."""
    layout = rig.layout
    leds = rig.colours()
    true = truecolour()
    lines = []
    files = "".join(" %s " % chr(97 + f) for f in range(layout.width))
    lines.append(("    " + files).rstrip())
    for r in range(layout.height - 1, -1, -1):
        row = "%3d " % (r + 1)
        for f in range(layout.width):
            i = layout.at(f, r)
            if i < 0:
                row += "   "
                continue
            piece = rig.table.text(i)
            c = leds[i]
            if colour:
                shown = piece if piece != "." else "·"
                if any(c):
                    row += "%s%s %s \x1b[0m" % (sgr(c, 48, true=true), sgr(_fg_for(c), true=true),
                                                shown)
                else:
                    fg = _PIECE_INK.get(piece, (200, 200, 200))
                    row += "%s%s %s \x1b[0m" % (sgr((40, 40, 40), 48, true=true),
                                                sgr(fg, bold=True, true=true), shown)
            else:
                row += ("[%s]" if any(c) else " %s ") % piece
        lines.append(row.rstrip() if not colour else row)
    lines.append(("    " + files).rstrip())
    if not colour:
        lit = ["%s #%02x%02x%02x" % ((layout.names[i],) + tuple(leds[i]))
               for i in range(layout.size) if any(leds[i])]
        lines.append("lit: " + (", ".join(lit) if lit else "none"))
    table = rig.table
    held = table.held()
    lines.append(
        "beside the board: %d R, %d H, %s%s"
        % (len(table.reserve("R")), len(table.reserve("H")), plural(len(table.reserve("x")), "tile"),
           "; in hand: %s" % held.kind if held is not None else "")
    )
    lines.append(rig.status())
    return lines


def run(rig, stdin=None, stdout=None, colour=None):
    """Play in the terminal until end of input or 'quit'; returns an exit code."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    interactive = hasattr(stdin, "isatty") and stdin.isatty()
    if colour is None:
        colour = hasattr(stdout, "isatty") and stdout.isatty()

    def show():
        _told(rig, stdout)
        stdout.write("\n".join(render(rig, colour)) + "\n")
        if rig.controller.busy():
            # The board is thinking (its move, a hint): a real board's clock
            # runs on while nobody moves, so its answer comes by itself.
            stdout.flush()
            if rig.online is not None:
                from attila_sim.online import wait

                wait(rig, stdout, stdin)  # online: the other board's action, in real time
            else:
                rig.think()
            _told(rig, stdout)
            stdout.write("\n".join(render(rig, colour)) + "\n")

    stdout.write("Attila board simulator, text mode (%s). Type help for the commands.\n"
                 % (rig.layout.name or "custom layout"))
    show()
    if interactive and stdin is sys.stdin and stdout is sys.stdout:
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    while True:
        try:
            if interactive and stdin is sys.stdin and stdout is sys.stdout:
                line = input("> ") + "\n"
            else:
                stdout.write("> ")
                stdout.flush()
                raw = getattr(stdin, "buffer", None)
                # Bytes, decoded here: a line that is not UTF-8 is answered
                # like any other bad line, whatever the locale's error handler.
                line = raw.readline().decode("utf-8", "replace") if raw else stdin.readline()
        except (EOFError, KeyboardInterrupt):
            line = ""
        if not line:
            if interactive:
                stdout.write("\n")
            break
        cmd = line.strip()
        if not interactive:
            stdout.write(cmd + "\n")
        if cmd in ("quit", "q", "exit"):
            break
        if cmd in ("help", "?"):
            stdout.write(HELP + "\n")
            continue
        if cmd == "show":
            show()
            continue
        if not cmd:
            if rig.replaying():
                stdout.write(rig.replay_step() + "\n")
                _review(rig, stdout)
                show()
            continue
        try:
            steps = actions.parse(rig.layout, cmd, script=False)
        except ActionError as e:
            stdout.write("? %s\n" % e)
            continue
        rig.said = ""
        try:
            rig.do(steps)
        except TableError as e:
            stdout.write("? %s\n" % e)
        if rig.said:
            stdout.write(rig.said + "\n")
            _review(rig, stdout)
        show()
    return 0


def _told(rig, stdout):
    """The board's own action, said once as a whole before the board that
    shows its first step (attila.play.words.decision, as on its console)."""
    for line in rig.heard.unread():
        stdout.write(line + "\n")


def _review(rig, stdout):
    """The replay's analysis of the step just done (text mode waits for it)."""
    for line in rig.review_lines(wait=True):
        stdout.write(line + "\n")
