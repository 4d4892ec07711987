"""The CircuitPython port's save journal in microcontroller.nvm, cut at every flash operation.

FakeNvm writes as CircuitPython 10's RP2040 nvm does (common-hal/nvm/
ByteArray.c): a range that is all 0xFF is page-programmed (each 256-byte
page read, merged and programmed back), any other write erases the 4 KB
sector and programs all of it. A cut stops an operation part done, as the
emulated Pico's flash does: an erase has blanked its first part, a program
has ANDed its first part in. After any cut the journal must give back the
last save that completed (or, in the rare erase of a full sector, no game),
never an older one and never a torn one (the save under way counts once
its record is whole in the flash).
"""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PORT = os.path.join(ROOT, "firmware", "ports", "circuitpython")
if PORT not in sys.path:
    sys.path.insert(0, PORT)

from nvmsave import NvmStore  # noqa: E402

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
    assert store.compactions == 0
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
    texts = texts * 4
    clean = FakeNvm()
    store = play(clean, texts)
    assert store.compactions >= 1
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

