"""The saved game in microcontroller.nvm, never on CIRCUITPY: a journal of records.

On the RP2040 every FAT update is a read-erase-program of a 4 KB flash
sector and FatFs keeps no journal: a power cut while a save is written
there can take the FAT or the root folder, and with them code.py and every
other file. So the game goes to `microcontroller.nvm`, CircuitPython's own
4 KB sector, and CIRCUITPY is never written by the board.

That sector is a journal. CircuitPython programs bytes into an nvm range
that is all 0xFF without erasing (a page program: a cut leaves the old
bytes as they were and the new ones part written); any other write erases
the whole sector first. So each save appends one record where the sector
is still blank: the text is the last one with `keep` characters kept and a
`tail` added (an action adds a few characters to the log, an UNDO takes
some away), and the record carries a checksum of its own bytes chained to
the one before it (Adler-32 seeded with the previous record's), so a save
costs a few bytes of work, not the whole text's (a whole-text loop in
Python took the loop 15-27 ms on an RP2040). At power-up the records are
replayed in order; the first that does not check (a cut while it was
written) ends the replay, and the text before it, the last completed
action, is the game. The next save then goes past the torn bytes as a
whole text (a `base` record), which the replay finds by its alignment.
Only when the sector is full is it erased and begun again with one base
record: a cut in that erase (45 ms, once in about 130 actions: two or
three games on a 4x5 board) loses the game, and the board starts a new
one. Before that erase a seal is programmed into the sector's last 16
bytes (kept blank for it): a sector found sealed holds no game, so a cut
erase can never hand back an older game from what it left. A new game or a
cleared one is a record too: no erase.

Record, 16-byte aligned: 0xA7, kind (B base, D delta, C cleared, X seal),
length of the data (2 bytes, little endian), the chained checksum (4
bytes: of the kind and the data, seeded with the previous record's; a base
and the seal start a chain), the data: B the text, D keep (2 bytes) and
the tail, C and X nothing.
"""

from attila.compat import const
from attila.store import MAX_BYTES

MAGIC = const(0xA7)
ALIGN = const(16)
HEAD = const(8)
BASE = const(66)  # "B"
DELTA = const(68)  # "D"
CLEARED = const(67)  # "C"
SEAL = const(88)  # "X": the sector is being erased (in its last 16 bytes)
WHERE = "microcontroller.nvm"


def _u16(buf, at):
    return buf[at] | buf[at + 1] << 8


def _u32(buf, at):
    return buf[at] | buf[at + 1] << 8 | buf[at + 2] << 16 | buf[at + 3] << 24


def _up(n):
    return (n + ALIGN - 1) // ALIGN * ALIGN


def _check(seed, kind, data):
    """Adler-32 of the kind byte and `data`, seeded with the chain's last checksum."""
    a = (seed & 0xFFFF) or 1
    b = seed >> 16 & 0xFFFF
    a = (a + kind) % 65521
    b = (b + a) % 65521
    for k in range(len(data)):
        a = (a + data[k]) % 65521
        b = (b + a) % 65521
    return b << 16 | a


def _common(old, new):
    """How many leading bytes two texts share, found with slices (compared in C)."""
    top = min(len(old), len(new), 0xFFFF)
    if old[:top] == new[:top]:
        return top
    lo, hi = 0, top  # old[:lo] == new[:lo], old[:hi] != new[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if old[lo:mid] == new[lo:mid]:
            lo = mid
        else:
            hi = mid
    return lo


