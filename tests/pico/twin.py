"""Two machines, one path: the emulated Pico and its host twin.

Mirror (tools/pico/hands.py): the simulator's own Rig carries out a script
and the emulated Pico gets the same reed switches and buttons.

Twin: the same firmware (attila.board.Board + the profile's Controller),
run on the host and stepped at the Pico's own loop times (the ticks_ms its
loop read before each scan, taken from the chip) with the readings its pins
had then. Its strip writes must be the Pico's LED frames, byte for byte and
in order; its controller then says what the Pico's is doing (mode, status,
position) without asking the chip.
"""

import bisect
import copy
import os

from attila import board as boards
from attila.store import Store
from pico.hands import Mirror  # noqa: F401  (the tests import it from here)


class Twin:
    """The firmware on the host, stepped at the Pico's loop times (see module doc)."""

    def __init__(self, pico_board, inputs, folder, saves=None):
        b = pico_board
        self.pico_board = b
        self.inputs = inputs  # (ns, squares, buttons), growing
        # The save files as the chip had them at boot ({name: bytes}).
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "game.txt")
        for name in ("game.txt", "game.txt.tmp"):
            full = os.path.join(folder, name)
            if os.path.exists(full):
                os.remove(full)
            if saves and name in saves:
                with open(full, "wb") as f:
                    f.write(saves[name])
        store = Store(path)
        # The setup book the flash holds, as main.py opens it (build.plan puts it there).
        from attila_tools.board import build

        book = build.book_for(b.layout_path)[0]
        self.book = boards.open_book(book, b.layout)[0] if book else None
        self.controller = boards.controller_for(b.prof, b.layout, b.tiles, store, self.book)
        self._now_ns = 0
        twin = self

        class Scanner:
            def scan(self):
                return b.wiring.chain(twin._at(twin._now_ns)[1])

        class Buttons:
            def read(self):
                return twin._at(twin._now_ns)[2]

        class Strip:
            def __init__(self, n):
                self.buf = bytearray(n)

            def write(self):
                twin.writes.append(bytes(self.buf))

        leds = b.prof.leds(b.wiring)
        self.board = boards.Board(
            self.controller, Scanner(), Strip(leds.bytes_needed()), b.wiring,
            b.prof.debouncer(b.layout.size), Buttons(), leds, b.prof.button_debounce_ms)
        self.writes = []
        self.done = 0  # scans replayed

    def _at(self, ns):
        times = [t for t, _s, _b in self.inputs]
        k = bisect.bisect_right(times, ns) - 1
        return self.inputs[k] if k >= 0 else (0, 0, 0)

    def catch_up(self, scans):
        """Step through the Pico's scans not replayed yet: [(us, ticks_ms)]."""
        for us, ms in scans[self.done:]:
            self._now_ns = us * 1000
            self.board.step(ms)
        self.done = len(scans)

    def rendered_at(self, now_ms):
        """The strip bytes the twin's present state gives at time `now_ms` (no side effect)."""
        c = self.controller
        # The store and the setup book are shared, not copied (a tick does not
        # save; a lookup only reads); the copy thinks on a copy of the planner,
        # if it thinks at all.
        c = copy.deepcopy(c, {id(c.store): c.store, id(self.book): self.book})
        c.tick(now_ms)
        leds = self.board.leds
        buf = bytearray(leds.bytes_needed())
        leds.render(c.frame, buf)
        return bytes(buf)


def frames_of_boot(pico, boot):
    """The LED frames of one boot of the chip, as bytes."""
    return [f.data for f in pico.frames if f.boot == boot]


def scans_of_boot(pico, boot_start_us):
    """The scan marks from a boot on (global us >= its start)."""
    return [s for s in pico.scans if s[0] >= boot_start_us]


def cp_ticks_ms(us):
    """CircuitPython 10's supervisor.ticks_ms() on the RP2040 at timer `us`
    (ports/raspberrypi port_get_raw_ticks: 1/1024 s ticks from time_us_64;
    supervisor_ticks_ms64: ticks * 1000 / 1024; from 2**29 - 65536)."""
    raw = int(us) * 512 // 15625 // 32
    return (raw * 1000 // 1024 + 0x1FFF0000) % (1 << 29)


def cp_steps(pico, since_us=0):
    """code.py's loop steps [(us, ticks_ms)] for Twin.catch_up on CircuitPython.

    keypad scans in the background, so a step is told by the loop's watchdog
    feed: its clock is the first timer read after the core woke for it, and
    its readings are those of the last sensor scan before it woke.
    """
    scans = [s[0] for s in pico.scans]
    out = []
    for fed, woke, reads in pico.feeds:
        if fed < since_us or not reads:
            continue
        k = bisect.bisect_right(scans, woke) - 1
        out.append((scans[k] if k >= 0 else woke, cp_ticks_ms(reads[0][1])))
    return out
