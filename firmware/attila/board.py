"""One board: sensors -> debounce -> controller -> LEDs, one loop step at a time.

Board.step(now_ms) is the whole main loop body of every port: the inputs
read and handed to the controller (attila.sensing.inputs), the controller's
tick (it paints the frame), then what it asks for: its cue to the sounds,
its own action told once (decision()) and its status line to the console,
its frame to the LEDs when tick() says the frame changed. A step with nothing new allocates nothing, and keeps every
frame of its functions off MicroPython's heap (tests/ports/test_frames.py).
The ports talk to the board through this face alone: step(), searching,
trouble(), self_test(), resume(), set_brightness().
"""

from attila.compat import const
from attila.leds.strip import Leds
from attila.sensing.debounce import HOLD_MS
from attila.sensing.inputs import Inputs

# What the buttons held at power-up ask for: the same gestures on every port
# (power_up(); docs/pages/inside/architecture.md).
RUN = const(0)
SELF_TEST = const(1)  # MENU held
MAINTENANCE = const(2)  # UNDO and MENU held, or a file named `maintenance`
MAINTENANCE_FILE = "maintenance"
# Put there by a tool that restarts the board mid-game (attila games): the
# port takes the saved game back at boot without asking, then removes it.
RESUME_FILE = "resume"
# Wait before reading buttons just set up: their pulls charge the wires
# (80 kOhm x ~100 pF: microseconds), and an RP2040 pad leaves reset pulled down.
PULLS_MS = const(5)


def power_up(held, marker=False):
    """RUN, SELF_TEST or MAINTENANCE from the buttons held at power-up
    (bit 0 UNDO, bit 1 MENU) and whether the maintenance file is there."""
    if marker or held & 3 == 3:
        return MAINTENANCE
    if held & 2:
        return SELF_TEST
    return RUN


class Board:
    """One physical (or simulated) board around a controller (attila.controls.Controls).

    The hardware is duck-typed, so the ports, the simulator and the tests
    hand in their own: scanner.scan() -> int and buttons.read() -> int
    (attila.sensing.inputs), strip.buf (bytearray) and strip.write(),
    sounds.play(cue, now), .step(now), .playing (attila.sound.Sounds),
    console(text) (the port's print), console.tell(text) (optional: a line
    the next status line must not replace; else console(text)).
    """

    def __init__(self, controller, scanner, strip, wiring, debouncer, buttons=None, leds=None,
                 button_hold_ms=HOLD_MS, buttons_count=2, sounds=None, console=None):
        self.controller = controller
        self.inputs = Inputs(controller, scanner, wiring, debouncer, buttons, button_hold_ms,
                             buttons_count)
        self.strip = strip
        self.wiring = wiring
        self.leds = leds if leds is not None else Leds(wiring)
        if len(strip.buf) < self.leds.bytes_needed():
            raise ValueError(
                "strip buffer has %d bytes; %d LEDs x %d need %d"
                % (len(strip.buf), self.leds.count, self.leds.bpp, self.leds.bytes_needed())
            )
        self.sounds = sounds
        self.console = console
        self._tell = getattr(console, "tell", console)
        self._decided = controller.decided  # the controller's `decided` at the last told action
        self.searching = False  # a search is under way: the port's loop steps again at once
        self._said = -1  # the controller's status_count at the last status line
        self._text = ""
        self._level = -1  # brightness the LEDs were rendered with (-1: none yet, a write due)
        self.writes = 0  # strip writes so far

    def step(self, now_ms):
        """One loop step; True when the LEDs were written."""
        c = self.controller
        self.inputs.step(now_ms)
        wrote = c.tick(now_ms) or self.leds.brightness != self._level
        if c.cue:
            self._cue(c, now_ms)
        sounds = self.sounds
        if sounds is not None and sounds.playing:
            sounds.step(now_ms)
        self.searching = c.searching
        if self.console is not None and c.status_count != self._said:
            self._say()
        if wrote:
            self._show(c.frame)
        return wrote

    def trouble(self, text):
        """A problem the player must see (the status line, the trouble sign)."""
        self.controller.trouble(text)

    def self_test(self, now_ms):
        """The self-test (MENU held at power-up)."""
        self.controller.self_test(now_ms)

    def resume(self):
        """Take the saved game back without asking (a tool restarted the board mid-game)."""
        self.controller.resume()

    def set_brightness(self, level):
        """Brightness 0..255; the LEDs follow on the next step."""
        self.leds.brightness = 0 if level < 0 else 255 if level > 255 else level

    def _cue(self, c, now_ms):
        """The controller's cue, played once."""
        cue = c.take_cue()
        if self.sounds is not None:
            self.sounds.play(cue, now_ms)

    def _show(self, frame):
        """The frame on the LEDs."""
        leds = self.leds
        self._level = leds.brightness
        leds.render(frame, self.strip.buf)
        self.strip.write()
        self.writes += 1

    def _say(self):
        """The status line on the console, asked for whenever it may have changed."""
        c = self.controller
        self._said = c.status_count
        if c.decided != self._decided:  # the board's own action, told once as a whole
            self._decided = c.decided
            self._tell(c.decision())
        text = c.status()
        if text != self._text:
            self._text = text
            self.console(text)
