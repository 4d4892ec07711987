"""The game kept across power cuts: loaded at power-up, kept as the table shows it.

Why it is built this way: docs/pages/inside/design.md (attila/saves/keeper.py).
"""

from attila.compat import const
from attila.errors import AttilaError
from attila.game.rules import OVER, SIDES
from attila.saves.files import ENOSPC
from attila.saves.savetext import NEW, UNDONE, dump, redo, restore

# Journal lines after which settle() writes a whole save (the journal holds
# at most attila.saves.savetext.MAX_NOTES: then keep() writes one itself).
SETTLE_NOTES = const(6)
# What a write may fail with and leave the game in RAM: the file system, or
# a heap with no room for the save's text or the file (made before the file
# is opened: attila.saves.files; nothing on file changed).
FAILS = (OSError, MemoryError)


def failed(what, e):
    """The words for a write that failed: `what`, and why."""
    if isinstance(e, MemoryError):
        return "out of memory: " + what
    if e.args and e.args[0] == ENOSPC:
        return "flash full: " + what
    return "%s (%s)" % (what, e)


def _table(game, later):
    """The actions of `game` as the table shows it (notation, oldest first)."""
    out = []  # type: list
    for entry in game.history:
        out.append(game.describe(entry))
    for text in later:
        out.append(text)
    return out


class Keeper:
    """The store of one board."""

    def __init__(self, store):
        self.store = store
        self._saved = None  # the text last saved ("": none), when known
        self._kept = None  # the actions as last kept (a list), when known
        self._archived = None  # the text of the last finished game archived
        self.busy = False  # settle() has another write to do (call it again)

    def load(self, layout):
        """(the saved Game or None, what went wrong or "").

        A save the store found damaged it has put aside (store.aside: the new
        path); one that restore() refuses (another layout, numbers out of
        range) goes aside through store.reject(). Either way a new game
        starts, and the words say where the old save went. A saved game with
        no action is no game to resume.
        """
        store = self.store
        try:
            text = store.load()
        except OSError as e:  # the file system itself failed (no room to set it aside)
            return None, "cannot read the saved game (%s)" % e
        if store.aside:
            return None, "damaged save kept aside as %s" % store.aside
        if not text:
            self._kept = []
            return None, ""
        try:
            game = restore(text, layout)
        except Exception as e:  # any refusal: the board must start all the same
            why = str(e) if isinstance(e, AttilaError) else "%s: %s" % (type(e).__name__, e)
        else:
            self._kept = _table(game, ())
            if not game.history:
                return None, ""
            if game.phase == OVER:
                self.archive(game)  # (the power went before settle() kept it)
            return game, ""
        try:
            aside = store.reject()
        except OSError as e:
            return None, "saved game refused (%s), and it cannot be put aside (%s)" % (why, e)
        return None, "saved game refused (%s): kept aside as %s" % (why, aside)

    def keep(self, game, later=()):
        """Keep `game` with the actions `later` (notation, oldest first) redone,
        now; what went wrong, or ""."""
        table = _table(game, later)
        kept = self._kept
        if table == kept:
            return ""
        store = self.store
        if store.journal and kept is not None:
            if table:
                same = 0
                top = min(len(kept), len(table))
                while same < top and kept[same] == table[same]:
                    same += 1
                ops = [UNDONE] * (len(kept) - same) + table[same:]
            else:
                # A new game: one line too (forgetting the save would
                # write the root folder in this step).
                ops = ["%s%s%d" % (NEW, SIDES[game.first], game.supply)]
            try:
                if store.note(ops):
                    self._kept = table
                    self._saved = None
                    return ""
            except FAILS:
                # (a whole save instead: it may fit where the line did not)
                self._kept = self._saved = None
        if not table:
            self._kept = None
            error = self.clear()
            if not error:
                self._kept = table
            return error
        return self.save(game, later)

    def settle(self, game, later=()):
        """The squares are still: the first write due, each in a call of its
        own (`busy` while another is due): the whole save when the journal
        has grown (or is short of room), the journal's folder made anew
        (store.renew()), a finished game archived. What went wrong, or ""."""
        self.busy = False
        store = self.store
        notes = store.notes
        if notes >= SETTLE_NOTES or self._kept is None \
                or (notes and store.folders and store.room() < SETTLE_NOTES):
            error = self.save(game, later)
            # The journal's folder anew in the next call: a loop step of its
            # own (each may erase: the root folder's compaction, the new
            # folder). An action that comes first puts it off: its lines go
            # on in the old folder, and the next whole save comes sooner;
            # with room for less than two more, it is made anew now.
            self.busy = not error and not store.notes  # (written)
            if not self.busy or not store.folders or store.room() >= 2:
                return error
        elif not game.history and not later and store.journal and not store.based:
            # A new game on an empty board: its empty save now, so that its
            # first action is a journal line, not a whole save.
            try:
                store.save(dump(game))
            except FAILS as e:
                return failed("cannot save the game", e)
            self.busy = True
            return ""
        if store.folders:
            try:
                if store.renew():
                    self.busy = True  # (the archive in a loop step of its own)
                    return ""
            except FAILS as e:
                return failed("cannot make the journal's folder anew", e)
        if game.phase == OVER and not later:
            return self.archive(game)
        return ""

    def archive(self, game):
        """Keep a finished game apart (the store's archive); what went wrong, or ""."""
        if not self.store.archives:
            return ""
        try:
            text = dump(game)
            if text == self._archived:
                return ""
            self.store.archive(text)
        except FAILS as e:
            return failed("cannot keep the finished game", e)
        self._archived = text
        return ""

    def save(self, game, later=()):
        """Save `game` with the actions `later` (notation, oldest first) redone,
        as one whole save; what went wrong, or ""."""
        n = 0
        try:
            for text in later:
                redo(game, text)
                n += 1
            text = dump(game) if game.history else ""
        except MemoryError as e:
            self._saved = None
            return failed("cannot save the game", e)
        finally:
            for _ in range(n):
                game.undo()
        if text == self._saved and self._kept is not None:
            return ""
        try:
            if text:
                self.store.save(text)
            else:
                self.store.clear()
        except FAILS as e:
            # A save that failed leaves the one on file and its journal as
            # they were (attila.saves.store): with a journal, what was kept is kept
            # still, and the journal goes on while it has room (its lines
            # make the whole save due: settle() tries again). Without one
            # (or a clear that failed: part of it may be gone), nothing is
            # known kept: settle() tries again.
            self._saved = None
            if not text or not self.store.journal:
                self._kept = None
            return failed("cannot save the game", e)
        self._saved = text
        self._kept = _table(game, later)
        return ""

    def clear(self):
        """Forget the saved game; what went wrong, or ""."""
        try:
            self.store.clear()
            self._saved = ""
            self._kept = []
        except FAILS as e:
            self._saved = self._kept = None
            return failed("cannot forget the saved game", e)
        return ""
