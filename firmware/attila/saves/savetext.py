"""The save text: how a game and the changes since it are written down.

Why it is built this way: docs/pages/inside/design.md (attila/saves/savetext.py).
"""

from attila.compat import const
from attila.errors import AttilaError
from attila.game.geometry import MAX_SIDE, MAX_SQUARES, from_rows
from attila.game.notation import log, replay
from attila.game.rules import SIDES, Game

VERSION = "attila-save 1"
# The largest save (64 squares on a 26x26 grid, every action logged) is
# under 2 KB; anything longer is not ours, and is never read whole.
MAX_BYTES = const(4096)
# Journal lines between two whole saves at most (each under 32 bytes: the
# journal stays small enough for littlefs to keep inline).
MAX_NOTES = const(16)
UNDONE = "u"  # a journal OP: the last action taken back
# A journal OP's first letter: a new game, every action forgotten ("nR14":
# the Romans first, a supply of 14 tiles).
NEW = "n"


class Storage:
    """Where attila.saves.keeper keeps a game, with no-op defaults for a store that
    has no journal, no journal folder or no archive (attila.saves.store's
    MemoryStore, the CircuitPython port's NvmStore):

        load() -> text or None, save(text), clear(), reject() -> where it went
        journal, based, notes   note() appends journal lines (True), after a
                                whole save on file (based); `notes` so far
        note(ops) -> bool       the ops appended (False: a whole save instead)
        folders, room(), renew()  the journal's folder: lines it has room
                                for, made anew (True when it was)
        archives, archive(text) a finished game kept apart
    """

    journal = False
    based = False
    notes = 0
    folders = False
    archives = False

    def note(self, ops):
        return False

    def room(self):
        return 0

    def renew(self):
        return False

    def archive(self, text):
        pass


def checksum(text):
    """Adler-32 of the text (its characters as bytes below 256)."""
    a = 1
    b = 0
    for ch in text:
        a = (a + (ord(ch) & 0xFF)) % 65521
        b = (b + a) % 65521
    return b << 16 | a


def dump(game):
    """The save text of a game (without the checksum line Store adds)."""
    return "%s\nrows %s\nfirst %s\ntiles %d\nlog %s\n" % (
        VERSION,
        "/".join(game.layout.rows()),
        SIDES[game.first],
        game.supply,
        log(game),
    )


def unpack(data):
    """The save text held in a file's bytes; AttilaError says why it is not a whole save.

    The text is everything before the last line, "end <checksum of it>".
    """
    if len(data) > MAX_BYTES:
        raise AttilaError("save: longer than %d bytes" % MAX_BYTES)
    for k in range(len(data)):
        b = data[k]
        if (b < 32 or b > 126) and b != 10:
            raise AttilaError("save: byte %d is %d, not plain text" % (k + 1, b))
    text = data.decode()
    body, sep, tail = text[:-1].rpartition("\n")
    if not sep or not text.endswith("\n") or not tail.startswith("end "):
        raise AttilaError("save: no checksum line at the end (cut short?)")
    digits = tail[4:]
    body += "\n"
    if not digits.isdigit() or len(digits) > 10 or int(digits) != checksum(body):
        raise AttilaError("save: the checksum does not match")
    return body


def _number(fields, key, top):
    text = fields[key]
    if not text.isdigit() or len(text) > 4 or int(text) > top:
        raise AttilaError("save: %s must be a whole number 0..%d, not %r" % (key, top, text))
    return int(text)


