"""The simulated board: the core's Board and Controller on virtual hardware.

The controller is the one attila.assembly builds for every board (its
opponent at a Pico's pace); the rig builds none of its own.

    table (pieces) -> VirtualSwitches.scan()  raw bits, sensor chain order
      -> attila.board.Board.step(now): wiring.squares -> Debouncer ->
         Controller.sense/press/tick -> Leds.render -> VirtualStrip.write()
      -> colours(): the strip's bytes decoded back through the wiring

Nothing here decides what a reading means; the rig only moves pieces, holds
buttons, runs the clock and reads the LEDs back. The window, the text mode
and the scripted mode all drive a Rig.
"""

from attila import assembly
from attila.game import layoutfile, notation
from attila.board import Board
from attila.play.modes import CORRECT, MODE_NAMES, PLAY
from attila.errors import AttilaError
from attila.leds.strip import Leds
from attila.opponent.levels import BUDGET_MS, LEVEL_NAMES, SLICE, STRONG
from attila.game.rules import OVER, ROMANS, SCORCH, SETUP, SIDE_NAMES
from attila.sensing.debounce import Debouncer
from attila.saves.store import MemoryStore, Store
from attila.sensing.wiring import Wiring

from attila_sim import actions
from attila_sim.hardware import VirtualButtons, VirtualStrip, VirtualSwitches
from attila_sim.heard import Heard
from attila_sim.table import HUN, ROMAN, TILE, Table, TableError

STEP_MS = 10  # the main loop's period on a real board (profile loop_ms)
# While it searches, a Pico's loop steps again at once (main.py's run): the
# simulator paces it at a typical thinking step of the emulated Pico, well
# inside the loop period (the thinking table of docs/pages/inside/opponent.md).
THINK_STEP_MS = 4
SETTLE_MS = 60  # after a hand movement: long enough for the 30 ms debounce
MAX_STEPS = 500  # catch-up limit of one advance (a window that was frozen)
# The longest the board's clock runs on its own in think(): past the longest
# decision (the strong level's hard stage, 4 times budget_ms).
THINK_LIMIT_MS = 60000
BUTTONS = {"undo": 0, "menu": 1}  # the controller's button numbers
MIN_PRESS_MS = 60  # a click or key tap holds a button at least this long
# Nodes a Pico searches per loop step (its viper kernel's pace: the host runs
# the portable kernel, whose own pace would search a few hundred nodes where
# a Pico searches its level's full node budget).
PICO_SLICE = SLICE


def opponent_for(level=None, budget_ms=BUDGET_MS, book=None, card=None):
    """The opponent the controller asks for the board's own turns and for hints
    (book: the layout's setup book, open, or None; card: its solved game,
    attila.opponent.card.Card, or None): a Pico's, node for node."""
    from attila.opponent.planner import Planner

    return Planner(STRONG if level is None else level, budget_ms,
                   slice_nodes=PICO_SLICE, book=book, card=card)


# The save's line of the simulator's own: who the board plays ("sim R strong").
# A board's restore reads the fields it knows and passes over this one.
SIM_FIELD = "sim"
LEVELS = LEVEL_NAMES


class SimStore(Store):
    """The simulator's --save: a whole save at every change (a computer's disk is
    fast), finished games archived in a games/ folder beside it (or its own, if one:
    an online game's default place), and a line saying who the board plays
    (saved_opponent() reads it back): a restart without --computer plays it again."""

    def __init__(self, path, computer=-1, level=None):
        import os

        here = os.path.dirname(path) or "."
        mine = os.path.basename(os.path.abspath(here)) == "games"
        Store.__init__(self, path, games=here if mine else os.path.join(here, "games"))
        self.line = "" if computer < 0 else "%s %s %s\n" % (
            SIM_FIELD, "RH"[computer], LEVELS[STRONG if level is None else level])

    def save(self, text):
        Store.save(self, text + self.line if text else text)


def sim_store(save, computer=-1, level=None):
    return SimStore(save, computer, level)


def saved_opponent(text):
    """(computer side, level) a save text's "sim" line gives, or None."""
    for line in text.split("\n"):
        words = line.split()
        if len(words) == 3 and words[0] == SIM_FIELD and words[1] in ("R", "H") \
                and words[2] in LEVELS:
            return "RH".index(words[1]), LEVELS.index(words[2])
    return None


