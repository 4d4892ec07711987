"""The sound language (attila.sound) and the Board's outputs: cues, status line, power-up.

Runs on CPython and MicroPython. The tone output, the controller and the
hardware are tiny fakes; the time is handed in, as the ports' loop does.
"""

from attila.board import MAINTENANCE, RUN, SELF_TEST, Board, power_up
from attila.controls import Controls
from attila.game.modules import compose, place_module
from attila.sensing.debounce import Debouncer
from attila.sound import LOUDEST, Sounds, TUNES
from attila.play.modes import CUE_ERROR, CUE_ILLEGAL, CUE_OVER, CUE_PLACED, CUE_TURN
from attila.sensing.wiring import Wiring


class Tone:
    """A tone output that records (time, hz, duty) of every call."""

    def __init__(self):
        self.calls = []
        self.now = 0

    def __call__(self, hz, duty):
        self.calls.append((self.now, hz, duty))


def play(sounds, tone, cue, until, t=0):
    """Play `cue` at t and step every 10 ms up to `until`; the tone calls."""
    del tone.calls[:]
    tone.now = t
    sounds.play(cue, t)
    while t < until:
        t += 10
        tone.now = t
        sounds.step(t)
    return tone.calls


def test_each_cue_has_its_own_short_tune():
    tone = Tone()
    s = Sounds(tone, 100)
    assert tone.calls == [(0, 0, 0)]  # silent from the start
    assert play(s, tone, CUE_PLACED, 100) == [(0, 2093, LOUDEST), (40, 0, 0)]
    assert play(s, tone, CUE_ILLEGAL, 400) == [(0, 1319, LOUDEST), (90, 0, 0),
                                           (120, 880, LOUDEST), (300, 0, 0)]
    assert play(s, tone, CUE_TURN, 400) == [(0, 1568, LOUDEST), (80, 0, 0),
                                        (110, 2093, LOUDEST), (250, 0, 0)]
    assert play(s, tone, CUE_OVER, 900) == [(0, 1047, LOUDEST), (110, 1319, LOUDEST),
                                        (220, 1568, LOUDEST), (330, 2093, LOUDEST),
                                        (660, 0, 0)]
    assert play(s, tone, CUE_ERROR, 900) == [(0, 880, LOUDEST), (160, 0, 0), (250, 880, LOUDEST),
                                           (410, 0, 0), (500, 880, LOUDEST), (660, 0, 0)]
    tunes = [TUNES[c] for c in (CUE_PLACED, CUE_ILLEGAL, CUE_TURN, CUE_OVER, CUE_ERROR)]
    assert len(set(tunes)) == 5
    for tune in tunes:
        assert sum(tune[i] for i in range(1, len(tune), 2)) <= 700, tune  # a cue, not a melody


def test_volume_sets_the_duty_cycle_and_a_new_cue_cuts_the_old():
    tone = Tone()
    s = Sounds(tone, 25)
    calls = play(s, tone, CUE_OVER, 50)
    assert calls == [(0, 1047, LOUDEST // 4)] and s.playing
    calls = play(s, tone, CUE_PLACED, 100, 60)
    assert calls == [(60, 2093, LOUDEST // 4), (100, 0, 0)] and not s.playing
    assert play(s, tone, 0, 50) == [] and play(s, tone, 99, 50) == []  # no such cue


def test_notes_follow_a_wrapping_clock():
    tone = Tone()
    s = Sounds(tone)
    t = (1 << 29) - 20  # supervisor.ticks_ms() wraps at 2**29
    del tone.calls[:]
    s.play(CUE_PLACED, t)
    s.step(t + 30)
    assert s.playing
    s.step((t + 40) & 0x1FFFFFFF)
    assert not s.playing and tone.calls[-1] == (0, 0, 0)


def test_power_up_gestures():
    # Contract C4: MENU held = self-test; UNDO+MENU held or the file = maintenance.
    assert power_up(0) == RUN
    assert power_up(1) == RUN  # UNDO alone means nothing at power-up
    assert power_up(2) == SELF_TEST
    assert power_up(3) == MAINTENANCE
    assert power_up(0, True) == MAINTENANCE
    assert power_up(2, True) == MAINTENANCE


class Controller(Controls):
    def __init__(self, size):
        self.frame = bytearray(3 * size)
        self.log = []

    def sense(self, mask, now):
        self.log.append(("sense", mask, now))

    def press(self, b, now):
        self.log.append(("press", b, now))

    def tick(self, now):
        return False


class Talker(Controller):
    """A controller as the board reads it: cue, status_count and status()."""

    def __init__(self, size):
        Controller.__init__(self, size)
        self.cue = 0
        self.status_count = 0
        self.words = "one"

    def status(self):
        return self.words


class Keys:
    def __init__(self, held=0):
        self.held = held

    def read(self):
        return self.held


class Scanner:
    def scan(self):
        return 0


class Strip:
    def __init__(self, n):
        self.buf = bytearray(n)

    def write(self):
        pass


def board(controller, keys=None, sounds=None, console=None):
    layout, modules = compose([place_module(1, "2x2", 0, 0, 0)], "2x2", custom=True)
    return Board(controller, Scanner(), Strip(12), Wiring(layout, modules),
                 Debouncer(layout.size), keys, sounds=sounds, console=console)


def test_buttons_held_at_power_up_are_not_presses():
    c = Controller(4)
    keys = Keys(2)  # MENU held while the board starts
    b = board(c, keys)
    for t in range(0, 100, 10):
        b.step(t)
    keys.held = 0
    for t in range(100, 150, 10):
        b.step(t)
    keys.held = 2
    for t in range(150, 200, 10):
        b.step(t)
    assert [e for e in c.log if e[0] == "press"] == [("press", 1, 180)], c.log


def test_board_hands_each_cue_to_the_sounds_and_resets_it():
    c = Talker(4)
    tone = Tone()
    b = board(c, sounds=Sounds(tone))
    b.step(0)
    c.cue = CUE_TURN
    tone.now = 10
    b.step(10)
    assert c.cue == 0 and tone.calls[-1] == (10, 1568, LOUDEST)
    tone.now = 90
    b.step(90)
    assert tone.calls[-1] == (90, 0, 0)  # the note ended on the loop's clock
    quiet = board(Talker(4))  # no buzzer: the cue is reset all the same
    quiet.controller.cue = CUE_PLACED
    quiet.step(0)
    assert quiet.controller.cue == 0


def test_status_line_printed_when_status_count_changes():
    c = Talker(4)
    out = []
    b = board(c, console=out.append)
    b.step(0)
    assert out == ["one"]
    c.words = "two"
    b.step(10)
    assert out == ["one"]  # status_count unchanged: nothing to print
    c.status_count += 1
    b.step(20)
    c.status_count += 1  # may have changed, but the text is the same
    b.step(30)
    assert out == ["one", "two"], out


def test_a_controller_without_words_says_nothing():
    # Controls' defaults: no cue, status_count never grows, an empty status line.
    out = []
    keys = Keys()
    b = board(Controller(4), keys, console=out.append)
    for t in range(0, 50, 10):
        b.step(t)  # the first reading (the empty board) is an input
    keys.held = 1
    for t in range(50, 100, 10):
        b.step(t)
    assert out == []