"""Terminal drawings of positions and layouts.

Plain text first: every drawing reads the same without colour (the
characters are those of the position notation). Colour (ANSI) is only a
help on top, for a terminal.
"""

from attila.game.modules import chain
from attila.leds.palette import HUN, ROMAN
from attila.game.rules import HUNS, KNIGHT_NAMES, MOVE, ROMANS, SCORCH, SETUP, SIDE_NAMES

from attila_tools.draw.picture import TINTS
from attila_tools.squares import bits

_RESET = "\x1b[0m"


def truecolour():
    """Whether the terminal shows 24-bit colour: COLORTERM says so (truecolor or
    24bit). Elsewhere (tmux's default, most plain terminals) a 24-bit code can
    come out as the wrong colour, Huns' amber as the errors' red, so the
    nearest of the 256 colours is sent instead."""
    import os

    return os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit")


_LEVELS = (0, 95, 135, 175, 215, 255)  # the 6x6x6 cube of the 256 colours


def colour256(rgb):
    """The nearest of the 256 colours (the colour cube or the grey ramp) to rgb."""
    cube = [min(range(6), key=lambda k: abs(_LEVELS[k] - c)) for c in rgb]
    best = 16 + 36 * cube[0] + 6 * cube[1] + cube[2]
    err = sum((_LEVELS[k] - c) ** 2 for k, c in zip(cube, rgb))
    grey = min(23, max(0, (sum(rgb) // 3 - 3) // 10))
    if sum((8 + 10 * grey - c) ** 2 for c in rgb) < err:
        best = 232 + grey
    return best


def sgr(rgb, ground=38, bold=False, true=None):
    """The ANSI code that sets the text (ground 38) or background (48) colour."""
    if true is None:
        true = truecolour()
    code = "\x1b[%s%d;" % ("1;" if bold else "", ground)
    if true:
        return code + "2;%d;%d;%dm" % tuple(rgb)
    return code + "5;%dm" % colour256(rgb)


# The LED language's colours: blue Romans, amber Huns, scorched earth
# grey-white; red stays for errors.
def _piece_colours():
    return {"R": sgr(ROMAN, bold=True), "H": sgr(HUN, bold=True), "x": sgr((200, 200, 200)),
            ".": "\x1b[2m"}


# Module backgrounds, cycled by module number: the tints of the layout pictures.
def _module_colours():
    return tuple(sgr(tuple(int(t[k:k + 2], 16) for k in (1, 3, 5)), 48) + sgr((0, 0, 0))
                 for t in TINTS)


def plural(n, word):
    """'1 tile', '2 tiles': a count and its noun."""
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def _grid(layout, cell, width=1):
    """Rows of a board drawing: rank numbers left, file letters below.

    cell(index) gives (text, colour code or "") for each square; places with
    no square are blank.
    """
    label = len(str(layout.height))
    lines = []
    for rank in range(layout.height - 1, -1, -1):
        parts = []
        for f in range(layout.width):
            i = layout.at(f, rank)
            if i < 0:
                parts.append(" " * width)
                continue
            text, colour = cell(i)
            text = text.rjust(width)
            parts.append(colour + text + _RESET if colour else text)
        lines.append(("%*d  " % (label, rank + 1) + " ".join(parts)).rstrip())
    files = " ".join(chr(97 + f).rjust(width) for f in range(layout.width))
    lines.append(" " * (label + 2) + files)
    return lines


def position_lines(game, colour=False):
    """The board of a game and a few lines on who acts and what is left."""
    knights = game.knights
    inks = _piece_colours() if colour else None

    def cell(i):
        if knights[ROMANS] >> i & 1:
            ch = "R"
        elif knights[HUNS] >> i & 1:
            ch = "H"
        elif game.scorched >> i & 1:
            ch = "x"
        else:
            ch = "."
        return ch, inks[ch] if colour else ""

    lines = _grid(game.layout, cell)
    names = game.layout.names
    side = SIDE_NAMES[game.side]
    if game.phase == SETUP:
        lines.append(
            "setup: %s to place (Romans %d, Huns %d placed)"
            % (side, game.placed(ROMANS), game.placed(HUNS))
        )
    elif game.phase in (MOVE, SCORCH):
        step = "move" if game.phase == MOVE else "scorch"
        lines.append("play: %s to %s; %s left" % (side, step, plural(game.tiles(), "tile")))
    else:
        lines.append("over: %s win; %s" % (SIDE_NAMES[game.winner], _why_over(game)))
    stuck = game.trapped()
    if stuck:
        lines.append(
            "trapped: "
            + ", ".join(
                "%s (%s)" % (names[i], KNIGHT_NAMES[game.side_at(i)]) for i in bits(stuck)
            )
        )
    return lines


def _why_over(game):
    loser = SIDE_NAMES[game.side]
    if game.placed(ROMANS) < 3 or game.placed(HUNS) < 3:
        return "the %s have no legal placement" % loser
    if game.tiles() <= 0 and game.knights[game.side] & ~game.trapped():
        return "the %s have no tile left to scorch with" % loser
    return "no knight of the %s can move" % loser


def layout_lines(layout, modules, colour=False):
    """The layout with each square showing its module number, then the chain."""
    owner = {}
    for m in modules:
        for f, r in m.places:
            owner[layout.at(f, r)] = m.number
    width = len(str(max(owner.values())))
    tints = _module_colours() if colour else ()

    def cell(i):
        n = owner[i]
        code = tints[(n - 1) % len(tints)] if colour else ""
        return str(n), code

    kinds = sorted(m.kind for m in modules)
    lines = [
        "%s: %s, %s x %s, %s (%s)"
        % (
            layout.name or "layout",
            plural(layout.size, "square"),
            plural(layout.width, "file"),
            plural(layout.height, "rank"),
            plural(len(modules), "module"),
            ", ".join(kinds),
        ),
        "",
    ]
    lines += _grid(layout, cell, width)
    lines.append("")
    lines.append("chain (LED and sensor order), module by module:")
    order = chain(layout, modules)
    pos = 0
    for m in sorted(modules, key=lambda m: m.number):
        if m.kind == "custom":
            lines.append("module %d: custom DIY board, squares in order" % m.number)
        else:
            lines.append(
                "module %d: %s at %s, turn %d"
                % (m.number, m.kind, _place(m.file, m.rank), m.turn)
            )
        for local in range(len(m.places)):
            lines.append(
                "  chain %2d  local %2d  %s" % (pos, local, layout.names[order[pos]])
            )
            pos += 1
    return lines


def _place(file, rank):
    return chr(97 + file) + str(rank + 1)


def use_colour(stream, choice="auto"):
    """Colour for 'always', never for 'never'; for 'auto' only on a terminal."""
    import os

    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())
