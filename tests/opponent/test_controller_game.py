"""A whole game against the board's opponent, through the controller.

The human's pieces are moved by hand (sensor readings); the board's own
actions are carried out by following its LEDs alone: the square lit for a
placement, the blinking knight and its lit destination, then the lit square
to scorch.
"""

from brute import actions, rng_of

from attila.opponent.levels import BEGINNER, STRONG
from attila.opponent.planner import choose
from attila.play.modes import GAME_OVER
from attila.play.controller import Controller
from attila.play.modes import PLAY
from attila.play.settling import CALM_MS
from attila.game.geometry import from_rows
from attila.game.notation import log
from attila.game.rules import HUNS, MOVE, ROMANS, SCORCH, SETUP


class Hands:
    def __init__(self, controller):
        self.c = controller
        self.mask = 0
        self.t = 0
        self.c.sense(0, 0)

    def sense(self):
        self.t += 100
        self.c.sense(self.mask, self.t)
        self.c.tick(self.t)
        self.t += CALM_MS  # the hand rests: the board thinks once the squares settle
        self.c.tick(self.t)

    def put(self, sq):
        assert not self.mask >> sq & 1
        self.mask |= 1 << sq
        self.sense()

    def lift(self, sq):
        assert self.mask >> sq & 1
        self.mask &= ~(1 << sq)
        self.sense()

    def lit_at(self, phase_ms):
        """Squares lit at a point of the slow blink (0: lit half, 500: dark half)."""
        self.t = (self.t // 1000 + 1) * 1000 + phase_ms
        if self.t % 1600 < 200:  # not while trapped knights flash (1.6 s period)
            self.t += 1000
        self.c.tick(self.t)
        f = self.c.frame
        return {i for i in range(len(f) // 3) if f[3 * i] or f[3 * i + 1] or f[3 * i + 2]}

    def follow_leds(self):
        """Carry out the board's action as its LEDs show it."""
        game = self.c.game
        on, off = self.lit_at(0), self.lit_at(500)
        empty = {i for i in on | off if not self.mask >> i & 1}
        if game.phase == SETUP:
            assert len(empty) == 1, (on, off)
            self.put(empty.pop())
            return
        assert game.phase == MOVE
        blinking = {i for i in on - off if self.mask >> i & 1}
        assert len(blinking) == 1 and len(empty) == 1, (on, off)
        self.lift(blinking.pop())
        self.put(empty.pop())
        assert game.phase == SCORCH
        on, off = self.lit_at(0), self.lit_at(500)
        empty = {i for i in on | off if not self.mask >> i & 1}
        assert len(empty) == 1, (on, off)
        self.put(empty.pop())

    def act(self, text):
        layout = self.c.layout
        if text[0] == "@":
            self.put(layout.index(text[1:]))
            return
        step, burn = text.split(",")
        a, b = step.split("-")
        self.lift(layout.index(a))
        self.put(layout.index(b))
        self.put(layout.index(burn))


def _play_a_game(computer, level, seed):
    chosen = []

    def board_opponent(game):
        text = choose(game, level=level, budget_ms=10 ** 6, nodes=3000, seed=seed)
        chosen.append(text)
        return text

    layout = from_rows(["....."] * 4)
    c = Controller(layout, computer=computer, opponent=board_opponent)
    hands = Hands(c)
    rng = rng_of(seed)
    board_actions = []
    turns = 0
    while c.mode != GAME_OVER:
        assert c.mode == PLAY, c.status()
        game = c.game
        if game.side == computer:
            asked = len(chosen)
            hands.follow_leds()
            assert len(chosen) > asked or chosen  # the opponent was asked
            board_actions.append(log(c.game).split()[-1])
            assert board_actions[-1] == chosen[-1], (board_actions[-1], chosen[-1])
        else:
            hands.act(rng.choice(actions(game)))
        turns += 1
        assert turns < 40
    return c.game


def test_full_game_against_the_board_playing_the_huns():
    game = _play_a_game(HUNS, STRONG, 3)
    assert game.winner in (ROMANS, HUNS)
    # A random human against the strong board: the board wins.
    assert game.winner == HUNS, log(game)


def test_full_game_against_the_board_playing_the_romans_at_beginner_level():
    game = _play_a_game(ROMANS, BEGINNER, 8)
    assert game.winner in (ROMANS, HUNS)
    assert len(game.history) >= 6 + 2
