"""A file system in a dict whose power can be cut in the middle of a save.

Shared by the portable store tests and the controller's resume tests. The
power goes during write-open number `cut_save` (1-based; an append counts
too): after `cut_byte` bytes of it, or (cut_byte < 0) just before its rename. A file holds text
(what Store writes) or bytes (a test's damaged file); "rb" reads give bytes.
With `littlefs`, a file written keeps its old contents until close commits
the new ones (a new file is made, empty, at open), and `commits` counts the
changes to the folders' metadata, as littlefs makes them. With `room` >= 0,
the flash is full after that many more bytes: a write then raises OSError
ENOSPC (what it wrote before stays in a FAT file; littlefs marks the file
erred, and its close commits nothing, until a write succeeds again). With
`biggest` >= 0, a write of more bytes fails so, whole (littlefs on a full
flash: a save that needs a block of its own does not fit, a journal's
short lines, kept inline in their folder's metadata, do). `writes` counts
the write() calls.
"""

ENOSPC = 28  # (littlefs's LFS_ERR_NOSPC, as MicroPython raises it)


class PowerCut(Exception):
    """The power went: raised by FakeFs in the middle of a save."""


class _Reader:
    def __init__(self, data, binary):
        if binary and isinstance(data, str):
            data = data.encode()
        elif not binary and not isinstance(data, str):
            data = data.decode()  # UnicodeError, as a real text read
        self.data = data
        self.at = 0

    def read(self, n=-1):
        at = self.at
        self.at = len(self.data) if n < 0 else min(len(self.data), at + n)
        return self.data[at:self.at]

    def close(self):
        pass


class _Writer:
    def __init__(self, fs, path):
        self.fs = fs
        self.path = path

    def write(self, text):
        n, error = self.fs.take(len(text))
        self.fs.files[self.path] += text if n == len(text) else text[:n]
        if error is not None:
            raise error

    def close(self):
        pass


class _Committer(_Writer):
    """A littlefs file open for writing: the new contents in RAM until close."""

    def __init__(self, fs, path, text):
        _Writer.__init__(self, fs, path)
        self.text = text
        self.erred = False  # the last write failed: close commits nothing

    def write(self, text):
        n, error = self.fs.take(len(text))
        if isinstance(error, PowerCut):
            self.text = None  # (the power went: nothing more is committed)
            raise error
        self.text += text if n == len(text) else text[:n]
        self.erred = error is not None
        if error is not None:
            raise error

    def close(self):
        if self.text is not None and not self.erred:
            self.fs.files[self.path] = self.text
            self.fs.commits += 1


class FakeFs:
    """Files in a dict. The power goes during save number `cut_save` (1-based):
    after `cut_byte` bytes of it, or (cut_byte < 0) just before its rename."""

    def __init__(self, cut_save=0, cut_byte=-1, littlefs=False):
        self.littlefs = littlefs
        self.commits = 0
        self.files = {}
        self.dirs = set()  # folders made (a file in any folder needs none)
        self.budget = -1
        self.cut_save = cut_save
        self.cut_byte = cut_byte
        self.saves = 0
        self.room = -1  # bytes before the flash is full (-1: no end)
        self.biggest = -1  # bytes a write may have (-1: any)
        self.writes = 0  # write() calls

    def take(self, n):
        """A write of n bytes: (how many of them are written, the error then:
        the power cut or a full flash, whichever comes first; None)."""
        self.writes += 1
        k = n
        if 0 <= self.biggest < n:
            k = 0
        if 0 <= self.budget < k:
            k = self.budget
        if 0 <= self.room < k:
            k = self.room
        error = None
        if k < n:
            if k == self.budget:
                error = PowerCut()
            else:
                error = OSError(ENOSPC, "No space left on device")
        if self.budget > 0:
            self.budget -= k
        if self.room > 0:
            self.room -= k
        return k, error

    def open(self, path, mode):
        if mode in ("r", "rb"):
            if path not in self.files:
                raise OSError(2, "no such file")
            return _Reader(self.files[path], mode == "rb")
        self.saves += 1
        if self.saves == self.cut_save and self.cut_byte >= 0:
            self.budget = self.cut_byte
        if self.littlefs:
            if path not in self.files:
                self.files[path] = ""
                self.commits += 1
            return _Committer(self, path, self.files[path] if mode == "a" else "")
        if mode != "a" or path not in self.files:
            self.files[path] = ""
        return _Writer(self, path)

    def mkdir(self, path):
        if path in self.files or path in self.dirs:
            raise OSError(17, "exists")
        self.dirs.add(path)
        self.commits += 1

    def rmdir(self, path):
        if path not in self.dirs:
            raise OSError(2, "no such folder")
        if any(name.startswith(path + "/") for name in self.files):
            raise OSError(39, "not empty")
        self.dirs.discard(path)
        self.commits += 1

    def rename(self, old, new):
        if self.cut_save and self.saves == self.cut_save and self.cut_byte < 0:
            raise PowerCut()
        self.files[new] = self.files.pop(old)
        self.commits += 1

    def exists(self, path):
        return path in self.files or path in self.dirs

    def listdir(self, path):
        """The names in folder `path` (its files; folders are not listed)."""
        return sorted(name[len(path) + 1:] for name in self.files
                      if name.startswith(path + "/") and "/" not in name[len(path) + 1:])

    def remove(self, path):
        if path not in self.files:
            raise OSError(2, "no such file")
        del self.files[path]
        self.commits += 1

    def copy(self):
        """A new FakeFs holding the same files (the flash as it is now)."""
        other = FakeFs(littlefs=self.littlefs)
        other.files = dict(self.files)
        other.dirs = set(self.dirs)
        return other

    def power_back(self):
        self.budget = -1
        self.cut_save = 0


class Scratch:
    """A fresh folder of real files (the port's own file system), removed by clean()."""

    def __init__(self):
        import os
        import random

        self.os = os
        top = "/tmp"
        try:
            os.stat(top)
        except OSError:
            top = "."
        self.dir = "%s/attila-test-%08x" % (top, random.getrandbits(32))
        os.mkdir(self.dir)

    def path(self, name):
        return self.dir + "/" + name

    def write(self, name, data):
        f = open(self.path(name), "wb")
        f.write(data)
        f.close()

    def read(self, name):
        f = open(self.path(name), "rb")
        data = f.read()
        f.close()
        return data

    def names(self):
        return sorted(self.os.listdir(self.dir))

    def empty(self):
        for name in self.os.listdir(self.dir):
            path = self.path(name)
            self._remove(path)

    def _remove(self, path):
        try:
            self.os.remove(path)
        except OSError:  # a folder (the store's journal/ and journal/now/)
            for inner in self.os.listdir(path):
                self._remove(path + "/" + inner)
            self.os.rmdir(path)

    def clean(self):
        self.empty()
        self.os.rmdir(self.dir)
