"""The controller on every interpreter: frames, a correction, an undo, a resume,
the self-test, and an idle path that allocates nothing (MicroPython heap_lock)."""

from attila.play.controller import Controller
from attila.play.modes import (
    CLEAR,
    CORRECT,
    CUE_ILLEGAL,
    CUE_NONE,
    GAME_OVER,
    PLAY,
    RESUME,
    SELFTEST,
)
from attila.play.presses import BUTTON_MENU, BUTTON_UNDO
from attila.play.settling import CALM_MS
from attila.game.geometry import from_rows
from attila.leds.palette import QUANTUM
from attila.opponent.chooser import Chooser
from attila.game.notation import log
from attila.game.rules import MOVE, SCORCH
from attila.saves.store import MemoryStore

RECT = from_rows(["....."] * 4)
SETUP6 = "@a1 @b1 @c1 @d1 @e1 @a2"
BLUE = (0, 96, 255)
AMBER = (255, 112, 0)
WHITE = (255, 255, 255)
RED = (255, 0, 0)
GREEN = (0, 255, 0)


class Hands:
    """Pieces on a virtual board, a clock in steps of 100 ms, each reading
    followed by a tick as in a Board's loop step; after each movement the
    hands rest until the squares have settled (unless rest=False)."""

    def __init__(self, c, mask=0, rest=True):
        self.c = c
        self.mask = mask
        self.t = 0
        self.rest = rest
        c.sense(mask, 0)
        c.tick(0)

    def step(self):
        self.t += 100
        self.c.sense(self.mask, self.t)
        self.c.tick(self.t)
        if self.rest:
            self.at(self.t + CALM_MS)

    def put(self, name):
        self.mask |= 1 << RECT.index(name)
        self.step()

    def lift(self, name):
        self.mask &= ~(1 << RECT.index(name))
        self.step()

    def press(self, button):
        """A click: down and up at once."""
        self.t += 100
        self.c.press(button, self.t)
        self.c.release(button, self.t)
        self.c.tick(self.t)

    def at(self, t):
        self.t = t
        self.c.tick(t)

    def phase(self, period, offset):
        """On to the next time that is `offset` into a blink `period`."""
        t = self.t // period * period + offset
        self.at(t if t > self.t else t + period)

    def rgb(self, name):
        k = 3 * RECT.index(name)
        f = self.c.frame
        return (f[k], f[k + 1], f[k + 2])

    def lit(self):
        out = {}
        for name in RECT.names:
            if self.rgb(name) != (0, 0, 0):
                out[name] = self.rgb(name)
        return out

    def play(self, text):
        for item in text.split():
            if item[0] == "@":
                self.put(item[1:])
            else:
                self.lift(item[0:2])
                self.put(item[3:5])
                if len(item) > 5:
                    self.put(item[6:8])


def test_setup_and_move_frames():
    h = Hands(Controller(RECT))
    assert h.c.mode == PLAY
    assert len(h.lit()) == 20 and h.rgb("c3") == BLUE
    h.play(SETUP6)
    assert h.c.game.phase == MOVE
    assert h.lit() == {"a1": BLUE, "c1": BLUE, "e1": BLUE}
    h.lift("a1")
    assert h.lit() == {"a1": (0, 24, 64), "c2": BLUE, "b3": BLUE}
    h.put("c2")
    assert h.c.game.phase == SCORCH
    assert h.rgb("c2") == (0, 24, 64) and h.rgb("a1") == WHITE and h.rgb("b1") == (0, 0, 0)
    h.put("a1")
    assert h.lit() == {"b1": AMBER, "d1": AMBER, "a2": AMBER}


def test_illegal_move_correction_and_resume_when_fixed():
    h = Hands(Controller(RECT))
    h.play(SETUP6)
    h.lift("a1")
    h.put("b2")
    assert h.c.mode == CORRECT
    h.phase(400, 0)
    assert h.lit() == {"b2": RED}
    h.phase(400, 200)
    assert h.lit() == {"a1": BLUE}
    assert h.c.status() == "a1 to b2 is not a knight's jump: move the piece on b2 to a1 (Roman knight)"
    h.lift("b2")
    h.put("a1")
    assert h.c.mode == PLAY and len(h.c.game.history) == 6


def test_undo_a_turn():
    h = Hands(Controller(RECT))
    h.play(SETUP6 + " a1-c2,a1")
    h.press(BUTTON_UNDO)
    assert h.c.mode == CORRECT and h.c.game.phase == SCORCH
    # One step at a time: first the tile off a1 ...
    h.phase(400, 0)
    assert h.lit() == {"a1": RED}
    assert h.c.status() == "Undo the scorch of a1: take the tile off a1"
    h.lift("a1")
    assert h.c.mode == PLAY
    h.press(BUTTON_UNDO)
    assert h.c.mode == CORRECT and h.c.game.phase == MOVE
    # ... then the knight from c2 back to a1 (where the tile stood).
    h.phase(400, 0)
    assert h.lit() == {"c2": RED}
    h.phase(400, 200)
    assert h.lit() == {"a1": BLUE}
    assert h.c.status() == "Undo the move from a1 to c2: move the Roman knight on c2 back to a1"
    h.lift("c2")
    h.put("a1")
    assert h.c.mode == PLAY and log(h.c.game) == SETUP6