class Rig:
    """One simulated board: layout, pieces, virtual hardware, Board, Controller.

    book: the layout's setup book (attila.opponent.book, open) the board places from,
    as a flashed board does with its layout.book; None: setup is searched.
    card: the layout's solved game (attila.opponent.card.Card), as on a board's microSD
    card, or its opening table (attila.opponent.opening), as in a flashed board's flash;
    coach: judge the player's turns with the card (attila.play.coach).
    """

    def __init__(self, layout, modules, tiles=None, first=ROMANS, computer=-1,
                 speed=1.0, save=None, profile=None, store=None, level=None, book=None,
                 card=None, coach=False, online=None):
        self.layout = layout
        self.modules = modules
        self.speed = speed
        if store is None:
            store = sim_store(save, computer, level) if save else MemoryStore()
        self.store = store
        self.book = book
        self.card = card
        if coach and (card is None or not card.whole):
            raise AttilaError("the coach needs the solved game: give --card DIR")
        # A flashed board's controller (its opponent at a Pico's pace); the
        # coach off unless asked, MENU switches it between games.
        self.controller = assembly.build_controller(
            layout, store, tiles, computer, STRONG if level is None else level, BUDGET_MS, book,
            card, coach, first, slice_nodes=PICO_SLICE, party=online)
        self.online = online  # the Party of online play (attila_sim.online links it), or None
        self.table = Table(layout, self.controller.game.supply)
        if profile is not None:
            self.wiring = profile.wiring(layout, modules)
            self.leds = profile.leds(self.wiring)
            debouncer = profile.debouncer(layout.size)
        else:
            self.wiring = Wiring(layout, modules)
            self.leds = Leds(self.wiring)
            debouncer = Debouncer(layout.size)
        self.switches = VirtualSwitches(self.table, self.wiring)
        self.strip = VirtualStrip(self.leds.count, self.leds.bpp)
        self.buttons = VirtualButtons()
        self.heard = Heard()  # what the board tells once as a whole (its own action)
        self.board = Board(self.controller, self.switches, self.strip, self.wiring,
                           debouncer, self.buttons, self.leds, console=self.heard)
        # Colour byte positions of each square in the strip, in R, G, B order.
        order = self.leds.order
        self._taps = tuple(
            tuple(self.wiring.square_led[sq] * self.leds.bpp + order.index(c) for c in "RGB")
            for sq in range(layout.size)
        )
        self.now = 0
        self.period = STEP_MS  # ms until the next loop step (THINK_STEP_MS while it thinks)
        self._down_at = [0] * len(BUTTONS)
        self._up_at = [-1] * len(BUTTONS)
        self._replay = []
        self._replayed = 0
        self.review = None  # the replay's analysis (attila_sim.review), if any
        self.said = ""  # what the last replay step did
        # A saved game was found: its pieces are still on the board, as after
        # a power cut.
        game = self.controller.game
        if game.history:
            self.table.arrange(game.knights[0], game.knights[1], game.scorched)
        # Power on: the first scans must hold for the debounce time.
        self.board.step(self.now)
        self.settle()

    @classmethod
    def from_file(cls, path, **kw):
        """A rig for a layout file."""
        layout, modules, tiles = layoutfile.load(path)
        return cls(layout, modules, tiles, **kw)

    # -- the clock -------------------------------------------------------------------

    def advance_to(self, now_ms):
        """Run the board's main loop up to `now_ms`: a step every STEP_MS, or
        THINK_STEP_MS after a step that searched and left the LEDs as they
        were (a Pico's loop, main.py's run)."""
        steps = 0
        while self.now + self.period <= now_ms and steps < MAX_STEPS:
            self.now += self.period
            self._let_go()
            if self.online is not None and self.online.pump is not None:
                # The network before the step: what it brings is told by the
                # Board's step (its action, then the status) before anyone
                # reads the controller between two steps.
                self.online.pump(self.now, 0)
            wrote = self.board.step(self.now)
            self.period = THINK_STEP_MS if not wrote and self.board.searching else STEP_MS
            steps += 1
        if steps == MAX_STEPS:
            self.now = now_ms - now_ms % STEP_MS
            self.period = STEP_MS

    def advance(self, ms):
        self.advance_to(self.now + ms)

    def settle(self):
        """Let the sensors settle after a hand movement, then the board finish
        what it does once the squares are still (save the game, plan a move)."""
        self.advance(SETTLE_MS)
        for _ in range(MAX_STEPS):
            if not self.controller.busy():
                break
            self.advance(STEP_MS)

    def think(self, limit_ms=THINK_LIMIT_MS):
        """Run the clock while the board works something out (its own action,
        a hint), as the window's clock runs on while nobody types: the text
        mode's board finishes its search without a `wait`."""
        end = self.now + limit_ms
        while self.controller.busy() and self.now < end:
            self.advance(STEP_MS)

    def set_speed(self, speed):
        self.speed = min(64.0, max(1 / 16, speed))

    # -- what hands do ----------------------------------------------------------------

    def lift(self, square):
        return self.table.lift(square)

    def take(self, kind):
        """Pick a piece up from beside the board ('?': the one the game calls for)."""
        if kind == actions.CALLED_FOR:
            game = self.controller.game
            if game.phase == SCORCH:
                kind = TILE
            elif game.phase == SETUP:
                kind = ROMAN if game.side == ROMANS else HUN
            elif game.phase == OVER:
                raise TableError("no piece to take from beside the board: the game is over")
            else:
                raise TableError("no piece to take from beside the board now: lift a knight")
        return self.table.take(kind)

    def put(self, square):
        return self.table.put(square, scorched=self.scorched(square))

    def scorched(self, square):
        """True when the game has scorched `square` (its tile is no piece to lift)."""
        return bool(self.controller.game.scorched >> square & 1)

    def blocked(self, square):
        """Why the held piece cannot go down on `square`, in words ("" when it can)."""
        return self.table.blocked(square, scorched=self.scorched(square))

    def drop(self):
        return self.table.drop()

    def clear_table(self):
        self.table.clear()

    def sense(self, mask):
        """Make the switches read exactly `mask` (square order) from now on."""
        self.table.sense(mask)

    def button_down(self, name):
        """A button goes down (a key or the mouse holds it)."""
        b = BUTTONS[name]
        self.buttons.held |= 1 << b
        self._down_at[b] = self.now
        self._up_at[b] = -1

    def button_up(self, name):
        """The button is let go; a tap shorter than MIN_PRESS_MS of the clock
        is held that long, so the board's button debounce still sees it."""
        b = BUTTONS[name]
        at = self._down_at[b] + MIN_PRESS_MS
        if self.now >= at:
            self.buttons.held &= ~(1 << b)
        else:
            self._up_at[b] = at

    def _let_go(self):
        for b in range(len(self._up_at)):
            if 0 <= self._up_at[b] <= self.now:
                self.buttons.held &= ~(1 << b)
                self._up_at[b] = -1

    def hint_refused(self):
        """Why MENU's short press would not show a hint now, "" when it would
        (text mode's `hint`: the word a player guesses for it)."""
        c = self.controller
        if c.mode not in (PLAY, CORRECT) or c.game.phase == OVER:
            why = actions.NO_HINT.get(MODE_NAMES[c.mode], actions.NO_HINT["over"])
            return "no hint now: " + why
        return actions.BOARDS_TURN % SIDE_NAMES[c.computer] if c.own() else ""

    def self_test(self):
        """The self-test (on a board: MENU held at power-on)."""
        self.controller.self_test(self.now)

    def do(self, steps):
        """Carry out parsed steps (attila_sim.actions); all of them or none.

        The steps are first tried on the table alone, out of the sensors'
        sight (the clock does not run): a line that cannot be done whole
        raises TableError and changes nothing. After each step the sensors
        see (a lift, a put, a button press...) the clock runs SETTLE_MS, so
        every change is read on its own.
        """
        before = self.table.snapshot()
        try:
            for step in steps:
                self._try(step)
        finally:
            self.table.restore(before)
        for step in steps:
            self._step(step)

    def _hands(self, step):
        """Carry out a step's hand movement (take, drop, lift, put); False when
        the step is not one."""
        verb = step[0]
        if verb == "take":
            self.take(step[1])
        elif verb == "drop":
            self.drop()
        elif verb == "lift":
            self.lift(step[1])
        elif verb == "put":
            if self.table.held() is None:
                self.take(actions.CALLED_FOR)
            self.put(step[1])
        else:
            return False
        return True

    def _try(self, step):
        """A step's hand movement on the table only; TableError if it cannot be done."""
        verb = step[0]
        if verb == "next" and not self._replay:
            raise TableError("nothing to replay (start with --replay FILE)")
        if verb == "hint" and self.hint_refused():
            raise TableError(self.hint_refused())
        if verb == "raw" and step[1] >> self.wiring.sensor_bits:
            raise TableError("raw reading %#x has bits beyond the %d sensors"
                             % (step[1], self.wiring.sensor_bits))
        self._hands(step)

    def _step(self, step):
        verb = step[0]
        if verb == "wait":
            self.advance(step[1])
            return
        if verb == "next":
            n = step[1]
            self.said = "replay: done"
            while n and self.replaying():
                at = self._replayed
                self.said = self.replay_step()
                if self._replayed == at:
                    raise TableError(self.said)  # the steps before it stay done
                n -= 1
            return
        if verb == "hint":
            if self.controller.plan.hinting:
                return  # shown already: a press more would count towards a new game
            step = ("press", "menu", actions.SHORT_PRESS_MS)
            verb = "press"
        if self._hands(step):
            if verb in ("take", "drop"):
                return  # nothing the sensors see
        elif verb == "press":
            # Held step[2] ms from the loop step that sees it down, let go at
            # the first step from then on, whatever the steps' lengths (a
            # hint searches in short steps).
            self.button_down(step[1])
            up = self.now + self.period + step[2]
            self._up_at[BUTTONS[step[1]]] = up
            self.advance_to(up)
        elif verb == "clear":
            self.clear_table()
        elif verb == "sense":
            self.sense(step[1])
        elif verb == "raw":
            self.sense(self.wiring.squares(step[1]))
        elif verb == "selftest":
            self.self_test()
        self.settle()

    # -- what the board shows -----------------------------------------------------------

    def shown(self):
        """The bytes the LEDs show: the strip's last write."""
        return self.strip.sent

    def colours(self):
        """RGB per square, decoded from the strip bytes through the wiring."""
        sent = self.strip.sent
        return [(sent[r], sent[g], sent[b]) for r, g, b in self._taps]

    def status(self):
        return self.controller.status()

    def quit_words(self):
        """What a player quitting with a knight in hand should know ("" if nothing):
        the save holds the game without that lift, so it resumes with the knight
        back where it was picked up."""
        held = self.table.held()
        if held is None or held.origin < 0 or held.kind not in (ROMAN, HUN) \
                or not getattr(self.store, "path", None):
            return ""
        name = self.layout.names[held.origin]
        return ("the %s knight in your hand was lifted from %s: the saved game resumes "
                "with it back on %s" % ("Roman" if held.kind == ROMAN else "Hun", name, name))

    def mode_name(self):
        return MODE_NAMES[self.controller.mode]

    def position(self):
        return notation.format_position(self.controller.game)

    def details(self):
        """A few lines for the side panel: mode, game so far, clock."""
        game = self.controller.game
        c = self.controller
        mode = self.mode_name()
        if mode == "play" and game.phase == SETUP:
            mode = "setup"  # the reader's word; the controller plays setup in its PLAY mode
        out = ["Mode: %s" % mode, "Position: %s" % self.position()]
        if self._replay:
            # Before the log: the panel cuts what does not fit at the bottom.
            out.append("Replay: step %d of %d (Space: next)" % (self._replayed, len(self._replay)))
            out += self.review_lines()
        log = notation.log(game)
        if log:
            words = log.split()
            out.append("Log: " + ("... " if len(words) > 8 else "") + " ".join(words[-8:]))
        out.append("Tiles left: %d.  Clock x%g" % (game.tiles(), self.speed))
        if self.online is not None:
            from attila_sim.online import details

            out += details(self.online)
        elif c.computer >= 0:
            out.append("The board plays the %s." % ("Romans", "Huns")[c.computer])
        return out

    # -- replay ---------------------------------------------------------------------------

    def start_replay(self, items, review=None):
        """Items of a game log to carry out one by one with replay_step();
        `review` (attila_sim.review.ReplayReview) analyses them for the panel."""
        self._replay = list(items)
        self._replayed = 0
        self.review = review

    def review_lines(self, wait=False):
        """The analysis of the last replay step done (waiting for it if `wait`)."""
        if self.review is None:
            return []
        if wait:
            self.review.wait(self._replayed)
        return self.review.lines(self._replayed)

    def replaying(self):
        return self._replayed < len(self._replay)

    def replay_progress(self):
        """(steps done, steps in all) of the replay."""
        return self._replayed, len(self._replay)

    def replay_step(self):
        """Carry out the next item of the replay; returns a line saying what.

        A step that cannot be done (a square taken...) is not used up: clear
        the way and ask for it again.
        """
        if not self.replaying():
            return "replay: done" if self._replay else ""
        item = self._replay[self._replayed]
        try:
            self.do(actions.turn(self.layout, item))
        except (TableError, AttilaError) as e:
            return "replay step %d %s: %s" % (self._replayed + 1, item, e)
        self._replayed += 1
        return "replay step %d of %d: %s" % (self._replayed, len(self._replay), item)

    def replay_all(self):
        while self.replaying():
            self.replay_step()
