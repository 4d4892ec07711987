"""The archive gives way to the saves: a flash filled by finished games, or by
more files after an update, never stops the game in progress from being saved.

On MicroPython's own littlefs (the unix port's vfs.VfsLfs2, set up like
rp2's: 4 KB blocks, 256-byte programs) on a RAM flash with the 93 blocks
free that a Pico keeps beside the firmware and 4x5's opening table after
`make flash` (littlefs's own count of a board's image made by
attila_tools.board.room), with games long enough (the 8x8 board's) that
each takes a block of its own; and on FakeFs, whose statvfs counts a block
a file (every interpreter).
"""

import check
from attila.saves.archive import (BLOCK, DROPS, GAMES_KEPT, ROOM_BLOCKS, SAVE_BLOCKS, game_number,
                                  make_room)
from attila.saves.savetext import checksum, dump
from attila.saves.store import Store
from fakefs import FakeFs
from test_savetext import GAME, game
from test_store_full import _long_game

_ROOT = "/archive-flash"
_ERASED = b"\xff" * BLOCK
_PICO_FREE = 93  # blocks free on a Pico after make flash with 4x5's opening table


class _Flash:
    """A flash in RAM that keeps only what was programmed into each block since
    its erase (the rest reads erased), so a Pico's room fits the unix port's heap."""

    def __init__(self, blocks):
        self.blocks = [bytearray() for _ in range(blocks)]

    def readblocks(self, n, buf, offset=0):
        data = self.blocks[n]
        k = min(len(buf), max(0, len(data) - offset))
        if k:
            buf[:k] = memoryview(data)[offset:offset + k]
        if k < len(buf):
            buf[k:] = memoryview(_ERASED)[:len(buf) - k]

    def writeblocks(self, n, buf, offset=0):
        data = self.blocks[n]
        end = offset + len(buf)
        if len(data) < end:
            data.extend(memoryview(_ERASED)[:end - len(data)])
        data[offset:end] = buf

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return len(self.blocks)
        if op == 5:  # block size
            return BLOCK
        if op == 6:  # erase
            self.blocks[arg] = bytearray()
        return 0  # init, deinit, sync


def _littlefs(free):
    """MicroPython's littlefs on a RAM flash with `free` blocks free once
    formatted, mounted at _ROOT; (vfs, os)."""
    import os

    try:
        import vfs
    except ImportError:
        vfs = os
    lfs = getattr(vfs, "VfsLfs2", None)
    if lfs is None or not hasattr(vfs, "mount"):
        check.skip("no littlefs here (MicroPython's vfs.VfsLfs2: the unix port)")
    flash = _Flash(free + 2)  # (the superblock's pair)
    lfs.mkfs(flash, progsize=256)
    vfs.mount(lfs(flash, progsize=256), _ROOT)
    assert _free(os) == free
    return vfs, os


def _free(os):
    return os.statvfs(_ROOT)[3]


def _numbers(os):
    return sorted(game_number(name) for name in os.listdir(_ROOT + "/games"))


def test_on_a_picos_littlefs_the_archive_leaves_the_saves_their_room():
    vfs, os = _littlefs(_PICO_FREE)
    try:
        path = _ROOT + "/game.txt"
        store = Store(path, games=_ROOT + "/games", journal=True, in_place=True)
        assert store.load() is None
        long = dump(_long_game(8))
        games = 110
        for k in range(games):
            text = "%s# %d\n" % (long, k)
            store.save(text)  # (never ENOSPC)
            assert store.archive(text).endswith("/game-%05d-%08x.txt" % (k + 1, checksum(text)))
        kept = _numbers(os)
        # The newest, as many as the room holds (a block each), the saves' room free.
        assert 60 < len(kept) < GAMES_KEPT and kept == list(range(games - len(kept) + 1, games + 1))
        assert SAVE_BLOCKS <= _free(os) < ROOM_BLOCKS, _free(os)
        assert Store(path, journal=True, in_place=True).load() == text
        # An update puts more files on the flash: at power-up the oldest games go.
        with open(_ROOT + "/layout.opening", "wb") as f:
            for _ in range(6 * 3):
                f.write(_ERASED[:1300])  # (the heap may have no 24 KB in one piece)
        assert _free(os) < SAVE_BLOCKS
        back = Store(path, games=_ROOT + "/games", journal=True, in_place=True)
        assert back.load() == text and _free(os) >= ROOM_BLOCKS
        assert _numbers(os)[-1] == games and len(_numbers(os)) < len(kept)
    finally:
        vfs.umount(_ROOT)


def test_the_board_counts_a_folder_twice():
    # A folder takes a metadata pair, and MicroPython's littlefs counts it
    # twice in its statvfs: attila_tools.board.room leaves room for that
    # (COUNTED_TWICE), as the archive measures its room with statvfs.
    vfs, os = _littlefs(20)
    try:
        os.mkdir(_ROOT + "/games")
        assert _free(os) == 20 - 2 * 2
        os.mkdir(_ROOT + "/games/old")
        assert _free(os) == 20 - 4 * 2
    finally:
        vfs.umount(_ROOT)


