"""Building a board: the one assembly of every port and the simulator.

Why it is built this way: docs/pages/inside/design.md (attila/assembly.py).
"""

from attila.board import Board
from attila.game.rules import ROMANS
from attila.opponent.levels import BUDGET_MS, STRONG

PROFILE = "profile.json"  # the board's hardware (attila.profile)
LAYOUT = "layout.json"  # its modules (attila.game.layoutfile)
BOOK = "layout.book"  # the layout's setup book (attila flash copies it)
OPENING = "layout.opening"  # its opening table: the first turn of play (attila flash copies it)


def exists(path):
    """True when the file `path` is there (the maintenance marker)."""
    try:
        open(path).close()
        return True
    except OSError:
        return False


def open_book(path, layout):
    """(the layout's setup book, "") or (None, the one console line that says
    why setup is searched). Never raises: a missing or damaged book must not
    stop the board. The file stays open; a lookup reads a few records."""
    if not exists(path):
        return None, "no setup book (%s): the board searches its placements" % path
    try:
        from attila.opponent import book

        return book.open(path, layout), ""
    except Exception as e:  # BookError, OSError, MemoryError: the search plays on
        return None, "setup book not used (%s): the board searches its placements" % e


def open_opening(path, layout):
    """(the layout's opening table, the console line that says so) or (None,
    the line that says why the first turn is searched; "" when there is no
    table: most layouts have none). Never raises, as open_book. The file
    stays open; a lookup reads one block."""
    if not exists(path):
        return None, ""
    f = None
    try:
        from attila.opponent.opening import Opening

        f = open(path, "rb")
        return Opening(f, layout, path), "opening table: the game's first turn of play is exact"
    except Exception as e:  # CardError, OSError, MemoryError: the search plays on
        if f is not None:
            f.close()
        return None, "opening table not used (%s): the game's first turn of play is searched" % (e,)


def open_card(hardware, prof, layout, feed=None):
    """(the layout's solved game on the profile's microSD card, the console
    line that says so) or (None, the line that says why not; "" when the
    profile names no card). Never raises: without the card the board
    searches. The card is read straight, a block at a time (attila.opponent.fat).
    feed: the watchdog's, called while the card starts (seconds on some)."""
    if not prof.sdcard:
        return None, ""
    try:
        from attila.opponent.card import FILE, Card
        from attila.opponent.fat import first_block

        dev = hardware.sdcard(prof) if feed is None else hardware.sdcard(prof, feed)
        card = Card(dev, layout, first_block(dev, FILE), FILE)
        return card, "card: the solved game of %s (%d blocks): the board plays it" % (
            card.title, card.blocks)
    except Exception as e:  # OSError (no card), CardError, MemoryError: the search plays on
        return None, "card not used (%s): the board searches" % (e,)


def build_controller(layout, store=None, tiles=None, computer=-1, level=STRONG,
                     budget_ms=BUDGET_MS, book=None, card=None, coach=False, first=ROMANS,
                     port="micropython", slice_nodes=None, party=None):
    """The Controller of a board: its opponent (attila.opponent.planner's Planner at
    `level`, paced for the profile's `port`: attila.opponent.levels.pace;
    slice_nodes: its nodes per loop step where not its kernel's) plays the
    side `computer` and answers hints from the setup `book` and the `card`
    (the solved game or the opening table, or None); with the solved game
    the coach judges the player's turns (on at first when `coach`; MENU
    switches it between games). Online (`party`, an attila.online.party.Party),
    the other board plays the other side: the planner only answers hints."""
    from attila.play.controller import Controller
    from attila.opponent.planner import chooser

    judge = None
    if card is not None and card.whole:  # not the opening table
        from attila.play.coach import Coach

        judge = Coach(card, coach)
    opponent = chooser(level, budget_ms, book, card, port)
    if slice_nodes is not None:
        opponent.slice_nodes = slice_nodes
    if party is None:
        return Controller(layout, store, first, tiles, computer, opponent, judge)
    from attila.online.remote import Remote

    c = Controller(layout, store, first, tiles, party.other, Remote(party, opponent), judge)
    party.attach(c)
    return c


def controller_for(prof, layout, tiles=None, store=None, book=None, card=None, party=None):
    """The Controller a profile asks for (its side, level, time, coach and port's
    pace; online, `party`'s: the other board plays the other side)."""
    return build_controller(layout, store, tiles, prof.computer, prof.level, prof.budget_ms, book,
                            card, prof.coach, port=prof.port, party=party)


def open_tables(hardware, prof, layout, book=BOOK, opening=OPENING, feed=None):
    """What the board decides from besides its search, opened the same on
    every port: (setup book, card, lines). The card is the solved game on
    the profile's microSD card, else the layout's opening table (from the
    board's own files; the card covers every turn), else None. lines: the
    console lines of what was opened or why not ("" for nothing to say), in
    order: the book's, the card's, the opening table's; and whether the
    card's must be shown as trouble (the profile names a card the board
    cannot read: the player must know). Never raises."""
    book, book_line = open_book(book, layout)  # kept open: read a record at a time
    card, card_line = open_card(hardware, prof, layout, feed)
    lost = card is None and card_line != ""
    opening_line = ""
    if card is None:
        card, opening_line = open_opening(opening, layout)
    return book, card, (book_line, card_line, opening_line, lost)


def assemble(prof, layout, modules, hardware, controller, buttons=None, order=None,
             console=None):
    """The Board of a profile and a layout on a port's `hardware` bindings.

    hardware gives scanner(prof, wiring), strip(prof, count), buttons(prof)
    and buzzer(prof) (a tone(hz, duty_u16) function, asked for only when the
    profile turns the sound on); `buttons` is the reader when the port made
    it already, `order` the colour order of the port's strip buffer if not
    the profile's, `console` prints the status line.
    """
    wiring = prof.wiring(layout, modules)
    sounds = None
    if prof.sound:
        from attila.sound import Sounds

        sounds = Sounds(hardware.buzzer(prof), prof.sound)
    return Board(
        controller,
        hardware.scanner(prof, wiring),
        hardware.strip(prof, wiring.led_count),
        wiring,
        prof.debouncer(layout.size),
        buttons if buttons is not None else hardware.buttons(prof),
        prof.leds(wiring, order),
        prof.button_debounce_ms,
        sounds=sounds,
        console=console,
    )
