"""The saved game in microcontroller.nvm, never on CIRCUITPY: a journal of records.

Why it is built this way: docs/pages/inside/design.md (ports/circuitpython/nvmsave.py).
"""

from attila.compat import const
from attila.saves.savetext import MAX_BYTES, Storage

MAGIC = const(0xA7)
ALIGN = const(16)
HEAD = const(8)
SHORT_HEAD = const(7)
BASE = const(66)  # "B"
SHORT = const(83)  # "S"
CLEARED = const(67)  # "C"
SEAL = const(88)  # "X": the sector is being erased (in its last 16 bytes)
NEW_GAME = b"N"  # the seal's byte: erased as a new game began (nothing lost)
MID_GAME = b"G"  # ... erased mid-game, the journal full (the game lost if cut)
KNIGHTS = const(6)
TAKEBACKS = const(16)  # take-backs (UNDO and the action played again) a game has room for
WHERE = "microcontroller.nvm"
SAID = {
    NEW_GAME[0]: "the power went while the save sector was erased for a new game: "
                 "the new game starts",
    MID_GAME[0]: "the power went while the full save sector was erased mid-game: "
                 "that game is lost, a new game starts",
}


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


def game_bytes(layout, tiles=None, takebacks=TAKEBACKS):
    """The journal bytes a whole game on `layout` can take, at most (with
    `takebacks` take-backs): its first action as a base record, every other
    placement, move and scorch of its longest game (one turn for each square
    free after setup, and a last move) as a record, two records for each
    take-back, and the cleared record that ends it."""
    from attila.game.rules import Game
    from attila.saves.savetext import dump

    name = 1 + len(str(layout.height))  # "a1" .. "z26"
    action = _up(SHORT_HEAD + 1 + 2 * name + 3)  # the longest: " a1-b3\n", dropping "\n"
    first = _up(HEAD + len(dump(Game(layout, 0, tiles))) + 1 + name)
    actions = KNIGHTS + 2 * max(layout.size - KNIGHTS, 0) + 1
    return first + (actions - 1 + 2 * takebacks) * action + ALIGN


class NvmStore(Storage):
    """A journal in `nvm` (microcontroller.nvm, or any bytearray-like of 4 KB):
    load() -> text or None, save(text), clear(), reject(), as attila.saves.store.Store.
    `game`: the room a whole game needs (game_bytes()); `found`: what a
    power cut in an erase did ("" if nothing), for the console."""

    def __init__(self, nvm, game=0):
        self.nvm = nvm
        self.size = len(nvm)
        # The journal's end: the seal's place follows. (Not Storage's room(),
        # asked only of a store with a journal folder, which this is not.)
        self.room = self.size - ALIGN
        self.game = max(game, ALIGN)  # (at least the cleared record that ends it)
        self.img = bytearray(nvm[0:self.size])  # what the sector holds (one read, one buffer)
        self.aside = None
        self.found = ""
        self.text = None  # the text the journal holds ("" or None: no game)
        self.end = 0  # where the next record goes
        self.torn = False  # bytes past `end` that are not blank: next record is a base
        self.seed = 0  # the last record's checksum (the chain goes on from it)
        self.erases = 0  # sector erases: at a new game ...
        self.full = 0  # ... of which mid-game (the journal full: a cut there loses the game)
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
        if kind == SHORT:
            n = nvm[at + 2]
            check = _u32(nvm, at + 3)
            start = at + SHORT_HEAD
        else:
            n = _u16(nvm, at + 2)
            check = _u32(nvm, at + 4)
            start = at + HEAD
        end = start + n
        if end > self.size or n > MAX_BYTES + 2 or (kind == SEAL) != (at == self.room):
            return None, 0, 0
        data = nvm[start:end]
        if kind == BASE or kind == SEAL:
            seed = 0
        c = _check(seed, kind, data)
        if c != check:
            return None, 0, 0
        if kind == BASE:
            new = bytes(data)
        elif kind == SHORT and text is not None and n >= 1:
            keep = len(text) - data[0]
            if keep < 0:
                return None, 0, 0
            new = text[:keep] + bytes(data[1:])
        elif (kind == CLEARED and n == 0) or (kind == SEAL and n <= 1):
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
            why = self.img[self.room + HEAD] if self.img[self.room + 2] else MID_GAME[0]
            self.found = SAID.get(why, SAID[MID_GAME[0]])
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
        """The last completed save, or None (then a new game begins: the
        sector is erased now if a whole game would not fit)."""
        if not self.text:
            self._room_for_a_game()
            return None
        return self.text.decode()

    def _head(self, kind, data):
        n = len(data)
        c = _check(0 if kind == BASE or kind == SEAL else self.seed, kind, data)
        c4 = bytes((c & 0xFF, c >> 8 & 0xFF, c >> 16 & 0xFF, c >> 24 & 0xFF))
        if kind == SHORT:
            return bytes((MAGIC, kind, n)) + c4 + data, c
        return bytes((MAGIC, kind, n & 0xFF, n >> 8)) + c4 + data, c

    def _erase(self, why, record=b""):
        """Seal the sector (`why`: NEW_GAME or MID_GAME), erase it and program
        `record` at its start (a base, or nothing)."""
        img = self.img
        if not self._sealed() and not self._blank(0, self.size):
            seal = self._head(SEAL, why)[0]
            img[self.room:self.room + len(seal)] = seal
            self.nvm[self.room:self.room + len(seal)] = seal
        for k in range(self.size):
            img[k] = 0xFF
        img[0:len(record)] = record
        self.nvm[0:self.size] = img
        self.end = _up(len(record))
        self.torn = False
        self.erases += 1

    def _room_for_a_game(self):
        """A new game begins with no game held: erase the sector now if a
        whole game would not fit in what is left of it."""
        if self.room - self.end < self.game:
            self._erase(NEW_GAME)
            self.text = None
            self.seed = 0

    def _append(self, kind, data, text):
        if self.torn and kind != BASE:
            kind, data = BASE, text  # its predecessor lies before torn bytes
        record, c = self._head(kind, data)
        n = len(record)
        if self.end + n > self.room:
            # Full mid-game (the last resort): begin again with one base record.
            # A cut in the erase loses the game.
            if kind != BASE:
                kind, data = BASE, text
                record, c = self._head(kind, data)
            self._erase(MID_GAME, record)
            self.full += 1
        else:
            self.img[self.end:self.end + n] = record
            self.nvm[self.end:self.end + n] = record
            self.end = _up(self.end + n)
        self.torn = False
        self.text = text
        self.seed = c

    def save(self, text):
        """Append the save `text` (what changed since the last one where that is shorter)."""
        new = text.encode()
        old = self.text
        if old and not self.torn:
            keep = _common(old, new)
            drop = len(old) - keep
            if keep >= 8 and drop < 256 and len(new) - keep < 255:
                self._append(SHORT, bytes((drop,)) + new[keep:], new)
                return
        self._append(BASE, new, new)

    def clear(self):
        """Forget the saved game: a new game begins. A cleared record, or
        the sector erased if a whole game would not fit in what is left."""
        if self.room - self.end >= ALIGN + self.game:
            if self.text or self.torn:
                self._append(CLEARED, b"", b"")  # (a base of nothing past torn bytes)
        else:
            self._erase(NEW_GAME)
            self.text = None
            self.seed = 0

    def reject(self):
        """The save load() returned was refused: forget it; where it was."""
        self.clear()
        return WHERE
