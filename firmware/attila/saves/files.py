"""Whole files on flash: written so that a power cut or a full flash never leaves half of one.

Why it is built this way: docs/pages/inside/design.md (attila/saves/files.py).
"""

from attila.compat import const
from attila.errors import AttilaError
from attila.saves.savetext import MAX_BYTES, checksum, unpack

_PIECE = const(512)  # bytes read at a time
# OSError's number for a full flash: littlefs's LFS_ERR_NOSPC as MicroPython
# raises it, and ENOSPC on the hosts.
ENOSPC = const(28)


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
