"""A full flash loses nothing: a save that does not fit leaves the last one
whole (never a save cut short, which load() would put aside), no PATH.tmp
is left behind, and the next save that fits goes through. On MicroPython's
own littlefs in RAM, set up like rp2's (4 KB blocks, 256-byte programs;
MicroPython's unix port: vfs.VfsLfs2), and on FakeFs's model of it and of
FAT (every interpreter)."""

import check
from attila.game.geometry import from_rows
from attila.game.rules import ROMANS, Game
from attila.saves.savetext import checksum, dump
from attila.saves.store import Store
from fakefs import ENOSPC, FakeFs
from playout import play_lowest
from test_savetext import GAME, game

_BLOCK = 4096  # rp2's flash sector: littlefs's block
_BLOCKS = 16  # 64 KB of flash
_ROOT = "/attila-flash"
_KEPT = []  # the RAM flash and a block of filling, made once (the unix port's heap: 512 KB)


def _long_game(n):
    """A whole game on an n x n board, the lowest choice every time (8 x 8:
    a 640-byte save, more than littlefs keeps inline: it takes a block)."""
    return play_lowest(Game(from_rows(["." * n] * n), ROMANS, n * n))


class _RamFlash:
    """A block device in RAM, with MicroPython's extended block protocol."""

    def __init__(self):
        self.data = bytearray(_BLOCK * _BLOCKS)
        self.view = memoryview(self.data)

    def readblocks(self, n, buf, offset=0):
        at = n * _BLOCK + offset
        buf[:] = self.view[at:at + len(buf)]

    def writeblocks(self, n, buf, offset=0):
        at = n * _BLOCK + offset
        self.view[at:at + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return _BLOCKS
        if op == 5:  # block size
            return _BLOCK
        return 0  # init, deinit, sync, erase (littlefs never reads an erased block)


def _littlefs():
    """MicroPython's littlefs on a fresh RAM flash, mounted at _ROOT; (vfs, os)."""
    import os

    try:
        import vfs
    except ImportError:
        vfs = os
    lfs = getattr(vfs, "VfsLfs2", None)
    if lfs is None or not hasattr(vfs, "mount"):
        check.skip("no littlefs here (MicroPython's vfs.VfsLfs2: the unix port)")
    if not _KEPT:
        _KEPT.append(_RamFlash())
        _KEPT.append(b"x" * _BLOCK)
    flash = _KEPT[0]
    lfs.mkfs(flash, progsize=256)
    vfs.mount(lfs(flash, progsize=256), _ROOT)
    return vfs, os


def _fill(os):
    """Files of a block each until the flash is full; their names."""
    block = _KEPT[1]
    names = []
    while True:
        name = "%s/fill%d" % (_ROOT, len(names))
        try:
            f = open(name, "wb")
        except OSError:
            return names
        names.append(name)
        try:
            f.write(block)
        except OSError:
            return names
        finally:
            f.close()


def _errno(fn, *args):
    """The errno of the OSError fn(*args) raises."""
    try:
        fn(*args)
    except OSError as e:
        return e.args[0]
    assert False, "no OSError"


def test_on_a_full_littlefs_a_save_in_place_that_does_not_fit_keeps_the_last_one():
    vfs, os = _littlefs()
    try:
        path = _ROOT + "/game.txt"
        store = Store(path, journal=True, in_place=True)
        assert store.load() is None
        old = dump(game(GAME))
        new = dump(_long_game(8))
        assert len(new) > 512  # (not inline: its contents need a block of their own)
        store.save(old)  # (the first save is made through PATH.tmp)
        filled = _fill(os)
        assert _errno(store.save, new) == ENOSPC  # in place: over game.txt
        back = Store(path, journal=True, in_place=True)
        assert back.load() == old and back.aside is None
        assert sorted(os.listdir(_ROOT)) == sorted(["game.txt", "journal"] +
                                                   [n[len(_ROOT) + 1:] for n in filled])
        os.remove(filled[0])  # room again: the next save goes through
        store.save(new)
        assert Store(path, journal=True, in_place=True).load() == new
    finally:
        vfs.umount(_ROOT)


def test_on_a_full_littlefs_a_save_or_archive_through_a_tmp_file_leaves_none():
    vfs, os = _littlefs()
    try:
        path = _ROOT + "/game.txt"
        store = Store(path, games=_ROOT + "/games")
        old = dump(game(GAME))
        new = dump(_long_game(8))
        store.save(old)
        store.archive(old)  # (the games folder made)
        _fill(os)
        assert _errno(store.save, new) == ENOSPC
        assert "game.txt.tmp" not in os.listdir(_ROOT)
        # The archive gives way to the saves: the oldest game goes (here in
        # vain) and the new one is not written (attila.saves.archive).
        assert _errno(store.archive, new) == ENOSPC
        assert os.listdir(_ROOT + "/games") == []
        assert Store(path).load() == old
    finally:
        vfs.umount(_ROOT)


def _every_action_kept(path, fs, fill):
    """A long game kept action by action (the squares settling every 4th),
    `fill` called once its save needs a block of its own (over 540 bytes):
    every action keep() took (journal lines once whole saves fail, until
    the journal is full) comes back at power-up."""
    from attila.saves.keeper import Keeper
    from attila.saves.savetext import MAX_NOTES, redo

    whole = _long_game(8)
    keeper = Keeper(Store(path, fs, journal=True, in_place=True))
    assert keeper.load(whole.layout) == (None, "")
    g = Game(whole.layout, ROMANS, 64)
    full = -1  # the action the flash was full before
    kept = []  # the game after each action keep() took
    errors = []
    for k, entry in enumerate(whole.history):
        redo(g, whole.describe(entry))
        if full < 0 and len(dump(g)) > 540:
            fill()
            full = k
        error = keeper.keep(g)
        if error:
            errors.append(error)
        else:
            kept.append(dump(g))
        if k % 4 == 3:  # the squares settle: a whole save is due now and then
            for _ in range(3):
                if keeper.settle(g) or not keeper.busy:
                    break
    # Actions were kept in the journal once whole saves failed, until it was full.
    assert full > 0 and len(kept) > full + 1 and keeper.store.notes == MAX_NOTES
    full_errors = ["flash full: cannot save the game"] * (len(whole.history) - len(kept))
    assert errors == full_errors, errors
    assert Store(path, fs, journal=True, in_place=True).load() == kept[-1]


def test_on_a_full_littlefs_every_action_kept_comes_back():
    vfs, os = _littlefs()
    try:
        _every_action_kept(_ROOT + "/game.txt", None, lambda: _fill(os))
    finally:
        vfs.umount(_ROOT)


def test_on_a_full_flash_every_action_kept_comes_back():
    fs = FakeFs(littlefs=True)

    def fill():
        fs.biggest = 100  # (a journal line fits, a whole save does not)

    _every_action_kept("/game.txt", fs, fill)


def test_a_full_flash_at_any_byte_of_a_save_keeps_the_last_one():
    old = dump(game(GAME))
    new = dump(game(GAME + ",c1"))
    size = len(new) + len("gen 2\nend %d\n" % checksum(new + "gen 2\n"))
    kept = {"/g": old + "gen 1\nend %d\n" % checksum(old + "gen 1\n")}
    for littlefs in (False, True):  # through PATH.tmp (FAT), in place (littlefs)
        for k in range(size):
            fs = FakeFs(littlefs=littlefs)
            store = Store("/g", fs, in_place=littlefs)
            store.save(old)
            fs.room = k  # the flash is full after k more bytes
            assert _errno(store.save, new) == ENOSPC
            assert fs.files == kept, (littlefs, k)  # (no PATH.tmp left)
            assert Store("/g", fs, in_place=littlefs).load() == old, (littlefs, k)
            fs.room = -1  # room again: the next save goes through
            store.save(new)
            assert Store("/g", fs, in_place=littlefs).load() == new, (littlefs, k)


def test_a_file_is_written_in_one_write():
    # littlefs's close commits whatever the writes before it put in (only a
    # failed write makes it commit nothing): an exception between two writes
    # (a MemoryError making the checksum line) would commit a save cut short.
    fs = FakeFs(littlefs=True)
    store = Store("/g", fs, games="/games", journal=True, in_place=True)
    store.save(dump(game("@a1")))
    for write in (lambda: store.save(dump(game("@a1 @b1"))), lambda: store.note(["@c1"]),
                  lambda: store.archive(dump(game(GAME)))):
        writes = fs.writes
        write()
        assert fs.writes == writes + 1


def test_a_full_flash_in_a_journal_line_keeps_the_lines_before_it():
    for littlefs in (False, True):  # a torn line (FAT), no line (littlefs)
        fs = FakeFs(littlefs=littlefs)
        store = Store("/g", fs, journal=True, in_place=littlefs)
        store.save(dump(game("@a1")))
        assert store.note(["@b1"])
        fs.room = 5
        assert _errno(store.note, ["@c1"]) == ENOSPC
        fs.room = -1
        assert Store("/g", fs.copy(), journal=True).load() == dump(game("@a1 @b1")), littlefs
        store.save(dump(game("@a1 @b1 @c1")))  # (the keeper's next: a whole save)
        assert Store("/g", fs, journal=True).load() == dump(game("@a1 @b1 @c1")), littlefs


def test_at_power_up_on_a_full_flash_the_journal_is_carried_out_in_ram():
    fs = FakeFs(littlefs=True)
    store = Store("/g", fs, journal=True, in_place=True)
    store.save(dump(game("@a1")))
    assert store.note(["@b1", "@c1"])
    files = dict(fs.files)
    fs.room = 0
    back = Store("/g", fs, journal=True, in_place=True)
    # Its whole save does not fit: the game all the same, nothing on file changed.
    assert back.load() == dump(game("@a1 @b1 @c1")) and fs.files == files
    assert back.notes == 2  # (its lines: the next whole save is due)
    fs.room = -1  # room again: the keeper's next whole save goes through
    back.save(dump(game("@a1 @b1 @c1 @d1")))
    assert Store("/g", fs, journal=True).load() == dump(game("@a1 @b1 @c1 @d1"))


class _NoHeapFs(FakeFs):
    """FakeFs whose open() finds no heap for the file (MicroPython makes the
    file object, and its cache, before the file system opens anything)."""

    no_heap = False

    def open(self, path, mode):
        if self.no_heap:
            raise MemoryError("memory allocation failed, allocating 1200 bytes")
        return FakeFs.open(self, path, mode)


def test_no_heap_for_a_save_is_said_and_loses_nothing():
    from attila.saves.keeper import Keeper

    fs = _NoHeapFs(littlefs=True)
    keeper = Keeper(Store("/g", fs, journal=True, in_place=True))
    assert keeper.load(game("@a1").layout) == (None, "")
    assert keeper.keep(game("@a1")) == ""
    assert keeper.settle(game("@a1")) == ""  # (a whole save)
    fs.no_heap = True
    assert keeper.keep(game("@a1 @b1")) == "out of memory: cannot save the game"
    files = dict(fs.files)
    assert Store("/g", fs.copy(), journal=True).load() == dump(game("@a1"))
    fs.no_heap = False  # room again: the next try goes through
    assert keeper.keep(game("@a1 @b1 @c1")) == ""
    assert fs.files != files
    assert Store("/g", fs.copy(), journal=True).load() == dump(game("@a1 @b1 @c1"))
