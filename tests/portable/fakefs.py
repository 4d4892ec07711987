"""A file system in a dict whose power can be cut in the middle of a save.

Shared by the portable store tests and the controller's resume tests. The
power goes during write-open number `cut_save` (1-based): after `cut_byte`
bytes of it, or (cut_byte < 0) just before its rename.
"""


class PowerCut(Exception):
    """The power went: raised by FakeFs in the middle of a save."""


class _Reader:
    def __init__(self, text):
        self.text = text

    def read(self):
        return self.text

    def close(self):
        pass


class _Writer:
    def __init__(self, fs, path):
        self.fs = fs
        self.path = path

    def write(self, text):
        fs = self.fs
        for ch in text:
            if fs.budget == 0:
                raise PowerCut()
            fs.files[self.path] += ch
            if fs.budget > 0:
                fs.budget -= 1

    def close(self):
        pass


class FakeFs:
    """Files in a dict. The power goes during save number `cut_save` (1-based):
    after `cut_byte` bytes of it, or (cut_byte < 0) just before its rename."""

    def __init__(self, cut_save=0, cut_byte=-1):
        self.files = {}
        self.budget = -1
        self.cut_save = cut_save
        self.cut_byte = cut_byte
        self.saves = 0

    def open(self, path, mode):
        if mode == "r":
            if path not in self.files:
                raise OSError(2, "no such file")
            return _Reader(self.files[path])
        self.saves += 1
        if self.saves == self.cut_save and self.cut_byte >= 0:
            self.budget = self.cut_byte
        self.files[path] = ""
        return _Writer(self, path)

    def rename(self, old, new):
        if self.saves == self.cut_save and self.cut_byte < 0:
            raise PowerCut()
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        if path not in self.files:
            raise OSError(2, "no such file")
        del self.files[path]

    def power_back(self):
        self.budget = -1
        self.cut_save = 0