def test_a_second_undo_before_the_take_back_is_done_is_refused_and_said():
    """Pressed twice because the first seemed ignored: one action goes back, not two;
    the board says why (status line, the illegal cue) and the LEDs keep guiding it."""
    h = Hands(Controller(RECT))
    h.play(SETUP6 + " a1-c2,a1")
    h.press(BUTTON_UNDO)
    h.c.cue = CUE_NONE
    h.press(BUTTON_UNDO)
    assert h.c.cue == CUE_ILLEGAL
    assert len(h.c.game.history) == 7 and h.c.game.phase == SCORCH
    # Seen on the board too: the whole board flashes red twice (0.3 s), then the
    # take-back is guided on as before.
    assert h.lit() == {name: RED for name in RECT.names}
    h.at(h.t + 150)
    assert h.rgb("b1") == (0, 0, 0)
    h.at(h.t + 100)
    assert h.lit() == {name: RED for name in RECT.names}
    h.at(h.t + 100)
    assert h.c.status() == ("One take-back at a time (UNDO again once it is done). "
                            "Undo the scorch of a1: take the tile off a1")
    h.phase(400, 0)
    assert h.lit() == {"a1": RED}
    h.lift("a1")
    assert h.c.mode == PLAY and h.c.status().startswith("Romans: ")
    h.press(BUTTON_UNDO)  # done on the table: the next press goes further back
    assert h.c.status() == "Undo the move from a1 to c2: move the Roman knight on c2 back to a1"


def test_a_new_game_says_nothing_of_the_squares_before_they_are_read():
    """At power-up the console said "take every piece off the board (20 left: ...)"
    before the first reading, then "Romans: place a knight": one honest line first."""
    c = Controller(RECT)
    assert c.status() == "New game: reading the squares"
    Hands(c, 0)
    assert c.status() == "Romans: place a knight on a lit square (knight 1 of 3)", c.status()


def test_a_saved_game_says_nothing_of_the_squares_before_they_are_read():
    """After a cut the console said "7 squares differ" (the squares not read yet,
    taken as empty) and then "The board matches it": one honest line first."""
    store = MemoryStore()
    h = Hands(Controller(RECT, store=store))
    h.play(SETUP6)
    c = Controller(RECT, store=store)
    assert c.mode == RESUME
    assert c.status() == ("Saved game found (6 actions, Romans to move). MENU: resume, "
                          "UNDO: discard. Reading the squares")
    Hands(c, h.mask)
    assert c.status().endswith("The board matches it"), c.status()


def test_resume_from_a_saved_game():
    store = MemoryStore()
    h = Hands(Controller(RECT, store=store))
    h.play(SETUP6 + " a1-c2,a1")
    saved = store.text
    # Power cut; the tile on a1 was knocked off meanwhile.
    c = Controller(RECT, store=store)
    assert c.mode == RESUME
    h2 = Hands(c, h.mask & ~(1 << RECT.index("a1")))
    assert c.status() == (
        "Saved game found (8 actions, Huns to move). MENU: resume, UNDO: discard. "
        "1 square differs from it"
    )
    h2.phase(400, 0)
    assert h2.lit() == {"b1": AMBER, "c2": BLUE, "c1": BLUE, "d1": AMBER, "e1": BLUE,
                        "a2": AMBER}
    h2.phase(400, 200)
    assert h2.rgb("a1") == WHITE
    h2.press(BUTTON_MENU)
    assert c.mode == CORRECT
    h2.put("a1")
    assert c.mode == PLAY and store.text == saved
    # And discarding: UNDO at boot.
    c = Controller(RECT, store=store)
    h3 = Hands(c, h.mask)
    h3.press(BUTTON_UNDO)
    assert c.mode == CLEAR and store.text is None


def test_self_test_reports_dead_and_stuck_sensors():
    c = Controller(RECT)
    h = Hands(c, rest=False)
    c.self_test(100)
    assert c.mode == SELFTEST
    h.at(100)
    assert h.lit() == {"a1": (255, 0, 0)}
    h.at(250)
    assert h.lit() == {"a1": (0, 255, 0)}
    h.at(400)
    assert h.lit() == {"a1": (0, 0, 255)}
    h.at(550)
    assert h.lit() == {"b1": (255, 0, 0)}
    h.mask = 1 << RECT.index("e4")  # e4 is stuck: reads occupied all along
    h.step()
    h.at(100 + 150 * 60)  # the sweep is over: every square waits for a magnet
    assert len(h.lit()) == 20 and h.rgb("e4") == GREEN and h.rgb("e3") == WHITE
    for name in RECT.names:
        if name not in ("e4", "c3"):  # c3 is dead: never reads occupied
            h.put(name)
            assert h.rgb(name) == GREEN
            h.lift(name)
            assert h.rgb(name) == (0, 0, 0)
    assert h.lit() == {"c3": WHITE, "e4": GREEN}
    h.press(BUTTON_MENU)  # finish
    assert c.status() == (
        "Self-test: dead sensors (slow red): c3; stuck sensors (fast red): e4 (MENU: leave)"
    )
    h.at(20000)
    lit = h.lit()
    assert lit["c3"] == RED and lit["e4"] == RED and lit["a1"] == GREEN
    h.at(20200)
    lit = h.lit()
    assert lit["c3"] == RED and "e4" not in lit
    h.at(20600)
    assert "c3" not in h.lit()
    h.press(BUTTON_MENU)
    assert c.mode == CORRECT  # e4 still reads occupied on an empty board


