"""The CircuitPython port's save journal in microcontroller.nvm, cut at every flash operation.

FakeNvm writes as CircuitPython 10's RP2040 nvm does (common-hal/nvm/
ByteArray.c): a range that is all 0xFF is page-programmed (each 256-byte
page read, merged and programmed back), any other write erases the 4 KB
sector and programs all of it. A cut stops an operation part done, as the
emulated Pico's flash does: an erase has blanked its first part, a program
has ANDed its first part in. After any cut the journal must give back the
last save that completed (or, in an erase, no game), never an older one
and never a torn one (the save under way counts once its record is whole in
the flash). Whole games played through the keeper (attila.saves.keeper) count the
erases: only as a new game begins, never mid-game but as the last resort.
"""

import os
import random
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PORT = os.path.join(ROOT, "firmware", "ports", "circuitpython")
if PORT not in sys.path:
    sys.path.insert(0, PORT)

from attila.game.geometry import from_rows  # noqa: E402
from attila.saves.keeper import Keeper  # noqa: E402
from attila.game.rules import MOVE, OVER, SCORCH, SETUP, Game  # noqa: E402
import nvmsave  # noqa: E402
from nvmsave import TAKEBACKS, NvmStore, game_bytes  # noqa: E402

PAGE = 256
SIZE = 4096


class PowerCut(Exception):
    pass


class FakeNvm:
    """4 KB of flash written as CircuitPython writes microcontroller.nvm."""

    def __init__(self, data=None):
        self.flash = bytearray(data) if data is not None else bytearray(b"\xff" * SIZE)
        self.ops = []  # ("erase"|"program", start, length)
        self.cut = None  # (op number, fraction): the power goes then

    def __len__(self):
        return SIZE

    def __getitem__(self, k):
        return self.flash[k]

    def _op(self, kind, start, data):
        k = len(self.ops)
        self.ops.append((kind, start, len(data) if data is not None else SIZE))
        fraction = 1.0
        if self.cut is not None and self.cut[0] == k:
            fraction = self.cut[1]
        if kind == "erase":
            n = int(SIZE * fraction)
            self.flash[0:n] = b"\xff" * n
        else:
            n = int(len(data) * fraction)
            for i in range(n):
                self.flash[start + i] &= data[i]
        if fraction < 1.0:
            raise PowerCut()

    def __setitem__(self, key, values):
        start, stop = key.start or 0, key.stop
        values = bytes(values)
        assert stop - start == len(values)
        if all(b == 0xFF for b in self.flash[start:stop]):
            at = start
            while at < stop:
                page = at - at % PAGE
                buf = bytearray(self.flash[page:page + PAGE])
                n = min(stop - at, page + PAGE - at)
                buf[at - page:at - page + n] = values[at - start:at - start + n]
                self._op("program", page, buf)
                at += n
        else:
            buf = bytearray(self.flash)
            buf[start:stop] = values
            self._op("erase", 0, None)
            self._op("program", 0, buf)


HEADER = "attila-save 1\nrows ...../...../...../.....\nfirst R\ntiles 6\nlog"


def game_texts(actions=60, undo_every=7):
    """Save texts of a made-up game: an action adds to the log, some are taken back."""
    log = []
    texts = []
    for k in range(actions):
        if undo_every and k % undo_every == undo_every - 1 and log:
            log.pop()
        else:
            log.append("%s%d-%s%d" % ("abcde"[k % 5], k % 4 + 1, "abcde"[(k * 3) % 5], (k * 7) % 4 + 1))
        texts.append(HEADER + "".join(" " + a for a in log) + "\n")
    return texts


def play(nvm, texts):
    store = NvmStore(nvm)
    for t in texts:
        store.save(t)
    return store


def test_a_journal_replays_to_the_last_save_and_appends_without_erasing():
    nvm = FakeNvm()
    texts = game_texts()
    store = play(nvm, texts)
    assert NvmStore(nvm).load() == texts[-1]
    assert store.erases == 0
    assert {op[0] for op in nvm.ops} == {"program"}
    assert store.end < 2048  # a 60-action game uses under half the sector
    store.clear()
    assert NvmStore(nvm).load() is None
    assert {op[0] for op in nvm.ops} == {"program"}


@pytest.mark.parametrize("fraction", [0.0, 0.3, 0.999])
def test_a_cut_at_every_flash_operation_gives_back_the_last_completed_save(fraction):
    texts = game_texts(40)
    clean = FakeNvm()
    play(clean, texts)
    total = len(clean.ops)
    for cut in range(total):
        nvm = FakeNvm()
        nvm.cut = (cut, fraction)
        store = NvmStore(nvm)
        done = trying = None
        with pytest.raises(PowerCut):
            for t in texts:
                trying = t
                store.save(t)
                done = t
        again = FakeNvm(nvm.flash)
        after = NvmStore(again)
        # The save under way counts once its record is whole in the flash
        # (a cut late in a page program that had already passed it).
        assert after.load() in (done, trying), (cut, fraction)
        if fraction == 0.0:
            assert after.load() == done, (cut, fraction)
        # The board goes on from there: the next saves land and replay.
        for t in texts[:3]:
            after.save(t)
        assert NvmStore(FakeNvm(again.flash)).load() == texts[2], (cut, fraction)


