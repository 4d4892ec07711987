"""Text notation: positions, turns, placements and game logs.

Position: rows from the top rank down, '/' between them, one character a
place (R Roman, H Hun, x scorched, . free, - no square), a space, then the
side to move.   R.x.H/.x.../H.x.R/..HR. R
Turn: b1-c3,d4 (knight b1 to c3, then scorch d4). Placement: @b1.
A game log is actions separated by spaces; a half turn 'b1-c3' may end it.
"""

from attila.errors import LayoutError, NotationError
from attila.game.geometry import from_rows, lowest, place_name, popcount
from attila.game.rules import KNIGHT_NAMES, KNIGHTS, MOVE, SCORCH, SETUP, SIDES, SIDE_NAMES, Game

_PIECES = "RHx.-"


def parse_position(text, tiles=None):
    """A Game standing at the position; NotationError says where the text is wrong."""
    if not isinstance(text, str):
        raise NotationError("position must be text")
    parts = text.strip().split(" ")
    if len(parts) != 2 or not parts[0]:
        raise NotationError(
            "position %r: expected ROWS SIDE, like 'R.x.H/.x.../H.x.R/..HR. R'" % text
        )
    board, side_text = parts
    if side_text not in ("R", "H"):
        raise NotationError(
            "position: side to move must be R or H, not %r" % side_text
        )
    side = SIDES.index(side_text)
    rows = board.split("/")
    top = len(rows)  # the first row is the top rank; errors name ranks and squares
    for k, row in enumerate(rows):
        if not row:
            raise NotationError("position: rank %d is empty" % (top - k))
        for c, ch in enumerate(row):
            if ch not in _PIECES:
                raise NotationError(
                    "position: %s: %r is not one of R H x . -"
                    % (place_name(c, top - 1 - k), ch)
                )
        if len(row) != len(rows[0]):
            raise NotationError(
                "position: rank %d has %d places but rank %d has %d"
                % (top - k, len(row), top, len(rows[0]))
            )
    try:
        layout = from_rows(rows)
    except LayoutError as e:
        raise NotationError("position: %s" % e)
    masks = [0, 0, 0]
    height = len(rows)
    for k, row in enumerate(rows):
        for f, ch in enumerate(row):
            if ch in "RHx":
                masks["RHx".index(ch)] |= 1 << layout.at(f, height - 1 - k)
    return _stand(layout, masks[0], masks[1], masks[2], side, tiles)


def _stand(layout, romans, huns, scorched, side, tiles):
    """Check a set of pieces as a reachable game state and build its Game."""
    names = layout.names
    r, h = popcount(romans), popcount(huns)
    for n, who in ((r, 0), (h, 1)):
        if n > KNIGHTS:
            raise NotationError(
                "position: %d %s knights; at most %d a side"
                % (n, KNIGHT_NAMES[who], KNIGHTS)
            )
    setup = r < KNIGHTS or h < KNIGHTS
    if setup:
        if scorched:
            raise NotationError(
                "position: scorched earth on %s during setup"
                % names[lowest(scorched)]
            )
        if abs(r - h) > 1:
            raise NotationError(
                "position: Romans have placed %d and Huns %d; setup alternates, "
                "so the counts differ by at most one" % (r, h)
            )
        if r != h and (r < h) != (side == 0):
            raise NotationError(
                "position: Romans have placed %d and Huns %d, so the %s place next, "
                "not the %s" % (r, h, SIDE_NAMES[side ^ 1], SIDE_NAMES[side])
            )
        first = side if r == h else side ^ 1
    else:
        first = side if popcount(scorched) % 2 == 0 else side ^ 1
    game = Game(layout, first, tiles)
    if popcount(scorched) > game.supply:
        raise NotationError(
            "position: %d square%s scorched but the supply is %d tile%s"
            % (popcount(scorched), "" if popcount(scorched) == 1 else "s", game.supply,
               "" if game.supply == 1 else "s")
        )
    game.knights = [romans, huns]
    game.scorched = scorched
    game.side = side
    if setup or not scorched:
        # Setup never leaves a knight trapped; only scorching can trap one.
        stuck = game.trapped()
        if stuck:
            raise NotationError(
                "position: the knight on %s cannot move, which setup forbids"
                % names[lowest(stuck)]
            )
    game.settle(SETUP if setup else MOVE)
    return game


