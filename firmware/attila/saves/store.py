"""The save on flash, kept so that a power cut at any moment loses no accepted action.

Why it is built this way: docs/pages/inside/design.md (attila/saves/store.py).
"""

from attila.saves import archive as _archive
from attila.compat import const
from attila.errors import AttilaError
from attila.saves.files import HostFs, exists, read_bytes, read_text, write_whole
from attila.saves.savetext import (MAX_NOTES, VERSION, Storage, checksum, fold, generation,
                                   journal_ops, unpack)

_ASIDE_NAMES = const(100)  # PATH.bad, PATH.bad1 ... PATH.bad99
# The journal folder's metadata block (littlefs as MicroPython's rp2 build
# mounts it): _SLOTS commits of _SLOT bytes; a commit carries the whole
# inline file plus at most _COMMIT bytes (tags, time stamp, CRC).
_SLOTS = const(16)
_SLOT = const(256)
_COMMIT = const(40)
_LINE = const(20)  # a journal line's bytes besides its GEN: " z26-y25 4294967295\n"

# The board's saved game on its flash (the ports' save path; attila flash
# and attila games read it there).
GAME_FILE = "game.txt"

# What probe() finds at a path.
MISSING = "missing"
SAVE = "save"
DAMAGED = "damaged"
FOREIGN = "foreign"


def journal_of(path):
    """The journal of the save at `path`: journal/now/NAME.jnl in its folder
    (journal/now is the folder made anew, journal/ its parent: making it
    anew commits there, never in the root folder)."""
    head, _, name = path.rpartition("/")
    return (head + "/" if head or path.startswith("/") else "") + "journal/now/" + name + ".jnl"


def probe(path, fs=None):
    """What lies at `path` (host use, before a save is written there).

    MISSING: nothing; SAVE: a whole save; DAMAGED: ours (its first line is
    the save version) but unusable; FOREIGN: anything else (a folder, an
    empty or unreadable file, someone's text): never to be touched.
    """
    fs = fs if fs is not None else HostFs()
    if not fs.exists(path):
        return MISSING
    try:
        data = read_bytes(fs, path)
    except OSError:
        return FOREIGN  # a folder, or no right to read it
    if not data.startswith((VERSION + "\n").encode()):
        return FOREIGN
    try:
        unpack(data)
    except AttilaError:
        return DAMAGED
    return SAVE


