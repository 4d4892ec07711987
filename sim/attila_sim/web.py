"""The board on a web page: a Rig driven by the page's JavaScript.

The page (docs/pages/play/board/board.js) runs this module under
MicroPython's WebAssembly port, with the firmware's own `attila` package and
the simulator's rig beside it: the real controller behind a virtual strip,
virtual reed switches and buttons, exactly as in the window. Every call
returns the board as JSON text (the page draws it; None when nothing the page
shows has changed).

Two clocks:
  live     the clock follows the page's frames (tick(dt)); the board's loop
           runs 10 ms steps, at most a few ms of work per frame, so the
           search runs in slices and the page stays responsive;
  steps    the clock only runs when something is done, as in `attila sim
           --script`: every click is a script step (lift, put, a button
           press) followed by the settle, so a game played by clicks gives
           the very frames of the same script lines.

A reload resumes: `save` in the state is the board's save text whenever it
changed; the page keeps it in the browser's storage and hands it back to
start().
"""

import json
import time

from attila.opponent import book as books
from attila.opponent.opening import Opening
from attila.game import layoutfile
from attila.errors import AttilaError
from attila.opponent.levels import LEVEL_NAMES
from attila.game.rules import HUNS, ROMANS
from attila.saves.savetext import restore
from attila.saves.store import MemoryStore

from attila_tools.replayfile import read_game, saved_body

from attila_sim import actions
from attila_sim.rig import Rig
from attila_sim.table import HAND, RESERVE, TableError

LEVELS = LEVEL_NAMES
FRAME_BUDGET_MS = 12  # work per frame in the live clock (a 60 Hz frame is 16 ms)
MAX_LAG_MS = 250  # the live clock slows down rather than fall further behind

try:
    _ticks = time.ticks_ms  # MicroPython
    _diff = time.ticks_diff
except AttributeError:  # CPython (the tests)
    def _ticks():
        return int(time.monotonic() * 1000)

    def _diff(a, b):
        return a - b


class PageError(AttilaError):
    """Something the page asked for that cannot be done (said on the page)."""


def _layout_file(folder, name):
    return "%s/%s.json" % (folder, name)