def test_a_full_sector_is_sealed_then_erased_and_a_cut_there_gives_no_game_never_an_old_one():
    texts = game_texts(400, undo_every=0)[:60]  # long logs: the sector fills
    texts = texts * 6
    clean = FakeNvm()
    store = play(clean, texts)
    assert store.full >= 1
    assert NvmStore(FakeNvm(clean.flash)).load() == texts[-1]
    erases = [k for k, op in enumerate(clean.ops) if op[0] == "erase"]
    first = erases[0]
    for fraction in (0.0, 0.01, 0.5, 0.99):
        nvm = FakeNvm()
        nvm.cut = (first, fraction)
        store = NvmStore(nvm)
        with pytest.raises(PowerCut):
            for t in texts:
                store.save(t)
        assert NvmStore(FakeNvm(nvm.flash)).load() is None, fraction
    # A cut in the seal's own program, or in the program after the erase: no old game either.
    for k in (first - 1, first + 1):
        nvm = FakeNvm()
        nvm.cut = (k, 0.5)
        store = NvmStore(nvm)
        done = trying = None
        with pytest.raises(PowerCut):
            for t in texts:
                trying = t
                store.save(t)
                done = t
        assert NvmStore(FakeNvm(nvm.flash)).load() in (None, done, trying)



# -- Erases only when a new game begins: whole games played through the keeper ----

LAYOUTS = {
    "4x5": from_rows(["....."] * 4),
    "8x8": from_rows(["........"] * 8),
}


def squares(mask):
    return [k for k in range(mask.bit_length()) if mask >> k & 1]


def act(game, rnd):
    """One legal action chosen by `rnd`; False when the game is over."""
    if game.phase == SETUP:
        game.place(rnd.choice(squares(game.placements())))
    elif game.phase == MOVE:
        start = rnd.choice(squares(game.movable()))
        game.move(start, rnd.choice(squares(game.destinations(start))))
    elif game.phase == SCORCH:
        game.scorch(rnd.choice(squares(game.scorchable())))
    else:
        return False
    return True


class KeptBoard:
    """A board's keeper over one nvm, each erase noted with the game's state then."""

    def __init__(self, nvm, layout):
        self.nvm = nvm
        self.layout = layout
        self.store = NvmStore(nvm, game_bytes(layout))
        self.keeper = Keeper(self.store)
        game, error = self.keeper.load(layout)
        assert error == ""
        self.game = game or Game(layout)
        self.mid_game = []  # erases while a game held actions

    def keep(self):
        before = sum(1 for op in self.nvm.ops if op[0] == "erase")
        held = bool(self.store.text)
        assert self.keeper.keep(self.game) == ""
        if sum(1 for op in self.nvm.ops if op[0] == "erase") > before and self.game.history:
            self.mid_game.append((held, len(self.game.history)))

    def play(self, rnd, takebacks=0):
        """A whole game; `takebacks` of its actions taken back and played again."""
        undo_at = set(rnd.sample(range(1, 30), takebacks)) if takebacks <= 29 else None
        k = 0
        while act(self.game, rnd):
            self.keep()
            k += 1
            if undo_at is None or k in undo_at:
                self.game.undo()
                self.keep()
                act(self.game, rnd)
                self.keep()
        assert self.game.phase == OVER

    def new_game(self):
        self.game = Game(self.layout)
        self.keep()


def erases(nvm):
    return sum(1 for op in nvm.ops if op[0] == "erase")


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_games_in_a_row_erase_only_as_a_new_game_begins(name):
    rnd = random.Random(16)
    nvm = FakeNvm()
    board = KeptBoard(nvm, LAYOUTS[name])
    games = 40
    for n in range(games):
        board.play(rnd, takebacks=n % (TAKEBACKS + 1))
        assert NvmStore(FakeNvm(nvm.flash)).load() == board.store.text.decode()
        board.new_game()
        assert NvmStore(FakeNvm(nvm.flash)).load() is None
    assert board.mid_game == [] and board.store.full == 0
    # The sector is used again and again: on 4x5 about every 4 games, on
    # 8x8 (a longest game of 123 actions) at each new game.
    assert games // 6 <= erases(nvm) <= games, erases(nvm)
    if name == "4x5":
        assert erases(nvm) <= games // 3, erases(nvm)