def restore(text, layout=None):
    """The Game a save text describes; AttilaError says what is wrong.

    With `layout`, the save must be for that layout (a board that was laid
    out differently since cannot take the game back). Every number is
    bounded by what the layout allows, so no save can make the board build
    more than a layout's worth of anything.
    """
    fields = {}
    lines = text.split("\n")
    if not lines or lines[0] != VERSION:
        raise AttilaError("save: first line must be %r" % VERSION)
    for line in lines[1:]:
        if line:
            key, _, value = line.partition(" ")
            fields[key] = value
    for key in ("rows", "first", "tiles", "log"):
        if key not in fields:
            raise AttilaError("save: no %r line" % key)
    rows = fields["rows"].split("/")
    if len(rows) > MAX_SIDE or fields["rows"].count(".") > MAX_SQUARES:
        raise AttilaError("save: rows: more than %d ranks or %d squares" % (MAX_SIDE, MAX_SQUARES))
    for row in rows:
        if len(row) > MAX_SIDE or row.strip(".-"):
            raise AttilaError("save: rows: %r is not a row of '.' and '-'" % row[:MAX_SIDE + 1])
    saved = from_rows(rows)
    if layout is None:
        layout = saved
    elif saved != layout:
        raise AttilaError(
            "save: it is for the layout %s, the board is %s"
            % (fields["rows"], "/".join(layout.rows()))
        )
    first = fields["first"]
    if first not in ("R", "H"):
        raise AttilaError("save: first must be R or H, not %r" % first)
    tiles = _number(fields, "tiles", layout.size)
    game = Game(layout, SIDES.index(first), tiles)
    replay(game, fields["log"])
    return game


def generation(text):
    """(the "gen" number of a save text (0 when it has none), the text without
    that line)."""
    at = text.find("\ngen ")
    if at < 0:
        return 0, text
    end = text.find("\n", at + 5)
    digits = text[at + 5:end]
    gen = int(digits) if digits.isdigit() and len(digits) < 10 else 0
    return gen, text[:at] + text[end:]


def redo(game, op):
    """Carry out one journal OP again: an action ('@b1', 'b1-c3', ',d4') or UNDONE."""
    if op == UNDONE:
        if game.undo() < 0:
            raise AttilaError("save: journal: nothing to take back")
        return
    index = game.layout.index
    if op[0] == "@":
        game.place(index(op[1:]))
    elif op[0] == ",":
        game.scorch(index(op[1:]))
    else:
        a, _, b = op.partition("-")
        game.move(index(a), index(b))


def new_game(layout, op):
    """The empty Game a NEW journal OP starts ('nR14'); AttilaError if it is not one."""
    side = op[1:2]
    tiles = op[2:]
    if op[:1] != NEW or side not in ("R", "H") or not tiles.isdigit() or len(tiles) > 4 \
            or int(tiles) > layout.size:
        raise AttilaError("save: journal: %r is not a new game" % op[:12])
    return Game(layout, SIDES.index(side), int(tiles))


def journal_ops(data, gen):
    """(the OPs of generation `gen` in a journal's bytes, in order, up to the
    first line that is torn, damaged or not ours; True when that was every line)."""
    ops = []  # type: list
    lines = data.split(b"\n")
    whole = not lines[-1]  # (a last line without its newline is torn)
    for raw in lines[:-1]:
        if not raw or len(raw) > 40 or max(raw) > 126 or min(raw) < 32:
            return ops, False
        head, _, check = raw.decode().rpartition(" ")
        if not check.isdigit() or len(check) > 10 or int(check) != checksum(head):
            return ops, False
        g, _, op = head.partition(" ")
        if g == str(gen):
            ops.append(op)
        else:
            whole = False  # a line of an older save: the journal was not emptied
    return ops, whole


def fold(text, ops):
    """The save text of `text` with the journal's `ops` carried out (as many as
    apply: a line that does not is the end of the journal); (text, ops used)."""
    if not ops:
        return text, 0
    try:
        game = restore(text)
    except Exception:
        return text, 0  # refused by the Keeper later, journal and all
    n = 0
    for op in ops:
        try:
            if op[:1] == NEW:
                game = new_game(game.layout, op)
            else:
                redo(game, op)
        except Exception:
            break
        n += 1
    if not n:
        return text, 0
    return dump(game), n


def current(save, journal=b""):
    """The save text of a save file's bytes with its journal's bytes carried
    out (host use: a board's files fetched); AttilaError if not a whole save."""
    gen, text = generation(unpack(save))
    return fold(text, journal_ops(journal, gen)[0])[0]