def _idle(c, mask, t0):
    """Ticks and unchanged readings for 5 s; with heap_lock where there is one."""
    try:
        import micropython

        lock = micropython.heap_lock
        unlock = micropython.heap_unlock
    except (ImportError, AttributeError):
        lock = unlock = None
    c.tick(t0)
    if lock is not None:
        lock()
    try:
        t = t0
        changed = 0
        while t < t0 + 5000:
            c.sense(mask, t)
            if c.tick(t):
                changed += 1
            t += 10
    finally:
        if unlock is not None:
            unlock()
    return changed


def test_idle_path_allocates_nothing_in_every_mode():
    store = MemoryStore()
    h = Hands(Controller(RECT, store=store))
    assert _idle(h.c, h.mask, 1000) == 0  # setup: steady colours
    h.play(SETUP6)
    h.lift("a1")
    assert _idle(h.c, h.mask, 10000) == 0  # a knight in the hand
    h.put("b2")
    assert h.c.mode == CORRECT
    assert _idle(h.c, h.mask, 20000) == 24  # blinking at 2.5 Hz: 24 changes in 5 s
    h.lift("b2")
    h.put("a1")
    h.press(BUTTON_MENU)  # hint: blinking
    assert _idle(h.c, h.mask, 30000) > 0
    h.play("a1-c2,a1 b1-d2,b1 c1-e2,c1 d1-b2,d1 e1-d3,e1 a2-c3,a2 c2-a3,c2 b2-a4,b2 "
           "e2-d4,e2 d2-b3,d2 a3-c4,a3 c3-e4,c3")
    assert h.c.game.trapped()  # trapped knights flash
    assert _idle(h.c, h.mask, 40000) > 0
    h.play("d3-b4,d3")
    assert h.c.mode == GAME_OVER
    assert _idle(h.c, h.mask, 50000) > 0
    h.press(BUTTON_MENU)
    assert h.c.mode == CLEAR
    assert _idle(h.c, h.mask, 60000) > 0
    r = Controller(RECT, store=MemoryStore(store.text))
    assert r.mode == RESUME
    assert _idle(r, 0, 1000) > 0
    r.self_test(7000)
    assert _idle(r, 0, 7000) > 0


class _Planner(Chooser):
    """A Planner that never decides (a long search): the times of its slices."""

    def __init__(self):
        self.times = [0] * 1000  # (made before the heap is locked)
        self.n = 0

    def start(self, game, now_ms, level=None):
        return False

    def step(self, now_ms):
        self.times[self.n] = now_ms
        self.n += 1
        return False


def test_thinking_animates_and_allocates_nothing():
    planner = _Planner()
    h = Hands(Controller(RECT, computer=1, opponent=planner))
    h.put("a1")  # the Huns' turn: the board thinks once the squares settle
    h.at(h.t + 10)
    assert h.c.thinking() and h.c.searching
    assert h.c.status() == "The board plays the Huns: thinking..."
    t0 = h.t + 10
    planner.n = 0
    assert _idle(h.c, h.mask, t0) == 50  # the light moves on every 100 ms
    # A slice every loop step, but in those that repaint the moving light: the
    # first of each time slot (docs/pages/inside/opponent.md).
    sliced = [t for t in planner.times[:planner.n] if t > t0]
    ticks = range(t0 + 10, t0 + 5000, 10)
    assert sliced == [t for t in ticks if t // QUANTUM == (t - 10) // QUANTUM]


def test_a_whole_action_is_said_in_notation_and_in_words():
    # attila.game.notation.in_words: the board's own decision (decision()), and
    # any side's action given as notation (a remote player's, say).
    from attila.game.notation import in_words

    assert in_words(1, "@c3") == "Huns: @c3 (a knight on c3)"
    assert in_words(0, "b3-d4,c4") == \
        "Romans: b3-d4,c4 (the knight on b3 to d4, then scorch c4)"
    c = Controller(RECT, computer=1)
    c.sense(0, 0)
    c.tick(600)
    c.sense(1, 1000)  # a Roman knight on a1
    for t in range(1000, 3000, 10):
        c.tick(t)
    assert c.decided == 1
    assert c.decision() == "Huns: @b1 (a knight on b1)"
