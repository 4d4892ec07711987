"""One board: sensors -> debounce -> controller -> LEDs, one tick at a time.

Board.step(now_ms) is the whole main loop body of every port:

    raw = scanner.scan()                  chain-order bits
    occupied = wiring.squares(raw)        square-order bits
    stable = debouncer.update(...)        -> controller.sense() when it changed
    buttons.read() (own debounce)         -> controller.press() on each press
    controller.tick(now_ms)
    frame changed? -> leds.render(frame, strip.buf); strip.write()

The hardware objects are duck-typed so the ports, the simulator and the
tests hand in their own:
  scanner.scan() -> int          raw sensor bits in chain order
  strip.buf (bytearray), strip.write()
  buttons.read() -> int          bit b set while button b is held
                                 (bit 0 undo, bit 1 menu: the controller's numbers)
A step with nothing new allocates nothing (proved under MicroPython with
micropython.heap_lock() in tests/ports).
"""

from attila.compat import const
from attila.leds import Leds
from attila.sensing import Debouncer

BUTTON_HOLD_MS = const(30)


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
        self._keys = Debouncer(buttons_count, button_hold_ms) if buttons is not None else None
        self._held = 0  # debounced buttons held
        self._release = getattr(controller, "release", None)
        self._sensed = -1  # last mask handed to controller.sense (-1: none yet)
        self._shown = bytearray(len(controller.frame))  # frame on the LEDs
        self._level = -1  # brightness the LEDs were rendered with
        self.occupied = 0  # stable occupancy, square order
        self.writes = 0  # strip writes so far

    def step(self, now_ms):
        """One tick; True when the LEDs were written."""
        c = self.controller
        deb = self.debouncer
        stable = deb.update(self.wiring.squares(self.scanner.scan()), now_ms)
        if stable != self._sensed and deb.ready:
            self._sensed = stable
            self.occupied = stable
            c.sense(stable, now_ms)
        keys = self._keys
        if keys is not None:
            held = keys.update(self.buttons.read(), now_ms)
            if held != self._held and keys.ready:
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
        c.tick(now_ms)
        frame = c.frame
        leds = self.leds
        if frame != self._shown or leds.brightness != self._level:
            self._shown[:] = frame
            self._level = leds.brightness
            leds.render(frame, self.strip.buf)
            self.strip.write()
            self.writes += 1
            return True
        return False

    def set_brightness(self, level):
        """Brightness 0..255; the LEDs follow on the next step."""
        self.leds.brightness = 0 if level < 0 else 255 if level > 255 else level


def controller_for(prof, layout, tiles=None, store=None):
    """The Controller a profile asks for; its opponent also answers hints."""
    from attila.controller import Controller
    from attila.opponent import chooser

    return Controller(layout, store=store, tiles=tiles, computer=prof.computer,
                      opponent=chooser(prof.level, prof.budget_ms))


def assemble(prof, layout, modules, hardware, controller, buttons=None, order=None):
    """The Board of a profile and a layout on a port's `hardware` bindings.

    hardware gives scanner(prof, wiring), strip(prof, count) and
    buttons(prof); `buttons` is the reader when the port made it already,
    `order` the colour order of the port's strip buffer if not the profile's.
    """
    wiring = prof.wiring(layout, modules)
    return Board(
        controller,
        hardware.scanner(prof, wiring),
        hardware.strip(prof, wiring.led_count),
        wiring,
        prof.debouncer(layout.size),
        buttons if buttons is not None else hardware.buttons(prof),
        prof.leds(wiring, order),
        prof.button_debounce_ms,
    )
