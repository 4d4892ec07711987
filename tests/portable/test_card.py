"""The card's reader (attila.card) and the opponent that plays from it, on MicroPython too.

card_9.tbl is `attila card` of the 9-square layout NINE; card_9.txt holds
400 of its positions with their values (both made and checked against the
retrograde tables on the host by tests/tools/solve/test_card.py).
"""

import check
from attila.card import BLOCK, Card, CardError
from attila.geometry import from_rows
from attila.rules import MOVE, Game

try:
    _ROOT = "/".join(__file__.replace("\\", "/").split("/")[:-3])
except NameError:  # pragma: no cover - a MicroPython build without __file__
    _ROOT = ""
_ROOT = _ROOT + "/" if _ROOT else ""

NINE = from_rows(["....", "...-", "..--"])
NINE.name = "nine"
CARD = _ROOT + "tests/portable/card_9.tbl"
ANSWERS = _ROOT + "tests/portable/card_9.txt"


def answers():
    out = []
    with open(ANSWERS) as f:
        for line in f:
            if not line.startswith("#"):
                out.append([int(w) for w in line.split()])
    return out


class Disk:
    """A block device over bytes, the file from block `start` on (an SD card's readblocks)."""

    def __init__(self, data, start=0):
        self.data = data
        self.start = start

    def readblocks(self, n, buf):
        n -= self.start
        buf[:] = self.data[n * BLOCK:(n + 1) * BLOCK]


def whole():
    with open(CARD, "rb") as f:
        return f.read()


def test_the_card_gives_the_tables_values():
    with open(CARD, "rb") as f:
        card = Card(f, NINE)
        assert card.title == "nine" and card.blocks == 27
        for mover, other, scorched, won in answers():
            assert card.won(mover, other, scorched) == won, (mover, other, scorched)


def test_a_block_device_serves_as_well_as_a_file():
    card = Card(Disk(whole(), 5), NINE, start=5)
    for mover, other, scorched, won in answers():
        assert card.won(mover, other, scorched) == won


def test_lookups_allocate_nothing():
    import gc

    if not hasattr(gc, "mem_alloc"):
        return  # CPython: nothing to measure
    todo = answers()
    with open(CARD, "rb") as f:
        card = Card(f, NINE)
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        for mover, other, scorched, won in todo:
            card.won(mover, other, scorched)
        used = gc.mem_alloc() - before
        gc.enable()
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
    assert check.raises(CardError, Card, Disk(whole()), other) == (
        "attila.tbl: the tables are for another layout (nine, 9 squares)")
    assert check.raises(CardError, Card, _Short(whole()[:-BLOCK]), NINE) == (
        "attila.tbl: cut short at block 27")
    assert check.raises(CardError, Card, Disk(bytes(BLOCK * 3)), NINE) == (
        "attila.tbl: block 0 is damaged or out of place")


class _Short:
    """A file cut short (seek, readinto)."""

    def __init__(self, data):
        self.data = data
        self.at = 0

    def seek(self, at):
        self.at = at

    def readinto(self, buf):
        got = self.data[self.at:self.at + len(buf)]
        buf[:len(got)] = got
        return len(got)


def _game(mover, other, scorched):
    game = Game(NINE)
    game.knights = [mover, other]
    game.scorched = scorched
    game._settle(MOVE)
    return game


def test_the_opponent_plays_a_winning_turn_and_holds_out_when_lost():
    from attila import opponent

    card = Card(Disk(whole()), NINE)
    won = lost = 0
    p = opponent.Planner(opponent.STRONG, 2000, card=card)
    p.node_budget = 64
    for mover, other, scorched, value in answers():
        game = _game(mover, other, scorched)
        if game.phase != MOVE:
            continue
        text = p.decide(game, lambda: 0)
        if value:
            won += 1
            assert p.nodes == 0, text  # from the card, no search
            a, rest = text.split("-")
            b, c = rest.split(",")
            game.move(NINE.index(a), NINE.index(b))
            game.scorch(NINE.index(c))
            assert game.phase != MOVE or not card.won(game.knights[game.side],
                                                       game.knights[game.side ^ 1],
                                                       game.scorched), text
        else:
            lost += 1
            assert text  # the search's
    assert won > 20 and lost > 20, (won, lost)


def test_a_failing_card_is_dropped_with_a_note_and_the_search_plays_on():
    from attila import opponent

    data = bytearray(whole())
    for k in range(2, 27):
        data[k * BLOCK] ^= 1  # every block but the head, the first and the last
    data = bytes(data)
    dropped = 0
    p = opponent.Planner(opponent.STRONG, 2000)
    p.node_budget = 64
    disk = Disk(data)
    for mover, other, scorched, value in answers():
        game = _game(mover, other, scorched)
        if game.phase != MOVE or not value:
            continue
        p.card = Card(disk, NINE)
        assert p.decide(game, lambda: 0)  # from the card or from the search
        if p.card is None:
            dropped += 1
            assert p.note.startswith("card not used (attila.tbl: block "), p.note
            assert p.note.endswith(" is damaged or out of place): the board searches"), p.note
            assert p.nodes > 0
    assert dropped > 10, dropped