def test_a_full_game_fits_and_the_room_kept_for_one_is_what_its_layout_needs():
    # 4x5: a base record of the first placement (80 bytes), 34 more actions and
    # 32 records of take-backs (16 bytes each), the cleared record.
    assert game_bytes(LAYOUTS["4x5"]) == 80 + (34 + 2 * TAKEBACKS) * 16 + 16
    assert game_bytes(LAYOUTS["8x8"]) < 4080
    # A 26-rank board's moves take 32 bytes: its longest game needs more than the sector.
    tall = from_rows(["." * 3] * 21)
    assert game_bytes(tall) > 4080


def test_a_power_up_with_no_game_and_too_little_room_erases_then_not_again():
    nvm = FakeNvm()
    store = NvmStore(nvm, game_bytes(LAYOUTS["4x5"]))
    texts = game_texts(60, undo_every=0)
    for t in texts[:40] * 3:
        store.save(t)
    store.clear()  # room was left for a whole game: a cleared record
    assert erases(nvm) == 0
    # A board flashed with a bigger layout: this game needs more room.
    big = game_bytes(LAYOUTS["8x8"])
    again = NvmStore(nvm, big)
    assert again.room - again.end < big
    assert again.load() is None and erases(nvm) == 1
    assert NvmStore(nvm, big).load() is None and erases(nvm) == 1


def test_endless_take_backs_fill_the_sector_mid_game_as_a_last_resort():
    rnd = random.Random(3)
    nvm = FakeNvm()
    board = KeptBoard(nvm, LAYOUTS["4x5"])
    # A game has room for 16 take-backs; this one takes 150 (300 records).
    for _ in range(8):
        act(board.game, rnd)
        board.keep()
    for _ in range(150):
        board.game.undo()
        board.keep()
        act(board.game, rnd)
        board.keep()
    assert board.store.full == 1 and len(board.mid_game) == 1
    assert NvmStore(FakeNvm(nvm.flash)).load() == board.store.text.decode()
    board.play(rnd)
    assert NvmStore(FakeNvm(nvm.flash)).load() == board.store.text.decode()


@pytest.mark.parametrize("fraction", [0.0, 0.01, 0.5, 0.99])
def test_a_cut_in_the_erase_of_a_new_game_comes_back_in_a_new_game_and_says_so(fraction):
    rnd = random.Random(7)
    clean = FakeNvm()
    board = KeptBoard(clean, LAYOUTS["4x5"])
    for _ in range(8):
        board.play(rnd)
        board.new_game()
    first = next(k for k, op in enumerate(clean.ops) if op[0] == "erase")
    assert clean.ops[first - 1][0] == "program" and clean.ops[first - 1][1] == 0xF00  # the seal
    # The same games again, cut in that erase.
    rnd = random.Random(7)
    nvm = FakeNvm()
    nvm.cut = (first, fraction)
    board = KeptBoard(nvm, LAYOUTS["4x5"])
    with pytest.raises(PowerCut):
        for _ in range(8):
            board.play(rnd)
            board.new_game()
    assert board.game.history == []  # it was the new game's erase
    after = KeptBoard(FakeNvm(nvm.flash), LAYOUTS["4x5"])
    assert after.store.text is None and after.keeper.load(LAYOUTS["4x5"]) == (None, "")
    assert after.store.found.startswith("the power went while the save sector was erased "
                                        "for a new game")
    # The board erased the sector at power-up (a new game, no game held): the
    # next power-up says nothing, and the new game's actions are kept.
    assert erases(after.nvm) == 1 and after.store.end == 0
    act(after.game, rnd)
    after.keep()
    again = NvmStore(FakeNvm(after.nvm.flash), game_bytes(LAYOUTS["4x5"]))
    assert again.found == "" and again.load() == after.store.text.decode()


def test_a_cut_in_a_mid_game_erase_says_the_game_is_lost():
    texts = game_texts(400, undo_every=0)[:60] * 6
    clean = FakeNvm()
    play(clean, texts)
    first = next(k for k, op in enumerate(clean.ops) if op[0] == "erase")
    nvm = FakeNvm()
    nvm.cut = (first, 0.5)
    with pytest.raises(PowerCut):
        play(nvm, texts)
    after = NvmStore(FakeNvm(nvm.flash))
    assert after.load() is None
    assert after.found == ("the power went while the full save sector was erased mid-game: "
                           "that game is lost, a new game starts")


def test_a_change_an_action_record_cannot_say_is_saved_whole():
    # An action record drops at most 255 bytes and adds a tail under 255: a
    # take-back of a long stretch of the log is saved as a base instead.
    long = game_texts(120, undo_every=0)[-1]
    short = game_texts(3, undo_every=0)[-1]
    assert len(long) - len(short) >= 256 and long.startswith(short[:-1])
    nvm = FakeNvm()
    store = play(nvm, [long])
    at = store.end
    store.save(short)
    assert nvm.flash[at + 1] == ord("B")
    assert NvmStore(FakeNvm(nvm.flash)).load() == short
