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

from attila import assembly as boards
from attila.saves.store import Store
from tools.pico.hands import Mirror  # noqa: F401  (the tests import it from here)


class Twin:
    """The firmware on the host, stepped at the Pico's loop times (see module doc)."""

    def __init__(self, pico_board, inputs, folder, saves=None):
        b = pico_board
        self.pico_board = b
        self.inputs = inputs  # (ns, squares, buttons), growing
        # The save files as the chip had them at boot ({name: bytes}).
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "game.txt")
        os.makedirs(os.path.join(folder, "journal", "now"), exist_ok=True)
        for name in ("game.txt", "game.txt.tmp", "journal/now/game.txt.jnl"):
            full = os.path.join(folder, name)
            if os.path.exists(full):
                os.remove(full)
            if saves and name in saves:
                with open(full, "wb") as f:
                    f.write(saves[name])
        store = Store(path, journal=True)  # as main.py's
        # The setup book the flash holds, as main.py opens it (build.plan puts it there).
        from attila_tools.board import build

        book = build.book_for(b.layout_path)[0]
        self.book = boards.open_book(book, b.layout)[0] if book else None
        # Its opening table, as main.py (code.py) opens it when no card covers the game.
        opening = build.opening_for(b.layout_path)[0]
        names = getattr(b, "flashed_names", None)
        if names is not None and build.OPENING_FILE not in names:
            opening = None  # left out of a small file system (a Pico W's), as make flash does
        self.opening = boards.open_opening(opening, b.layout)[0] if opening else None
        self.controller = boards.controller_for(b.prof, b.layout, b.tiles, store, self.book,
                                                self.opening)
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

    def shared(self, controller=None):
        """The memo for a copy of the twin's controller (or of `controller`, one
        of its copies): the store and the setup book are shared, not copied;
        the opening table is copied by hand (an open file cannot be, nor a
        memoryview): its search and its block, the file and the fold map
        shared (it seeks before every read)."""
        c = self.controller if controller is None else controller
        memo = {id(c.store): c.store}
        if self.book is not None:
            memo[id(self.book)] = self.book
        card = getattr(c.plan.opponent, "card", None)
        if card is not None:
            memo[id(card)] = _table_copy(card)
        return memo

    def rendered_at(self, now_ms):
        """The strip bytes the twin's present state gives at time `now_ms` (no side effect)."""
        c = self.controller
        # The store and the setup book are shared, not copied (a tick does not
        # save; a lookup only reads); the copy thinks on a copy of the planner
        # (and of the opening table), if it thinks at all (see shared()).
        c = copy.deepcopy(c, self.shared())
        c.tick(now_ms)
        leds = self.board.leds
        buf = bytearray(leds.bytes_needed())
        leds.render(c.frame, buf)
        return bytes(buf)


def _table_copy(card):
    """A copy of an open attila.opponent.card.Card (the opening table): see Twin.shared."""
    new = copy.copy(card)
    new._buf = bytearray(card._buf)
    new._body = memoryview(new._buf)[:len(card._body)]
    return new


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


def cp_catch_up(twin, pico, since_us=0):
    """Step the twin through code.py's loop steps not replayed yet (CircuitPython).

    Each step is told by its watchdog feed (pico.feeds); its clock is one of
    the ticks_ms values the chip's timer gave during that step (the first
    one after it woke, unless background work ran before code.py read it):
    the latest one (read before the step's LED frame went out, if it wrote
    one) that makes the twin write exactly the LED frames the chip wrote in
    that step. Where two clocks of a step both do (a long step that wrote
    nothing: its own clock read first, and a later one past the next
    animation slot whose frame is still the same), the later one can leave
    the twin a slot ahead, and the next step then matches with none of its
    clocks: the twin goes back one step and takes the next clock there that
    agrees. Returns the number of steps whose clock was not the first value
    tried (a twin that cannot be made to agree fails the frames).
    """
    scans = [s[0] for s in pico.scans]
    feeds = [f for f in pico.feeds if f[0] >= since_us and f[2]]
    frames = [f for f in pico.frames if f.t0 * 1000 >= since_us * 1000]
    last = feeds[twin.done - 1][0] if twin.done else since_us
    def copied(board):
        return copy.deepcopy(board, twin.shared(board.controller))

    def restore(board, n):
        twin.board = board
        twin.controller = board.controller
        del twin.writes[n:]

    def agrees(step, k):
        """Step the twin at the step's k-th clock; True if it wrote the chip's frames."""
        woke, cands, want = step
        at, ms = cands[k]
        n = len(twin.writes)
        k_scan = bisect.bisect_right(scans, at) - 1
        twin._now_ns = (scans[k_scan] if k_scan >= 0 else woke) * 1000
        twin.board.step(ms)
        return twin.writes[n:] == want

    def first_agreeing(step):
        """(the first clock that agrees, the twin stepped at it; or -1, the
        twin stepped at the last one tried), the board before the step and
        the number of writes then."""
        before, n = copied(twin.board), len(twin.writes)
        for k in range(len(step[1])):
            if k:
                restore(copied(before), n)
            if agrees(step, k):
                return k, before, n
        return -1, before, n

    moved = 0
    back = None  # the step before: (it, the board before it, writes before it, its clock)
    for fed, woke, reads, slept in feeds[twin.done:]:
        first = 0 if slept or len(reads) < 2 else 1
        cands = []
        for at, us in reads[first:]:
            ms = cp_ticks_ms(us)
            if at <= fed and (not cands or cands[-1][1] != ms):
                cands.append((at, ms))
        shown = [f for f in frames if last < f.t0 <= fed]
        last = fed
        if shown:
            # The clock was read before the frame went out.
            cands = [c for c in cands if c[0] < shown[0].t0] or cands
        # The latest value first: background work may run between waking and
        # the step, and a step that repainted the same bytes wrote nothing.
        cands.reverse()
        step = (woke, cands, [f.data for f in shown])
        k, before, n = first_agreeing(step)
        if k < 0 and back is not None:
            # Back one step: its next clock that agrees, then this step again.
            b_step, b_before, b_n, b_k = back
            kept = twin.board, twin.writes[:]
            for j in range(b_k + 1, len(b_step[1])):
                restore(copied(b_before), b_n)
                if not agrees(b_step, j):
                    continue
                k, before, n = first_agreeing(step)
                if k >= 0:
                    moved += 1
                    break
            if k < 0:  # no better: as it was (the frames will differ)
                twin.board, twin.controller = kept[0], kept[0].controller
                twin.writes[:] = kept[1]
        moved += k > 0
        back = (step, before, n, k) if k >= 0 else None
        twin.done += 1
    return moved
