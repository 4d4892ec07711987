"""One board: sensors -> debounce -> controller -> LEDs, one tick at a time.

Board.step(now_ms) is the whole main loop body of every port:

    raw = scanner.scan()                  chain-order bits
    occupied = wiring.squares(raw)        square-order bits (when raw changed)
    stable = debouncer.update(...)        -> controller.sense() when it changed
    buttons.read() (own debounce)         -> controller.press() on each press
    controller.tick(now_ms)
    controller.cue -> sounds.play(), then 0; sounds.step(now_ms)
    controller.said changed? -> console(controller.status()), after
                             console.tell(controller.decision()) once a
                             decision of the board's own (controller.decided)
    frame changed? -> leds.render(frame, strip.buf); strip.write()

A step where nothing changed does little: the debouncers are skipped while
their reading is the stable one (Debouncer.quiet), the squares are worked
out only for a new raw scan: an idle step must leave most of the 10 ms loop
asleep (a diode matrix's scan costs more, as it waits between rows).

Buttons already held when the board starts are not presses: the port has
read them as a power-up gesture (power_up(), the same on every port).

The controller keeps the protocol of attila.controls.Controls
(attila.play.controller.Controller does; a test's smaller one inherits the
no-op rest). The hardware objects are
duck-typed so the ports, the simulator and the tests hand in their own:
  scanner.scan() -> int          raw sensor bits in chain order
  strip.buf (bytearray), strip.write()
  buttons.read() -> int          bit b set while button b is held
                                 (bit 0 undo, bit 1 menu: the controller's numbers)
  sounds.play(cue, now), .step(now), .playing   (attila.sound.Sounds)
  console(text)                  prints a status line (the port's print)
  console.tell(text)             (optional) a line that must not be replaced by
                                 the next status line (else console(text))
A step with nothing new allocates nothing (proved under MicroPython with
micropython.heap_lock() in tests/ports).

A 74HC165 chain's scan carries, above the chain bits, the number of a module
that does not answer (attila.sensing.chain). Once that has held for the debounce
time the controller is told (controller.chain(module, now_ms), 0 when every
module answers again); meanwhile the game waits: no reading and no button
reaches the controller, and the first reading after it is the table as it
is then.
"""

from attila.compat import const
from attila.leds.strip import Leds
from attila.sensing.debounce import Debouncer
from attila.ticks import ticks_diff

