"""Whole files on flash: written so that a power cut or a full flash never leaves half of one.

write_whole() writes a text and its checksum line to PATH.tmp, closes it,
then renames it over PATH: a rename replaces the old file in one step
(os.rename on MicroPython's FAT and littlefs, os.replace on a host). A cut
during the write leaves the old file untouched; a cut after the rename
leaves the new one. The checksum line makes sure that even a file system
that renames before its data reaches the flash never hands back half a
file. On littlefs (in_place) a file can be written over in place instead:
littlefs keeps its old contents until close commits the new ones, whole,
in one commit of its folder, where PATH.tmp's creation, its data and the
rename take three (half the pages programmed).

A full flash (ENOSPC) or any write error loses nothing either. A file is
written in one write(), its text made before it is opened. littlefs's
close commits what the writes put in, except after a write that failed
(the file is then marked erred: close commits nothing), so a file written
in place that does not fit leaves the old one as it was (tests/portable/
test_store_full.py fills MicroPython's own littlefs to show it), and no
exception can come between two writes (one there, a MemoryError making
the checksum line, would have close commit a file cut short). A PATH.tmp a
write error left behind is removed: it holds flash the next save needs.
No free-space check is needed first, and none would be sure: littlefs
cannot tell in advance how many blocks a commit takes (a few hundred bytes
are kept inline in the folder's metadata, more take a block), and its
statvfs on a full flash counts the free blocks below zero.

Files are read as bytes, a piece at a time. The file functions are
injectable (`fs`: open/rename/remove/...) so tests can cut the power at
every byte; HostFs is a host's own.
"""

from attila.compat import const
from attila.errors import AttilaError
from attila.saves.savetext import MAX_BYTES, checksum, unpack

_PIECE = const(512)  # bytes read at a time


def read_bytes(fs, path):
    """The bytes of a file (more than MAX_BYTES of them only when it is that
    long); OSError if there is none. Read a piece at a time: a save is a few
    hundred bytes, and the heap may have no 4 KB in one piece."""
    f = fs.open(path, "rb")
    try:
        data = b""
        while len(data) <= MAX_BYTES:
            piece = f.read(_PIECE)
            if not piece:
                break
            data += piece
        return data
    finally:
        f.close()


def read_text(fs, path):
    """(text or None, damaged?) of a checksummed file: (None, False) when
    there is none (or none we can open)."""
    try:
        data = read_bytes(fs, path)
    except OSError:
        return None, False
    try:
        return unpack(data), False
    except AttilaError:
        return None, True


def exists(fs, path):
    """True when something is at `path` (a file system without exists():
    a file that opens)."""
    there = getattr(fs, "exists", None)
    if there is not None:
        return there(path)
    try:
        fs.open(path, "rb").close()
        return True
    except OSError:
        return False


def write_whole(fs, path, text, in_place=False):
    """`text` and its checksum line to `path`.tmp, renamed to `path`; or
    (in_place) to `path` itself, on a file system that commits it whole.
    The file in one write; a PATH.tmp a write error left is removed."""
    data = text + "end %d\n" % checksum(text)  # (before the file is opened)
    tmp = path if in_place else path + ".tmp"
    f = fs.open(tmp, "w")
    try:
        try:
            f.write(data)
            sync = getattr(fs, "sync", None)
            if sync is not None:
                sync(f)
        finally:
            f.close()  # (littlefs: commits nothing after a failed write)
    except OSError:
        if not in_place:
            try:
                fs.remove(tmp)
            except OSError:
                pass  # (written over by the next save)
        raise
    if not in_place:
        fs.rename(tmp, path)


def free_bytes(fs, path):
    """Free bytes on the file system that holds `path`, or None where `fs`
    cannot tell (no statvfs): for the archive, which gives way to the saves
    (a count that errs low keeps fewer finished games, never fewer saves).
    littlefs counts the blocks in use from above: on a full flash its count
    of free blocks can go below zero, which a 64-bit port shows as more
    blocks than there are (0 here)."""
    statvfs = getattr(fs, "statvfs", None)
    if statvfs is None:
        return None
    try:
        st = statvfs(path)
    except OSError:
        return None
    return 0 if st[4] > st[2] else st[4] * st[1]


class HostFs:
    """The real file system: builtin open, os.rename (replacing), os.remove,
    os.stat, os.listdir."""

    def __init__(self):
        import os

        self._os = os
        # CPython's os.rename refuses to replace on Windows; os.replace does.
        self.rename = getattr(os, "replace", os.rename)
        self.remove = os.remove
        self.mkdir = os.mkdir
        self.rmdir = os.rmdir
        self.listdir = os.listdir
        self.statvfs = getattr(os, "statvfs", None)

    def open(self, path, mode):
        return open(path, mode)

    def exists(self, path):
        try:
            self._os.stat(path)
            return True
        except OSError:
            return False

    def sync(self, f):
        f.flush()
        fsync = getattr(self._os, "fsync", None)
        if fsync is not None and hasattr(f, "fileno"):
            fsync(f.fileno())