class Page:
    """One board on the page: settings, the rig, what was last shown."""

    def __init__(self, folder="boards"):
        self.folder = folder
        self.rig = None
        self.name = ""
        self.clock = "live"
        self.target = 0
        self.message = ""
        self._shown = None
        self._saved = None
        self.items = []  # the steps of a replayed game
        self.marks = []  # its analysis: one line per step

    # -- settings -------------------------------------------------------------------

    def start(self, name="4x5", first="R", computer="", level="strong", book=True,
              saved=None, clock="live", online=None):
        """A new board: a layout of boards/ by name, who places first, the side the
        board plays ("" none), its level, the setup book and opening table (book);
        `saved`: a save text to resume (a reload), refused with a message when
        it does not fit; `online`: JSON {"code", "side", "number", "id"} to play a
        board elsewhere (attila_sim.webonline; the other side is played there)."""
        if first not in ("R", "H") or computer not in ("", "R", "H") or level not in LEVELS:
            raise PageError("bad settings: first %r, computer %r, level %r"
                            % (first, computer, level))
        if clock not in ("live", "steps"):
            raise PageError("bad clock %r (live or steps)" % clock)
        path = _layout_file(self.folder, name)
        layout, modules, tiles = layoutfile.load(path)
        self.message = ""
        if saved:
            try:
                game = restore(saved, layout)
                tiles = game.supply
            except AttilaError as e:
                self.message = "The saved game was not resumed (%s); a new game starts." % e
                saved = None
        if self.rig is not None and self.rig.book is not None:
            self.rig.book.close()
        if self.rig is not None and self.rig.card is not None:
            self.rig.card.close()
        opened = table = None
        if book:
            solved = "%s/solved/%s" % (self.folder, layout.name or name)
            try:
                opened = books.open(solved + ".book", layout)
            except AttilaError:
                opened = None  # not solved: the setup is searched
            try:
                table = Opening(open(solved + ".opening", "rb"), layout, "layout.opening")
            except (AttilaError, OSError):
                table = None  # none: the first turn of play is searched
        party = None
        if online:
            from attila_sim import webonline

            o = json.loads(online)
            party = webonline.party(o["code"], o["side"], o.get("number", 1), o.get("id", ""))
            computer = ""
        self.rig = Rig(layout, modules, tiles,
                       first=ROMANS if first == "R" else HUNS,
                       computer=-1 if not computer else "RH".index(computer),
                       store=MemoryStore(saved or None),
                       level=LEVELS.index(level), book=opened, card=table, online=party)
        self.name = name
        self.clock = clock
        self.target = self.rig.now
        self.items = []
        self.marks = []
        self._shown = None
        self._saved = saved or None
        return self.state(force=True)

    def geometry(self):
        """The layout for drawing: size, and each square's name, file, rank, its
        module's place in the cable chain and whether it is that module's
        local square 0 (where the window writes the chain number)."""
        layout = self.rig.layout
        owner = {}
        for m in self.rig.modules:
            for k, place in enumerate(m.places):
                owner[place] = (m.number, k == 0)
        squares = []
        for i in range(layout.size):
            name = layout.names[i]
            f, r = ord(name[0]) - 97, int(name[1:]) - 1
            number, first = owner.get((f, r), (0, False))
            squares.append([name, f, r, number, first])
        return json.dumps({"name": self.name, "width": layout.width, "height": layout.height,
                           "squares": squares, "tiles": self.rig.controller.game.supply})

    # -- the clock --------------------------------------------------------------------

    def now(self):
        """The board's clock (ms): what the tests pace a player's presses by."""
        return self.rig.now

    def tick(self, dt_ms):
        """The page's frame: dt_ms of real time passed (live clock only)."""
        rig = self.rig
        if self.clock == "live" and dt_ms > 0:
            self.target = min(self.target + dt_ms, rig.now + MAX_LAG_MS)
            start = t = _ticks()
            while rig.now + rig.period <= self.target:
                rig.advance_to(rig.now + rig.period)  # one loop step
                now = _ticks()
                # No step more once the next, as long as this one, would end
                # past the frame's budget (thinking steps follow closely).
                if _diff(now, start) + _diff(now, t) >= FRAME_BUDGET_MS:
                    break
                t = now
        return self.state()

    # -- what hands do -----------------------------------------------------------------

    def _do(self, step):
        """A hand movement or a press: at once (live), or as a script step (steps)."""
        rig = self.rig
        self.message = ""
        rig.said = ""
        try:
            if self.clock == "steps" or step[0] == "next":
                rig.do([step])
            else:
                self._hands(step)
        except (TableError, AttilaError) as e:
            self.message = str(e)
            return self.state(force=True)  # said again, even when said before
        return self.state()

    def _hands(self, step):
        """A hand movement at once (live clock): all of it or nothing."""
        rig = self.rig
        verb = step[0]
        before = rig.table.snapshot()
        try:
            if verb == "lift":
                rig.lift(step[1])
            elif verb == "put":
                if rig.table.held() is None:
                    rig.take(actions.CALLED_FOR)
                rig.put(step[1])
            elif verb == "take":
                rig.take(step[1])
            elif verb == "drop":
                rig.drop()
            elif verb == "clear":
                rig.clear_table()
        except TableError:
            rig.table.restore(before)
            raise

    def click(self, square):
        """A click or tap on a square: put the held piece there, lift the piece
        there, or put the piece the game calls for from beside the board."""
        table = self.rig.table
        if table.held() is not None and table.on(square) is not None:
            self.message = self.rig.blocked(square)
            return self.state(force=True)
        if table.held() is None and table.on(square) is not None:
            return self._do(("lift", square))
        return self._do(("put", square))

    def take(self, kind):
        """A click on a piece beside the board: it goes into the hand."""
        if kind not in ("R", "H", "x"):
            raise PageError("no piece %r" % kind)
        return self._do(("take", kind))

    def drop(self):
        """The held piece goes back beside the board."""
        if self.rig.table.held() is None:
            return self.state()
        return self._do(("drop",))

    def clear(self):
        """Every piece back beside the board."""
        return self._do(("clear",))

    def button(self, name, down=True):
        """UNDO or MENU: down and up (live: held as long as the pointer), or a
        short press (steps clock; `down` False does nothing there)."""
        if name not in ("undo", "menu"):
            raise PageError("no button %r" % name)
        if self.clock == "steps":
            if not down:
                return self.state()
            return self._do(("press", name, actions.SHORT_PRESS_MS))
        self.message = ""
        if down:
            self.rig.button_down(name)
        else:
            self.rig.button_up(name)
        return self.state()

    # -- online play (the page's mqtt.js is the transport) ------------------------------

    def online_info(self):
        from attila_sim import webonline

        return webonline.info(self.rig.online)

    def receive(self, topic, payload):
        """A message the page's MQTT client heard."""
        self.rig.online.receive(topic, payload.encode(), self.rig.now)
        return self.state()

    def link(self, up, why=""):
        """The broker reached (up) or lost (why, in words)."""
        p = self.rig.online
        if up:
            p.connected(self.rig.now)
        else:
            p.lost(self.rig.now, why)
        return self.state(force=True)

    def outbox(self):
        from attila_sim import webonline

        return webonline.outbox(self.rig.online)

    # -- replay --------------------------------------------------------------------------

    def replay(self, filename, path):
        """Open a game log or a saved game (the file the player chose, `filename`,
        copied to `path`) and get ready to step through it. Returns the state,
        or {"error": why} naming the file (the game in play is kept then)."""
        try:
            return self._replay(filename, path)
        except PageError as e:
            return json.dumps({"error": str(e)})

    def _replay(self, filename, path):
        with open(path, "rb") as f:
            data = f.read()
        try:
            body = saved_body(data, filename)
            if body is not None:
                try:
                    name = self._name_of(restore(body).layout)
                except AttilaError as e:
                    raise AttilaError("%s: %s" % (filename, e))
                if name is None:
                    raise AttilaError("%s: the saved game's layout (%s) is none of boards/"
                                      % (filename, "/".join(restore(body).layout.rows())))
            else:
                name = self.name
            layout, modules, tiles = layoutfile.load(_layout_file(self.folder, name))
            first, items, tiles = read_game(data, filename, layout, tiles)
        except AttilaError as e:
            raise PageError(str(e))
        self.start(name, "RH"[first], "", LEVELS[-1], False, None, self.clock)
        self.items = items
        self.rig.start_replay(items)
        return self.state(force=True)

    def _name_of(self, layout):
        import os

        for entry in sorted(os.listdir(self.folder)):
            if entry.endswith(".json"):
                try:
                    if layoutfile.load("%s/%s" % (self.folder, entry))[0] == layout:
                        return entry[:-5]
                except AttilaError:
                    continue
        return None

    def analysis(self, filename, text):
        """The output of `attila analyse` for the replayed game: its action lines
        become the marks beside each step. Returns the state, or {"error": why}."""
        try:
            return self._analysis(filename, text)
        except PageError as e:
            return json.dumps({"error": str(e)})

    def _analysis(self, filename, text):
        items = self.items
        if not items:
            raise PageError("%s: open a game to replay first" % filename)
        marks = []
        for line in text.splitlines():
            words = line.split()
            if len(words) < 5 or not words[0].endswith(".") or not words[0][:-1].isdigit():
                continue
            n = int(words[0][:-1])
            if n != len(marks) + 1 or n > len(items) or words[2] != items[n - 1]:
                raise PageError("%s line %r: not an analysis of this game (step %d is %s)"
                                % (filename, line.strip(), n,
                                   items[n - 1] if n <= len(items) else "past its end"))
            marks.append(" ".join(words[3:]))
        if len(marks) != len(items):
            raise PageError("%s: %d steps analysed, the game has %d (expected the output of "
                            "attila analyse for this game)" % (filename, len(marks), len(items)))
        self.marks = marks
        return self.state(force=True)

    def next(self, n=1):
        """The next replay step(s) (-1: all), as the window's Space: each step
        is carried out and the board settles (the clock runs on)."""
        state = self._do(("next", n)) if self.rig.replaying() else self.state()
        self.target = self.rig.now
        return state

    # -- what the page shows ------------------------------------------------------------

    def state(self, force=False):
        """The board as JSON text; None when nothing shown has changed."""
        rig = self.rig
        table = rig.table
        leds = rig.colours()
        store = rig.store
        save = None
        if store.text != self._saved:
            self._saved = store.text
            save = store.text or ""  # "": the save is gone (a new game)
        done, total = rig.replay_progress()
        pieces = [""] * rig.layout.size
        reserve = {"R": 0, "H": 0, "x": 0}
        for p in table.pieces:
            if p.where >= 0:
                pieces[p.where] = p.kind
            elif p.where == RESERVE and p.kind in reserve:
                reserve[p.kind] += 1
        told = rig.online.told_n if rig.online is not None else 0
        scene = (rig.strip.sent, tuple(pieces), tuple(p.kind for p in table.hand), told,
                 rig.controller.status_count, rig.controller.mode, rig.controller.thinking(),
                 self.message, rig.said,
                 done, len(self.marks), save)
        if scene == self._shown and not force:
            return None
        self._shown = scene
        held = table.held()
        out = {
            "t": rig.now,
            "mode": rig.mode_name(),
            "status": rig.status(),
            "position": rig.position(),
            "leds": ["%02x%02x%02x" % c if any(c) else "" for c in leds],
            "level": rig.leds.level,
            "pieces": pieces,
            "hand": held.kind if held is not None else "",
            "origin": held.origin if held is not None and held.where == HAND else -1,
            "reserve": reserve,
            "thinking": rig.controller.thinking(),
            "message": self.message,
            "replay": [done, total, rig.said],
            "steps": self.items,
            "marks": self.marks,
        }
        if save is not None:
            out["save"] = save
        if rig.online is not None:
            from attila_sim import webonline

            out["online"] = webonline.shown(rig.online)
        return json.dumps(out)


page = Page()
