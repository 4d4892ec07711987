"""The board's inputs: the sensor scan and the buttons, read, debounced and handed to the controller.

What did not change costs nothing: a scan's squares are worked out only when
it changed, and a debouncer is fed only when its reading changed or it is
timing one (not `quiet`). Buttons held when the board starts are no presses
(the port read them as a power-up gesture, attila.board.power_up). A module
of the sensor chain that does not answer (attila.sensing.chain) is told to
the controller once it has held for the debounce time; meanwhile no reading
and no button reaches it.
"""

from attila.sensing.debounce import HOLD_MS, Debouncer
from attila.ticks import ticks_diff


class Inputs:
    """The sensors and buttons of one board, and what of them its controller was told.

    scanner.scan() -> int: raw sensor bits in chain order; buttons.read() ->
    int: bit b set while button b is held (bit 0 UNDO, bit 1 MENU), or None.
    """

    def __init__(self, controller, scanner, wiring, debouncer, buttons=None,
                 button_hold_ms=HOLD_MS, buttons_count=2):
        self.controller = controller
        self.wiring = wiring
        self.debouncer = debouncer
        self.buttons = buttons
        self._keys = Debouncer(buttons_count, button_hold_ms)  # used when there are buttons
        self._held = -1  # debounced buttons held (-1: not read yet)
        self._read = buttons.read if buttons is not None else None  # (bound once)
        self._raw = -1  # last raw scan (-1: none yet) ...
        self._squares = 0  # ... and its squares
        self._pressed = -1  # last raw button reading
        self._bits = wiring.sensor_bits  # a scan's bits above these: the chain's fault
        self._fault = 0  # module the scans name as not answering (0: none) ...
        self._fault_t = 0  # ... since then
        self.fault = 0  # the one the controller was told (held for the debounce time)
        self._sensed = -1  # last mask handed to controller.sense (-1: none yet)
        self.occupied = 0  # stable occupancy, square order
        self.use(scanner)

    def use(self, scanner):
        """Read the squares through `scanner` from now on."""
        self.scanner = scanner
        self._scan = scanner.scan  # (bound once: called every step)

    def step(self, now_ms):
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
