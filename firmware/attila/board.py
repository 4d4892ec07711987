"""One board: sensors -> debounce -> controller -> LEDs, one tick at a time.

Board.step(now_ms) is the whole main loop body of every port:

    raw = scanner.scan()                  chain-order bits
    occupied = wiring.squares(raw)        square-order bits (when raw changed)
    stable = debouncer.update(...)        -> controller.sense() when it changed
    buttons.read() (own debounce)         -> controller.press() on each press
    controller.tick(now_ms)
    controller.cue -> sounds.play(), then 0; sounds.step(now_ms)
    controller.said changed? -> console(controller.status())
    frame changed? -> leds.render(frame, strip.buf); strip.write()
    controller.flush(now_ms), if it has one: slow work it kept for after the LEDs

A step where nothing changed does little: the debouncers are skipped while
their reading is the stable one (Debouncer.quiet), the squares are worked
out only for a new raw scan. On the emulated RP2040 an idle step of main.py
takes about 0.4 ms of its 10 ms loop, 0.8 ms with a diode matrix (its scan
waits between rows; make bench).

Buttons already held when the board starts are not presses: the port has
read them as a power-up gesture (power_up(), the same on every port).

The hardware objects are duck-typed so the ports, the simulator and the
tests hand in their own:
  scanner.scan() -> int          raw sensor bits in chain order
  strip.buf (bytearray), strip.write()
  buttons.read() -> int          bit b set while button b is held
                                 (bit 0 undo, bit 1 menu: the controller's numbers)
  sounds.play(cue, now), .step(now), .playing   (attila.sound.Sounds)
  console(text)                  prints a status line (the port's print)
  controller.flush(now_ms)       optional: called at the end of every step,
                                 after the LEDs are written (a save to flash
                                 takes 15-20 ms, a littlefs compaction 110+)
A step with nothing new allocates nothing (proved under MicroPython with
micropython.heap_lock() in tests/ports).

A 74HC165 chain's scan carries, above the chain bits, the number of a module
that does not answer (attila.chain). Once that has held for the debounce
time the controller is told (controller.chain(module, now_ms), 0 when every
module answers again); meanwhile the game waits: no reading and no button
reaches the controller, and the first reading after it is the table as it
is then.
"""

from attila.compat import const
from attila.leds import Leds
from attila.sensing import Debouncer
from attila.ticks import ticks_diff

BUTTON_HOLD_MS = const(30)

# What the buttons held at power-up ask for (contract C4).
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


def exists(path):
    """True when the file `path` is there (the maintenance marker)."""
    try:
        open(path).close()
        return True
    except OSError:
        return False


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
        self._release = getattr(controller, "release", None)
        # Optional: slow work (the save) the controller keeps until the LEDs are out.
        self._flush = getattr(controller, "flush", None)
        self.sounds = sounds
        # cue and said arrive with the controller of contract C2; until then
        # the status line is compared as text after each input.
        self._cues = hasattr(controller, "cue")
        self._said_known = hasattr(controller, "said")
        self._said = -1
        self._text = ""
        self.console = console if hasattr(controller, "status") else None
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
        self._tell = getattr(controller, "chain", None)
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
        acted = self._inputs(now_ms)
        c.tick(now_ms)
        if self._cues and c.cue:
            self._cue(c, now_ms)
        sounds = self.sounds
        if sounds is not None and sounds.playing:
            sounds.step(now_ms)
        console = self.console
        if console is not None and (acted or self._said_known and c.said != self._said):
            self._say(acted)
        wrote = c.frame != self._shown or self.leds.brightness != self._level
        if wrote:
            self._show(c.frame)
        if self._flush is not None:
            self._flush(now_ms)  # after the LEDs: a save does not delay them
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
        if self._tell is not None:
            self._tell(self.fault, now_ms)

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
            if up & 1 and self._release is not None:
                self._release(b, now_ms)
            down >>= 1
            up >>= 1
            b += 1
        return True

    def _say(self, acted):
        """The status line on the console whenever it may have changed."""
        c = self.controller
        if self._said_known:
            said = c.said
            if said == self._said:
                return
            self._said = said
        elif not acted:
            return
        text = c.status()
        console = self.console
        if text != self._text and console is not None:  # (step() has seen it is not)
            self._text = text
            console(text)

    def set_brightness(self, level):
        """Brightness 0..255; the LEDs follow on the next step."""
        self.leds.brightness = 0 if level < 0 else 255 if level > 255 else level


