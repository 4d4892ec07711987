"""The card's reader (attila.opponent.card) and the opponent that plays from it, on MicroPython too.

card_9.tbl is `attila card` of the 9-square layout NINE; card_9.txt holds
400 of its positions with their values (both made and checked against the
retrograde tables on the host by tests/tools/solve/test_card_cmd.py).
"""

import check
from attila.opponent.card import BLOCK, Card, CardError
from attila.game.geometry import from_rows
from attila.game.rules import MOVE, Game

try:
    _ROOT = "/".join(__file__.replace("\\", "/").split("/")[:-3])
except NameError:  # pragma: no cover - a MicroPython build without __file__
    _ROOT = ""
_ROOT = _ROOT + "/" if _ROOT else ""

NINE = from_rows(["....", "...-", "..--"])
NINE.name = "nine"
CARD = _ROOT + "tests/portable/card_9.tbl"
ANSWERS = _ROOT + "tests/portable/card_9.txt"


_ANSWERS = []


def read_answers(path, into):
    """(mover, other, scorched, won) of each line of `path` into the list `into`
    (read once); `into`."""
    if not into:
        with open(path) as f:
            for line in f:
                if not line.startswith("#"):
                    w = line.split()
                    into.append((int(w[0]), int(w[1]), int(w[2]), int(w[3])))
    return into


def answers():
    """(mover, other, scorched, won) of card_9.txt (read once)."""
    return read_answers(ANSWERS, _ANSWERS)


class Disk:
    """A block device (an SD card's readblocks): the card file from block `start`
    on, or `data` (bytes) instead of it."""

    def __init__(self, data=None, start=0):
        self.data = data
        self.start = start
        self.f = open(CARD, "rb") if data is None else None

    def readblocks(self, n, buf):
        n -= self.start
        if self.f is not None:
            self.f.seek(n * BLOCK)
            self.f.readinto(buf)
        else:
            buf[:] = self.data[n * BLOCK:(n + 1) * BLOCK]


_WHOLE = []


def whole():
    """The card file's bytes (read once: the unix port's heap is 512 KB)."""
    if not _WHOLE:
        with open(CARD, "rb") as f:
            _WHOLE.append(f.read())
    return _WHOLE[0]


def test_the_card_gives_the_tables_values():
    with open(CARD, "rb") as f:
        card = Card(f, NINE)
        assert card.title == "nine" and card.blocks == 27
        for mover, other, scorched, won in answers():
            assert card.won(mover, other, scorched) == won, (mover, other, scorched)


def test_a_block_device_serves_as_well_as_a_file():
    card = Card(Disk(None, 5), NINE, start=5)
    for mover, other, scorched, won in answers():
        assert card.won(mover, other, scorched) == won


def closed(f):
    """True when the file `f` is closed (reading it fails)."""
    try:
        f.read(1)
    except (OSError, ValueError):  # (MicroPython: EBADF; CPython: a closed file)
        return True
    return False


def test_close_closes_the_card_file_and_leaves_a_block_device_alone():
    f = open(CARD, "rb")
    card = Card(f, NINE)
    assert not closed(f)
    card.close()
    assert closed(f)
    Card(Disk(whole()), NINE).close()  # (a block device has no close())


def allocated(card, todo):
    """Bytes the heap grows by while `card` answers each (mover, other,
    scorched, won) of `todo`; 0 on CPython (nothing to measure)."""
    import gc

    if not hasattr(gc, "mem_alloc"):
        return 0
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for mover, other, scorched, won in todo:
        card.won(mover, other, scorched)
    used = gc.mem_alloc() - before
    gc.enable()
    return used


def test_lookups_allocate_nothing():
    todo = answers()
    with open(CARD, "rb") as f:
        used = allocated(Card(f, NINE), todo)
    assert used < 64, used


def test_damaged_foreign_and_missing_cards_say_why():
    data = bytearray(whole())
    data[5 * BLOCK + 7] ^= 1
    card = Card(Disk(bytes(data)), NINE)
    seen = ""
    try:
        for mover, other, scorched, _won in answers():
            card.won(mover, other, scorched)
    except CardError as e:
        seen = str(e)
    assert seen == "attila.tbl: block 5 is damaged or out of place", seen
    other = from_rows(["...", "...", "..."])
    assert check.raises(CardError, Card, Disk(), other) == (
        "attila.tbl: the tables are for another layout (nine, 9 squares)")
    assert check.raises(CardError, Card, _Short(whole(), len(whole()) - BLOCK), NINE) == (
        "attila.tbl: cut short at block 27")
    assert check.raises(CardError, Card, Disk(bytes(BLOCK * 3)), NINE) == (
        "attila.tbl: block 0 is damaged or out of place")


class _Short:
    """A file cut short (seek, readinto): data's first `size` bytes (read
    through a memoryview: the unix port's small heap takes no second copy)."""

    def __init__(self, data, size):
        self.data = memoryview(data)[:size]
        self.at = 0

    def seek(self, at):
        self.at = at

    def readinto(self, buf):
        got = self.data[self.at:self.at + len(buf)]
        buf[:len(got)] = got
        return len(got)