class _BlockFs(FakeFs):
    """FakeFs whose statvfs counts a block a file, of `blocks` (None: it has
    no statvfs to call)."""

    def __init__(self, blocks):
        FakeFs.__init__(self, littlefs=True)
        self.blocks = blocks
        self.fails = False  # statvfs raises OSError

    def statvfs(self, path):
        if self.fails:
            raise OSError(5, "EIO")
        free = self.blocks - len(self.files)
        return (BLOCK, BLOCK, self.blocks, free, free, 0, 0, 0, 0, 255)


def _archived(fs):
    """The numbers of the games archived on FakeFs, oldest first."""
    return sorted(n for n in (game_number(name) for name in fs.listdir("/games")) if n >= 0)


def test_the_oldest_games_give_way_until_the_saves_have_their_room():
    fs = _BlockFs(30)
    fs.files["/games/notes.txt"] = "a maker's"  # (not a game: never removed)
    store = Store("/g", fs, games="/games", journal=True, in_place=True)
    store.save("game 0\n")
    for k in range(1, 41):
        assert store.archive("game %02d\n" % k) == "/games/game-%05d-%08x.txt" % (
            k, checksum("game %02d\n" % k))
        free = fs.blocks - len(fs.files)
        assert free >= ROOM_BLOCKS - 1, (k, free)  # (the game kept took one)
    # 30 blocks: the save, the maker's file, the room and the newest 19.
    assert _archived(fs) == list(range(22, 41)) and "/games/notes.txt" in fs.files
    assert fs.blocks - len(fs.files) == ROOM_BLOCKS - 1
    # Where the file system cannot tell its room, GAMES_KEPT alone holds.
    fs.fails = True
    store.archive("game 41\n")
    assert _archived(fs) == list(range(22, 42))
    fs.blocks = None
    fs.statvfs = None
    store.archive("game 42\n")
    assert _archived(fs) == list(range(22, 43)) and GAMES_KEPT > 21


def test_without_room_even_with_no_game_kept_the_game_is_not_kept_and_the_save_goes_on():
    from attila.saves.keeper import Keeper

    fs = _BlockFs(ROOM_BLOCKS + 1)
    store = Store("/g", fs, games="/games", journal=True, in_place=True)
    assert store.archive("game 1\n") == "/games/game-00001-%08x.txt" % checksum("game 1\n")
    fs.blocks -= 2  # a maker's files
    keeper = Keeper(store)
    assert keeper.load(game("@a1").layout) == (None, "")
    assert _archived(fs) == []  # the saves come first
    assert keeper.archive(game(GAME)) == "flash full: cannot keep the finished game"
    assert _archived(fs) == [] and not [p for p in fs.files if p.startswith("/games/")]
    assert keeper.keep(game("@a1")) == ""
    assert Store("/g", fs, journal=True).load() == dump(game("@a1"))


def test_at_power_up_the_oldest_games_give_way():
    fs = _BlockFs(40)
    for k in range(1, 26):
        fs.files["/games/game-%05d-%08x.txt" % (k, k)] = "game %d\n" % k
    store = Store("/g", fs, games="/games", journal=True, in_place=True)
    store.save("game 26\n")
    fs.blocks = 30  # an update put more files on the flash
    assert Store("/g", fs, games="/games", journal=True, in_place=True).load() == "game 26\n"
    assert _archived(fs) == list(range(7, 26))  # 30 blocks: the save, the room, 19 games
    assert make_room(fs, "/games") and _archived(fs) == list(range(7, 26))
    assert make_room(fs, "/none")  # (no games folder: room, nothing to drop)
    # DROPS at most a call (each removal may erase a sector, the watchdog
    # may run): the rest at the next.
    for k in range(26, 28 + DROPS):  # (DROPS + 2 blocks short)
        fs.files["/games/game-%05d-%08x.txt" % (k, k)] = "game %d\n" % k
    assert not make_room(fs, "/games") and _archived(fs) == list(range(7 + DROPS, 28 + DROPS))
    assert make_room(fs, "/games") and _archived(fs) == list(range(9 + DROPS, 28 + DROPS))


def test_a_free_count_below_zero_is_no_room():
    # littlefs counts its blocks in use from above: on a full flash its free
    # count goes below zero, which a 64-bit port shows as a huge count.
    from attila.saves.files import free_bytes

    for free, want in ((3, 3 * BLOCK), (0, 0), (2 ** 32 - 4, 0), (-4, -4 * BLOCK)):
        fs = _BlockFs(352)
        fs.statvfs = lambda path, free=free: (BLOCK, BLOCK, 352, free, free, 0, 0, 0, 0, 255)
        assert free_bytes(fs, "/games") == want, (free, free_bytes(fs, "/games"))
    assert free_bytes(FakeFs(), "/games") is None
