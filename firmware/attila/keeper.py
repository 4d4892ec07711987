"""The game kept across power cuts: loaded at power-up, saved as the table shows it.

A thin layer over a store (attila.store.Store or MemoryStore: load() -> text
or None, aside, reject(), save(text) and clear()). It restores the saved game
for the board's layout, and writes a save only when its text changed (flash
wears). A save is the game as the pieces on the table show it: after UNDO
the actions whose pieces are not back yet are still in it, so a power cut
in the middle of a take-back finds a save at most one action away from the
table (otherwise a tile could pass for the knight that returns to its
square: the sensors cannot tell them apart).
"""

from attila.errors import AttilaError
from attila.store import dump, restore


def redo(game, text):
    """Carry out one action again from its notation ('@b1', 'b1-c3', ',d4')."""
    index = game.layout.index
    if text[0] == "@":
        game.place(index(text[1:]))
    elif text[0] == ",":
        game.scorch(index(text[1:]))
    else:
        a, _, b = text.partition("-")
        game.move(index(a), index(b))


class Keeper:
    """The store of one board."""

    def __init__(self, store):
        self.store = store
        self._saved = None  # the text last saved ("": none), when known

    def load(self, layout):
        """(the saved Game or None, what went wrong or "").

        A save the store found damaged it has put aside (store.aside: the new
        path); one that restore() refuses (another layout, numbers out of
        range) goes aside through store.reject(). Either way a new game
        starts, and the words say where the old save went.
        """
        store = self.store
        try:
            text = store.load()
        except OSError as e:  # the file system itself failed (no room to set it aside)
            return None, "cannot read the saved game (%s)" % e
        if store.aside:
            return None, "damaged save kept aside as %s" % store.aside
        if not text:
            return None, ""
        try:
            return restore(text, layout), ""
        except Exception as e:  # any refusal: the board must start all the same
            why = str(e) if isinstance(e, AttilaError) else "%s: %s" % (type(e).__name__, e)
        try:
            aside = store.reject()
        except OSError as e:
            return None, "saved game refused (%s), and it cannot be put aside (%s)" % (why, e)
        return None, "saved game refused (%s): kept aside as %s" % (why, aside)

    def save(self, game, later=()):
        """Save `game` with the actions `later` (notation, oldest first) redone;
        what went wrong, or ""."""
        n = 0
        try:
            for text in later:
                redo(game, text)
                n += 1
            text = dump(game) if game.history else ""
        finally:
            for _ in range(n):
                game.undo()
        if text == self._saved:
            return ""
        try:
            if text:
                self.store.save(text)
            else:
                self.store.clear()
        except OSError as e:
            self._saved = None
            return "cannot save the game (%s)" % e
        self._saved = text
        return ""

    def clear(self):
        """Forget the saved game (a failure is only a stale save: no error)."""
        try:
            self.store.clear()
            self._saved = ""
        except OSError:
            self._saved = None