def format_position(game):
    """The position text of a game (mid-turn, the mover is shown to move)."""
    layout = game.layout
    rows = []
    for rank in range(layout.height - 1, -1, -1):
        row = ""
        for f in range(layout.width):
            i = layout.at(f, rank)
            if i < 0:
                row += "-"
            elif game.knights[0] >> i & 1:
                row += "R"
            elif game.knights[1] >> i & 1:
                row += "H"
            elif game.scorched >> i & 1:
                row += "x"
            else:
                row += "."
        rows.append(row)
    return "/".join(rows) + " " + SIDES[game.side]


def _square(layout, text, what):
    try:
        return layout.index(text)
    except LayoutError as e:
        raise NotationError("%s: %s" % (what, e))


def parse_placement(layout, text):
    """Square index of a placement '@b1'."""
    if not text.startswith("@"):
        raise NotationError("placement %r: expected @SQUARE, like @b1" % text)
    return _square(layout, text[1:], "placement %r" % text)


def parse_turn(layout, text):
    """(from, to, scorch) of a turn 'b1-c3,d4'; scorch is -1 for a half turn 'b1-c3'."""
    step, _, burn = text.partition(",")
    start, dash, end = step.partition("-")
    if not dash or not start or not end or (_ and not burn):
        raise NotationError("turn %r: expected FROM-TO,SCORCH, like b1-c3,d4" % text)
    what = "turn %r" % text
    a = _square(layout, start, what)
    b = _square(layout, end, what)
    c = _square(layout, burn, what) if burn else -1
    return a, b, c


def format_turn(layout, start, end, burn=-1):
    names = layout.names
    text = names[start] + "-" + names[end]
    return text + "," + names[burn] if burn >= 0 else text


def play(game, text):
    """Carry out one placement or turn given as text; nothing changes on error."""
    if text.startswith("@"):
        game.place(parse_placement(game.layout, text))
        return
    a, b, c = parse_turn(game.layout, text)
    game.move(a, b)
    if c >= 0:
        try:
            game.scorch(c)
        except Exception:
            game.undo()
            raise


def log(game):
    """The game so far as a log: placements and turns separated by spaces."""
    out = []  # type: list
    for entry in game.history:
        text = game.describe(entry)
        if text[0] == ",":
            out[-1] += text
        else:
            out.append(text)
    return " ".join(out)


def replay(game, text):
    """Play a log onto a game; the error names the item that is wrong."""
    for k, item in enumerate(text.split()):
        if game.phase == SCORCH:
            raise NotationError(
                "log item %d %r: the turn before it has no scorch" % (k + 1, item)
            )
        try:
            play(game, item)
        except (NotationError, ValueError) as e:
            raise NotationError("log item %d %r: %s" % (k + 1, item, e))
    return game


def in_words(side, text):
    """An action of a side said once as a whole, in notation and in words,
    before the steps that guide the hands: the board's own, or a remote
    player's. text: a placement '@c3' or a turn 'b3-d4,c4'.

    'Huns: @c3 (a knight on c3)', 'Huns: b3-d4,c4 (the knight on b3 to d4,
    then scorch c4)'."""
    who = SIDE_NAMES[side]
    if text[:1] == "@":
        return "%s: %s (a knight on %s)" % (who, text, text[1:])
    step, _, tile = text.partition(",")
    start, _, end = step.partition("-")
    return "%s: %s (the knight on %s to %s, then scorch %s)" % (who, text, start, end, tile)