class Store(Storage):
    """A save file at `path`: load() -> text or None, save(text), note(ops),
    clear(), reject(), archive(text); room() and renew() for the journal.

    `aside` is the path a damaged save was moved to (None while none was).
    """

    folders = True
    archives = True

    def __init__(self, path, fs=None, games=None, journal=False, in_place=False):
        self.path = path
        self.games = games  # the folder finished games are archived in (None: none)
        # True: changes between whole saves go to the journal (a board's
        # flash); False: every change is a whole save (a host's files).
        self.journal = journal
        # True: the file system keeps a file's old contents until the new
        # ones are committed whole on close (littlefs; not FAT, not a
        # host's files): a whole save over the save on file is written in
        # place, one commit instead of three (PATH.tmp made, written, renamed).
        self.in_place = in_place
        self.tmp = path + ".tmp"
        self.jnl = journal_of(path)
        self.fs = fs if fs is not None else HostFs()
        self.aside = None
        self._loaded = None  # the file load() returned the text of
        self.gen = 0  # generation of the whole save on file (0: none known)
        self.based = False  # a whole save is on file (journal lines follow it)
        self.notes = 0  # journal lines since it (MAX_NOTES: a whole save is due)
        self._used = None  # commits (slots) in the journal folder's block (None: not known)
        self._size = -1  # the journal file's bytes (-1: no file)

    def _put_aside(self, path):
        for k in range(_ASIDE_NAMES):
            new = path + (".bad%d" % k if k else ".bad")
            if not exists(self.fs, new):
                self.fs.rename(path, new)
                self.aside = new
                return new
        raise OSError("no free name to keep %s aside" % path)

    def load(self):
        """The last complete save with its journal carried out, or None.

        A damaged save is moved aside (see `aside`), never deleted; only a
        file system that cannot rename makes this raise (OSError).
        """
        self._loaded = None
        self.gen = self.notes = 0
        self.based = False
        if self.games is not None:
            try:
                # The saves' room first: an update may have put more on the flash.
                _archive.make_room(self.fs, self.games)
            except OSError:
                pass  # (the saves are tried all the same)
        text, damaged = read_text(self.fs, self.path)
        if damaged:
            self._put_aside(self.path)
        if text is not None:
            self._loaded = self.path
        else:
            # Only reachable when the rename itself was cut on a file system
            # that removes before it renames: the complete new file is here
            # (a torn one is half a save being written, and is written over).
            # It becomes the save now: the next save writes PATH.tmp anew.
            text, _ = read_text(self.fs, self.tmp)
            if text is not None:
                self.fs.rename(self.tmp, self.path)
                self._loaded = self.path
        if text is None:
            self.renew()  # (lines of no save: never to be read)
            return None
        self.gen, text = generation(text)
        self.based = True
        try:
            data = read_bytes(self.fs, self.jnl)
        except OSError:
            data = b""
        ops, whole = journal_ops(data, self.gen)
        text, self.notes = fold(text, ops)
        if not self.journal:
            if self.notes < len(ops) or not whole:
                self.notes = MAX_NOTES  # (a line appended after these would never be read)
            return text
        if self.notes:
            # Its lines become a whole save now (no one waits at power-up):
            # the journal's folder is then made anew, with room for a
            # generation (lines not carried out go with it).
            try:
                self.save(text)
            except OSError:
                pass  # (a full flash: the save and its lines stay, the game is theirs)
        self.renew()
        return text

    def renew(self):
        """Make the journal's folder anew (remove, rmdir, mkdir: one sector
        erase, at rest) when lines were written in it since it was made, and
        none of this generation is left (notes == 0): the next generation's
        appends then find an erased block with room for them; True when made."""
        if not self.journal or self.notes or (self._used == 1 and self._size < 0):
            return False
        folder = self.jnl[:self.jnl.rfind("/")]
        self._drop_journal()
        rmdir = getattr(self.fs, "rmdir", None)
        if rmdir is not None:
            try:
                rmdir(folder)
            except OSError:
                pass  # not there (made now), or someone's file in it
        try:
            self._make_folder()
        except OSError:
            self._used = None  # still there: its room is not known
            return False
        return True

    def _make_folder(self):
        """Make the journal's folder (its parent first, if that is missing)."""
        folder = self.jnl[:self.jnl.rfind("/")]
        try:
            self.fs.mkdir(folder)
        except OSError:
            parent = folder[:folder.rfind("/")]
            if not parent or exists(self.fs, parent):
                raise
            self.fs.mkdir(parent)  # (at power-up, or after someone removed it)
            self.fs.mkdir(folder)
        self._used = 1  # (the new folder's own first commit)
        self._size = -1

    def room(self):
        """Journal lines that still fit in its folder's metadata block, one
        append each, with room kept for the file's removal (0: not known)."""
        used = self._used
        if used is None or not self.journal:
            return 0
        size = self._size
        if size < 0:
            size = 0
            used += 1  # (the file's creation)
        line = len("%d" % self.gen) + _LINE
        n = 0
        while n < MAX_NOTES:
            size += line
            used += (size + _COMMIT + _SLOT - 1) // _SLOT
            if used + 1 > _SLOTS:
                break
            n += 1
        return n

    def _drop_journal(self):
        self._size = -1
        try:
            self.fs.remove(self.jnl)
        except OSError:
            return
        if self._used is not None:
            self._used += 1

    def note(self, ops):
        """Append journal lines for `ops` (oldest first); False when a whole save
        must be written instead (no save yet, or the journal is full)."""
        if not (self.journal and self.based and self.gen) or self.notes + len(ops) > MAX_NOTES:
            return False
        lines = ""
        for op in ops:
            head = "%d %s" % (self.gen, op)
            lines += "%s %d\n" % (head, checksum(head))
        try:
            f = self.fs.open(self.jnl, "a")
        except OSError:  # no journal folder (the power went as it was made anew)
            self._make_folder()
            f = self.fs.open(self.jnl, "a")
        try:
            f.write(lines)
            sync = getattr(self.fs, "sync", None)
            if sync is not None:
                sync(f)
        finally:
            f.close()
        self.notes += len(ops)
        # One commit (two for a new file) of the whole file, kept inline.
        size = self._size
        used = self._used
        if size < 0:
            size = 0
            if used is not None:
                used += 1
        size += len(lines)
        self._size = size
        if used is not None:
            self._used = used + (size + _COMMIT + _SLOT - 1) // _SLOT
        return True

    def reject(self):
        """Move the save load() returned aside (restore() refused it); its new path."""
        path = self._loaded or self.path
        self._loaded = None
        self.based = False
        self._drop_journal()  # (its lines were carried out in the text refused)
        return self._put_aside(path)

    def save(self, text):
        """Replace the save with `text`, atomically; the journal starts afresh."""
        gen = self.gen + 1
        # In place only over the save on file: opening a missing file makes
        # it at once, and a cut then would leave an empty (damaged) save.
        write_whole(self.fs, self.path, text + "gen %d\n" % gen,
                    self.in_place and self._loaded == self.path)
        self._loaded = self.path
        self.gen = gen
        self.notes = 0
        self.based = True
        self._drop_journal()  # (if the power goes first, its lines are of gen - 1)

    def archive(self, text):
        """Keep the save text of a finished game in the `games` folder
        (attila.saves.archive: the oldest go first); its path, or None
        without a games folder. OSError ENOSPC: no room beside the saves."""
        if self.games is None:
            return None
        return _archive.keep(self.fs, self.games, text)

    def clear(self):
        """Forget the saved game (its journal after it: no save, no journal)."""
        for path in (self.path, self.tmp):
            try:
                self.fs.remove(path)
            except OSError:
                pass
        self._drop_journal()
        self._loaded = None
        self.notes = 0  # (gen is kept: the next save's lines are of a new one)
        self.based = False


class MemoryStore(Storage):
    """A store in RAM (simulator, tests): the same interface as Store."""

    def __init__(self, text=None):
        self.text = text
        self.saves = 0
        self.aside = None
        self.rejected = None  # the text reject() took away

    def load(self):
        return self.text

    def save(self, text):
        self.text = text
        self.saves += 1

    def reject(self):
        self.rejected = self.text
        self.text = None
        self.aside = "memory"
        return self.aside

    def clear(self):
        self.text = None