def open_book(path, layout):
    """(the layout's setup book, "") or (None, the one console line that says
    why setup is searched). Never raises: a missing or damaged book must not
    stop the board. The file stays open; a lookup reads a few records."""
    if not exists(path):
        return None, "no setup book (%s): the board searches its placements" % path
    try:
        from attila import book

        return book.open(path, layout), ""
    except Exception as e:  # BookError, OSError, MemoryError: the search plays on
        return None, "setup book not used (%s): the board searches its placements" % e


def open_opening(path, layout):
    """(the layout's opening table, the console line that says so) or (None,
    the line that says why the first turn is searched; "" when there is no
    table: most layouts have none). Never raises, as open_book. The file
    stays open; a lookup reads one block."""
    if not exists(path):
        return None, ""
    f = None
    try:
        from attila.opening import Opening

        f = open(path, "rb")
        return Opening(f, layout, path), "opening table: the game's first turn of play is exact"
    except Exception as e:  # CardError, OSError, MemoryError: the search plays on
        if f is not None:
            f.close()
        return None, "opening table not used (%s): the game's first turn of play is searched" % (e,)


def open_card(hardware, prof, layout, feed=None):
    """(the layout's solved game on the profile's microSD card, the console
    line that says so) or (None, the line that says why not; "" when the
    profile names no card). Never raises: without the card the board
    searches. The card is read straight, a block at a time (attila.fat).
    feed: the watchdog's, called while the card starts (seconds on some)."""
    if not getattr(prof, "sdcard", False):
        return None, ""
    try:
        from attila.card import FILE, Card
        from attila.fat import first_block

        dev = hardware.sdcard(prof) if feed is None else hardware.sdcard(prof, feed)
        card = Card(dev, layout, first_block(dev, FILE), FILE)
        return card, "card: the solved game of %s (%d blocks): the board plays it" % (
            card.title, card.blocks)
    except Exception as e:  # OSError (no card), CardError, MemoryError: the search plays on
        return None, "card not used (%s): the board searches" % (e,)


def controller_for(prof, layout, tiles=None, store=None, book=None, card=None):
    """The Controller a profile asks for; its opponent also answers hints
    (book: the layout's setup book, card: its solved game or its opening
    table, or None)."""
    from attila.controller import Controller
    from attila.opponent import chooser

    coach = None
    if card is not None and card.whole:  # not the opening table: off unless the
        # profile says so; MENU switches it between games
        from attila.coach import Coach

        coach = Coach(card, getattr(prof, "coach", False))
    return Controller(layout, store=store, tiles=tiles, computer=prof.computer,
                      opponent=chooser(prof.level, prof.budget_ms, book, card), coach=coach)


def assemble(prof, layout, modules, hardware, controller, buttons=None, order=None,
             console=None):
    """The Board of a profile and a layout on a port's `hardware` bindings.

    hardware gives scanner(prof, wiring), strip(prof, count), buttons(prof)
    and buzzer(prof) (a tone(hz, duty_u16) function, asked for only when the
    profile turns the sound on); `buttons` is the reader when the port made
    it already, `order` the colour order of the port's strip buffer if not
    the profile's, `console` prints the status line.
    """
    wiring = prof.wiring(layout, modules)
    sounds = None
    if prof.sound:
        from attila.sound import Sounds

        sounds = Sounds(hardware.buzzer(prof), prof.sound)
    return Board(
        controller,
        hardware.scanner(prof, wiring),
        hardware.strip(prof, wiring.led_count),
        wiring,
        prof.debouncer(layout.size),
        buttons if buttons is not None else hardware.buttons(prof),
        prof.leds(wiring, order),
        prof.button_debounce_ms,
        sounds=sounds,
        console=console,
    )
