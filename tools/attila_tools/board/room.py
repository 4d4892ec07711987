"""What fits on a board's file system: the firmware always, the opening table when it leaves room.

    files, note = fit(files, (4096, 212))    # a Pico W: 848 KB of littlefs

A board's file system is what its MicroPython build leaves of the flash:
1408 KB on a Pico, 848 KB on a Pico W (whose firmware carries the radio's
own and the network stack), more or less on other boards. The firmware,
the layout, the profile and the setup book are needed; the layout's
opening table (about 760 KB for 4x5) only makes the first turn of play
exact, so it is left out, and said so, when the rest and the room the
saves need would not fit beside it. Measured, not guessed: the files are
laid out on a littlefs of the board's geometry as MicroPython mounts it
(extmod/vfs_lfsx.c: 256-byte programs, 32-byte reads, a 1 KB cache, so a
small file sits in its folder's metadata).

The room is what the board will count: its finished games give way to the
saves until its statvfs says ROOM_BLOCKS are free (attila.saves.archive),
and MicroPython's littlefs counts every folder's metadata pair twice there
(tests/portable/test_archive_room.py), so each folder costs the board two
blocks more than it takes.
"""

import os

from attila.saves.archive import ROOM_BLOCKS

from attila_tools.board import build

# Left free, as the board counts it: the room its archive leaves the saves
# (the game, its copy while written, its journal, littlefs's copies of the
# folders they change), the folders the firmware makes (journal/,
# journal/now/, games/: a metadata pair each) and a few finished games of a
# large layout (a block each). A full flash stops the saves (the board says so).
FIRMWARE_FOLDERS = 3
SPARE_BLOCKS = ROOM_BLOCKS + 2 * FIRMWARE_FOLDERS + 8
COUNTED_TWICE = 2  # blocks the board's statvfs counts twice for each folder
OPTIONAL = (build.OPENING_FILE,)  # left out first to last when the rest does not fit


def used_blocks(files, block_size, block_count):
    """Blocks `files` ({board path: local file}) take on a fresh littlefs of
    that geometry; None when they do not fit at all."""
    from littlefs import LittleFS, LittleFSError

    fs = LittleFS(block_size=block_size, block_count=block_count, prog_size=256, read_size=32,
                  cache_size=min(block_size, 1024), lookahead_size=32)
    try:
        for dest in sorted(files):
            parts = dest.split("/")
            for k in range(1, len(parts)):
                try:
                    fs.mkdir("/".join(parts[:k]))
                except FileExistsError:
                    pass
            with open(files[dest], "rb") as src, fs.open(dest, "wb") as f:
                f.write(src.read())
    except LittleFSError:
        return None
    return fs.used_block_count


def folders(files):
    """The folders `files` ({board path: local file}) are in, each with its parents."""
    out = set()
    for dest in files:
        parts = dest.split("/")[:-1]
        for k in range(1, len(parts) + 1):
            out.add("/".join(parts[:k]))
    return out


def spare_blocks(files):
    """The free blocks `files` must leave on the board's file system: SPARE_BLOCKS
    as the board counts them (each folder counted twice)."""
    return SPARE_BLOCKS + COUNTED_TWICE * (len(folders(files)) + FIRMWARE_FOLDERS)


def most_blocks(files, block_size):
    """Blocks `files` take at most: each its whole blocks (none inlined), each
    folder a metadata pair, the superblock's pair."""
    data = sum(max(1, -(-os.path.getsize(src) // block_size)) for src in files.values())
    return data + 2 * len(folders(files)) + 2


def fit(files, geometry):
    """(files, note): `files` less the optional tables that would leave the
    saves less than spare_blocks(); note says what was left out and why (""
    when nothing was, or the geometry (block size, blocks) is unknown)."""
    if not geometry:
        return files, ""
    size, count = geometry
    left_out = []
    files = dict(files)
    for dest in (None,) + OPTIONAL:
        if dest is not None and dest in files:
            left_out.append((dest, os.path.getsize(files.pop(dest))))
        spare = spare_blocks(files)
        used = most_blocks(files, size)
        if count - used < spare:  # (the bound is quick; the layout itself is not)
            used = used_blocks(files, size, count)
        if used is not None and count - used >= spare:
            break
    if used is None:
        raise build.BuildError(
            "the firmware, the layout and the profile do not fit the board's file system "
            "(%d kB) even without %s" % (size * count // 1024, ", ".join(OPTIONAL)))
    if not left_out:
        return files, ""
    what = ", ".join("%s (%.1f kB)" % (d, n / 1000.0) for d, n in left_out)
    return files, ("%s left out: the board's file system (%d kB) cannot hold it beside the "
                   "firmware and room for the saves; the game's first turn of play is searched"
                   % (what, size * count // 1024))