class NvmStore:
    """A journal in `nvm` (microcontroller.nvm, or any bytearray-like of 4 KB):
    load() -> text or None, save(text), clear(), reject(), as attila.store.Store."""

    def __init__(self, nvm):
        self.nvm = nvm
        self.size = len(nvm)
        self.room = self.size - ALIGN  # the journal's end: the seal's place follows
        self.img = bytearray(nvm[0:self.size])  # what the sector holds (one read, one buffer)
        self.aside = None
        self.text = None  # the text the journal holds ("" or None: no game)
        self.end = 0  # where the next record goes
        self.torn = False  # bytes past `end` that are not blank: next record is a base
        self.seed = 0  # the last record's checksum (the chain goes on from it)
        self.compactions = 0
        self._scan()

    def _blank(self, start, stop):
        nvm = self.img
        for k in range(start, stop):
            if nvm[k] != 0xFF:
                return False
        return True

    def _record(self, at, text, seed):
        """(the text after the record at `at`, its end, its checksum), or
        (None, 0, 0) if it does not check (`seed`: the last record's checksum)."""
        nvm = self.img
        if at + HEAD > self.size or nvm[at] != MAGIC:
            return None, 0, 0
        kind = nvm[at + 1]
        n = _u16(nvm, at + 2)
        end = at + HEAD + n
        if end > self.size or n > MAX_BYTES + 2 or (kind == SEAL) != (at == self.room):
            return None, 0, 0
        data = nvm[at + HEAD:end]
        if kind == BASE or kind == SEAL:
            seed = 0
        c = _check(seed, kind, data)
        if c != _u32(nvm, at + 4):
            return None, 0, 0
        if kind == BASE:
            new = bytes(data)
        elif kind == DELTA and text is not None and n >= 2:
            keep = data[0] | data[1] << 8
            if keep > len(text):
                return None, 0, 0
            new = text[:keep] + bytes(data[2:])
        elif (kind == CLEARED or kind == SEAL) and n == 0:
            new = b""
        else:
            return None, 0, 0
        return new, _up(end), c

    def _sealed(self):
        new, _end, _c = self._record(self.room, None, 0)
        return new is not None and self.img[self.room + 1] == SEAL

    def _scan(self):
        text = None
        at = 0
        end = 0
        seed = 0
        size = self.room
        if self._sealed():
            self.text = None
            self.end = self.room  # the next save erases the sector
            self.torn = True
            self.seed = 0
            return
        while at < size:
            new, nxt, c = self._record(at, text, seed)
            if new is not None:
                text, at, end, seed = new, nxt, nxt, c
                continue
            if self._blank(at, size):
                break
            # Torn bytes: the journal goes on at the next base record, if any.
            at += ALIGN
            while at < size:
                if self.img[at] == MAGIC and self.img[at + 1] == BASE:
                    new, nxt, c = self._record(at, None, 0)
                    if new is not None:
                        break
                at += ALIGN
        torn = not self._blank(end, size)
        if torn:
            # Torn bytes at the end: the next record, a base, goes past them.
            last = size
            while self.img[last - 1] == 0xFF:
                last -= 1
            end = _up(last)
        self.text = text
        self.end = end
        self.torn = torn
        self.seed = seed

    def load(self):
        """The last completed save, or None."""
        if not self.text:
            return None
        return self.text.decode()

    def _head(self, kind, data):
        n = len(data)
        c = _check(0 if kind == BASE or kind == SEAL else self.seed, kind, data)
        return bytes((MAGIC, kind, n & 0xFF, n >> 8, c & 0xFF, c >> 8 & 0xFF, c >> 16 & 0xFF,
                      c >> 24 & 0xFF)) + data, c

    def _append(self, kind, data, text):
        if self.torn and kind != BASE:
            kind, data = BASE, text  # its predecessor lies before torn bytes
        record, c = self._head(kind, data)
        n = len(record)
        img = self.img
        if self.end + n > self.room:
            if kind != BASE:
                kind, data = BASE, text
                record, c = self._head(kind, data)
                n = len(record)
            # Full: seal, erase and begin again. A cut in the erase loses the game.
            if not self._sealed():
                seal = self._head(SEAL, b"")[0]
                img[self.room:self.room + HEAD] = seal
                self.nvm[self.room:self.room + HEAD] = seal
            for k in range(self.size):
                img[k] = 0xFF
            img[0:n] = record
            self.nvm[0:self.size] = img
            self.end = 0
            self.compactions += 1
        else:
            img[self.end:self.end + n] = record
            self.nvm[self.end:self.end + n] = record
        self.end = _up(self.end + n)
        self.torn = False
        self.text = text
        self.seed = c

    def save(self, text):
        """Append the save `text` (a delta from the last one where that is shorter)."""
        new = text.encode()
        old = self.text
        if old:
            keep = _common(old, new)
            if keep >= 8 and not self.torn:
                self._append(DELTA, bytes((keep & 0xFF, keep >> 8)) + new[keep:], new)
                return
        self._append(BASE, new, new)

    def clear(self):
        """Forget the saved game (a record too: no erase)."""
        if self.text:
            self._append(CLEARED, b"", b"")

    def reject(self):
        """The save load() returned was refused: forget it; where it was."""
        self.clear()
        return WHERE
