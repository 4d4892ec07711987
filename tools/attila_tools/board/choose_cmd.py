"""`attila choose`: the action the board would play, position by position.

    attila choose [--layout FILE] [--level LEVEL] POSITION
    attila choose [--layout FILE] [--level LEVEL] -      (one position a line on stdin)
    attila choose --card DIR ...                         (with the solved game on a card)

The same decision as the board's own: attila.opponent.planner's Planner at the
level's node budget (never its time budget, which the node budgets are set
not to reach on the chip), the layout's setup book (boards/solved/NAME.book)
in setup at the normal and strong levels, with --card the solved game
(attila.opponent.card) at those levels after setup, without it the layout's opening
table (boards/solved/NAME.opening, attila.opponent.opening) for the first turn of
play, as a flashed board has it; the answer checked against the
rules as the board's plan checks it. The lower levels' noise starts from the
LCG's first seed for every position, as on a board just switched on, so each
line's answer stands alone. One action a line on stdout ('@c2',
'b1-c3,d4'); a bad position is one line on stderr (its line number with
`-`) and the rest go on; exit status 2 at the end when any was bad.
Without --layout a position's squares pick the layout file in boards/ (its
book, its tiles); with it, every position must be on that layout.
"""

import sys

from attila.errors import AttilaError

from attila_tools.errors import UsageError
from attila_tools.options import PositionParser

PROG = "attila choose"
SEED = 12345  # attila.opponent.planner's LCG at boot


def build_parser():
    from attila.opponent.levels import LEVEL_NAMES

    p = PositionParser(prog=PROG, description="Print the action the board would play in each position.")
    p.add_argument("position", nargs="*", metavar="POSITION",
                   help="a position ('R.x.H/.x.../H.x.R/..HR. R'), or - to read one a line from stdin")
    p.add_argument("--layout", metavar="FILE",
                   help="layout file (default: the file in boards/ with the position's squares)")
    p.add_argument("--level", choices=LEVEL_NAMES, default="strong",
                   help="the board's level (default strong)")
    p.add_argument("--card", metavar="DIR",
                   help="the layout's solved game as `attila card` wrote it (DIR/attila.tbl): "
                   "the board's decision with that microSD card")
    return p


class Chooser:
    """The board's decisions for positions of one or more layouts (books kept open)."""

    def __init__(self, level, layout_path=None, card_dir=None):
        from attila.game import layoutfile

        self.level = level
        self.card_dir = card_dir
        self._cards = {}  # rows of a layout -> its attila.opponent.card.Card (--card)
        self.fixed = None  # (layout, tiles, book, name, opening table) of --layout
        self._known = {}  # rows of a layout -> (layout, tiles, book, name, opening table)
        if layout_path is not None:
            from attila_tools.board.build import opening_table
            from attila_tools.gamefiles import find_layout

            layout, _modules, tiles = layoutfile.load(find_layout(layout_path))
            self.fixed = (layout, tiles, self._book(layout_path, layout), layout_path,
                          opening_table(layout_path, layout))
            self._card(layout)  # a card that is not for the layout: said at once

    def close(self):
        for entry in [self.fixed] + list(self._known.values()):
            if entry is not None and entry[2] is not None:
                entry[2].close()
            if entry is not None and entry[4] is not None:
                entry[4].close()
        for card in self._cards.values():
            card.close()

    def _card(self, layout):
        """The --card for the layout (opened once), or None without --card."""
        if self.card_dir is None:
            return None
        key = tuple(layout.rows())
        card = self._cards.get(key)
        if card is None:
            from attila_tools.files import open_card

            card = self._cards[key] = open_card(self.card_dir, layout)
        return card

    def _book(self, path, layout):
        from attila.opponent import book
        from attila_tools.board.build import book_for

        found = book_for(path, layout)[0]
        return book.open(found, layout) if found else None

    def _setting(self, layout):
        """(layout, tiles, book, name) the board of this position's squares has."""
        if self.fixed is not None:
            if self.fixed[0] != layout:
                raise AttilaError("not on the layout of %s" % self.fixed[3])
            return self.fixed
        key = tuple(layout.rows())
        entry = self._known.get(key)
        if entry is None:
            from attila_tools.board.build import opening_table
            from attila_tools.gamefiles import layout_like

            found, _modules, tiles = layout_like(layout)
            saved = found.name == "saved"
            book = self._book(None, found) if not saved else None
            opening = opening_table(None, found) if not saved else None
            entry = self._known[key] = (found, tiles, book, found.name, opening)
        return entry

    def choose(self, text):
        """The board's action in the position `text`; AttilaError says why there is none."""
        from attila.opponent.answer import parse_action
        from attila.opponent.chooser import action_text
        from attila.opponent.planner import choose
        from attila.game.notation import parse_position
        from attila.play.plan import first_action, legal

        game = parse_position(text)
        _layout, tiles, book, _name, opening = self._setting(game.layout)
        if tiles is not None and tiles != game.supply:  # the layout file's supply
            game = parse_position(text, tiles)
        card = self._card(game.layout)
        if card is None:
            card = opening  # the first turn of play (another tile supply: not its)
        action = choose(game, self.level, budget_ms=10 ** 9, seed=SEED, book=book,
                                 card=card)
        if card is not None and card.fault:
            raise AttilaError("the %s failed: %s" % (card.what, card.fault))
        if not legal(game, parse_action(game.layout, action)):  # as the board's plan: never
            action = action_text(game.layout, first_action(game))  # an illegal action
        return action


def _lines(stream):
    """(where, text) of each non-blank line of a stream."""
    for n, line in enumerate(stream, 1):
        if line.strip():
            yield "line %d" % n, line.strip()


def main(argv=None):
    from attila.opponent.levels import LEVEL_NAMES

    args = build_parser().parse_args(argv)
    if not args.position:
        raise UsageError("give a POSITION, or - to read them from stdin")
    chooser = Chooser(LEVEL_NAMES.index(args.level), args.layout, args.card)
    if args.position == ["-"]:
        todo = _lines(sys.stdin)
    else:
        todo = [("", " ".join(args.position))]
    bad = 0
    try:
        for where, text in todo:
            try:
                action = chooser.choose(text)
            except AttilaError as e:
                bad += 1
                sys.stderr.write("%s: %s%s\n" % (PROG, where + ": " if where else "", e))
                continue
            sys.stdout.write(action + "\n")
            sys.stdout.flush()
    finally:
        chooser.close()
    return 2 if bad else 0