BUTTON_HOLD_MS = const(30)

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
    """Glue of one physical (or simulated) board around a controller."""

    def __init__(
        self,
        controller,
        scanner,
        strip,
        wiring,
        debouncer,
        buttons=None,
        leds=None,
        button_hold_ms=BUTTON_HOLD_MS,
        buttons_count=2,
        sounds=None,
        console=None,
    ):
        self.controller = controller
        self.scanner = scanner
        self.strip = strip
        self.wiring = wiring
        self.debouncer = debouncer
        self.buttons = buttons
        self.leds = leds if leds is not None else Leds(wiring)
        if len(strip.buf) < self.leds.bytes_needed():
            raise ValueError(
                "strip buffer has %d bytes; %d LEDs x %d need %d"
                % (len(strip.buf), self.leds.count, self.leds.bpp, self.leds.bytes_needed())
            )
        self._keys = Debouncer(buttons_count, button_hold_ms)  # used when there are buttons
        self._held = -1  # debounced buttons held (-1: not read yet)
        self.sounds = sounds
        self._said = -1
        self._text = ""
        self._decided = controller.decided
        self.console = console
        self._tell = getattr(console, "tell", console)
        # Bound once: called every step.
        self._scan = scanner.scan
        self._read = buttons.read if buttons is not None else None
        self._raw = -1  # last raw scan (-1: none yet) ...
        self._squares = 0  # ... and its squares
        self._pressed = -1  # last raw button reading
        self._bits = wiring.sensor_bits  # a scan's bits above these: the chain's fault
        self._fault = 0  # module the scans name as not answering (0: none) ...
        self._fault_t = 0  # ... since then
        self.fault = 0  # the one the controller was told (held for the debounce time)
        self._sensed = -1  # last mask handed to controller.sense (-1: none yet)
        self._shown = bytearray(len(controller.frame))  # frame on the LEDs
        self._level = -1  # brightness the LEDs were rendered with
        self.occupied = 0  # stable occupancy, square order
        self.writes = 0  # strip writes so far

    def step(self, now_ms):
        """One tick; True when the LEDs were written.

        What did not change costs nothing: the squares of a raw scan are
        worked out when the scan changed, and a debouncer is fed only when
        the reading changed or it is timing a change (not `quiet`). The
        work of a change is in helpers: a function with more than 11 slots
        of locals and stack gets its frame from the heap on MicroPython
        (VM_MAX_STATE_ON_STACK), and that search through a fragmented heap
        cost an idle step on the RP2040 a quarter of a millisecond; the
        idle path stays within it (tests/ports/test_frames.py).
        """
        c = self.controller
        self._inputs(now_ms)
        c.tick(now_ms)
        if c.cue:
            self._cue(c, now_ms)
        sounds = self.sounds
        if sounds is not None and sounds.playing:
            sounds.step(now_ms)
        if self.console is not None and c.said != self._said:
            self._say()
        wrote = c.frame != self._shown or self.leds.brightness != self._level
        if wrote:
            self._show(c.frame)
        return wrote

    def _inputs(self, now_ms):
        """The sensors and the buttons, read and debounced; True when the
        controller was handed a change."""
        acted = False
        raw = self._scan()
        if raw != self._raw or not self.debouncer.quiet:
            acted = self._sense(raw, now_ms)
        read = self._read
        if read is not None:
            raw = read()  # the buttons
            if raw != self._pressed or not self._keys.quiet:
                if self._press(raw, now_ms):
                    acted = True
        return acted

    def _sense(self, raw, now_ms):
        """A new raw scan, or one the debouncer is timing; True when the
        controller sensed a new stable mask."""
        deb = self.debouncer
        if raw != self._raw:
            self._raw = raw
            self._squares = self.wiring.squares(raw)
            fault = raw >> self._bits
            if fault != self._fault:
                self._fault = fault
                self._fault_t = now_ms
        if self._fault != self.fault:
            self._chain(now_ms)
            if self._fault != self.fault:
                self._raw = -1  # still being timed: the next step comes back here
        stable = deb.update(self._squares, now_ms)
        if stable != self._sensed and deb.ready and not self.fault:
            self._sensed = stable
            self.occupied = stable
            self.controller.sense(stable, now_ms)
            return True
        return False

    def _chain(self, now_ms):
        """A module not answering (or all answering again) for the debounce
        time: the controller is told."""
        if ticks_diff(now_ms, self._fault_t) < self.debouncer.hold_ms:
            return
        self.fault = self._fault
        self.controller.chain(self.fault, now_ms)

    def _press(self, pressed, now_ms):
        """A new button reading, or one its debouncer is timing."""
        self._pressed = pressed
        keys = self._keys
        return self._buttons(self.controller, keys.update(pressed, now_ms), keys.ready, now_ms)

    def _cue(self, c, now_ms):
        """The controller's cue, played once (then 0)."""
        cue = c.cue
        c.cue = 0
        if self.sounds is not None:
            self.sounds.play(cue, now_ms)

    def _show(self, frame):
        """The frame on the LEDs."""
        self._shown[:] = frame
        leds = self.leds
        self._level = leds.brightness
        leds.render(frame, self.strip.buf)
        self.strip.write()
        self.writes += 1

    def _buttons(self, c, held, ready, now_ms):
        """Presses and releases of the debounced buttons; True when there were any."""
        if self._held < 0:
            if ready:
                self._held = held  # held since power-up: not a press
            return False
        if held == self._held or not ready:
            return False
        if self.fault:  # the game waits for the chain (a hold started before ends)
            held &= self._held
            if held == self._held:
                return False
        down = held & ~self._held
        up = self._held & ~held
        self._held = held
        b = 0
        while down or up:
            if down & 1:
                c.press(b, now_ms)
            if up & 1:
                c.release(b, now_ms)
            down >>= 1
            up >>= 1
            b += 1
        return True

    def _say(self):
        """The status line on the console, asked for whenever it may have changed."""
        c = self.controller
        self._said = c.said
        if c.decided != self._decided:  # the board's own action, told once as a whole
            self._decided = c.decided
            self._tell(c.decision())
        text = c.status()
        if text != self._text:
            self._text = text
            self.console(text)

    def set_brightness(self, level):
        """Brightness 0..255; the LEDs follow on the next step."""
        self.leds.brightness = 0 if level < 0 else 255 if level > 255 else level
