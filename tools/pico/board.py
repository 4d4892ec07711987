"""The Attila board around the emulated Pico, wired from a hardware profile.

    board = PicoBoard.flashed(tmpdir, "boards/4x5.json", "boards/profiles/pico.json")
    with board:
        board.pico.wait_for("attila:")        # main.py is up
        board.set_squares(1 << 0)              # a magnet on a1 (square order)
        board.run_ms(60)                       # let the debounce see it
        board.leds()                           # [(r, g, b)] per square, from the pin

The firmware's own attila.profile and attila.sensing.wiring, run on the host, say
which pin does what and which sensor of the chain sits under which square,
so a wrong pin or bit order on the board shows up as the wrong square. The
flash gets what `make flash` builds (attila_tools.board.build.plan: .mpy files,
main.py, layout.json, profile.json) as a ready littlefs image.

A profile for a Pico W runs on MicroPython's RPI_PICO_W build: the same
chip, its radio absent (rp2040js has none: nothing answers on GP23, 24, 25
and 29), its file system 848 KB (tools/pico/flashimage.py), so the layout's
opening table is left out as `make flash` leaves it out there
(attila_tools.board.room).

A CircuitPython profile runs on CircuitPython 10.2.1's own UF2: the flash
holds a CIRCUITPY volume made from the folder `attila flash --drive` fills
(tools/pico/circuitpy.py), and the firmware reads its switches with
CircuitPython's `keypad` in the background.

Only the RP2040 can be emulated (rp2040js): a Pico 2 (RP2350) or an ESP32
profile raises Unsupported with the reason.
"""

import os

from attila.game import layoutfile
from attila import profile as profiles

from . import circuitpy, flashimage
from .chip import Pico, PicoError, new_flash

UNDO, MENU = 0, 1
# sys.implementation._mpy of the UF2's MicroPython (v1.27.0): .mpy version
# 6.3, native arch 4 (armv6m), what `attila flash` reads from the chip.
MPY = 6 | 3 << 8 | 4 << 10


class Unsupported(PicoError):
    """A profile for a board the emulator cannot be (it says which and why)."""


def check_emulable(prof):
    """Unsupported unless the profile is for an RP2040 Pico (MicroPython or CircuitPython)."""
    if prof.port not in ("micropython", "circuitpython"):
        raise Unsupported("%s: a %s profile; the emulated Pico runs MicroPython and "
                          "CircuitPython only" % (prof.source, prof.port))
    model = prof.model.lower()
    if "pico 2" in model or "rp2350" in model:
        raise Unsupported("%s: %s (RP2350): rp2040js emulates the RP2040 only; "
                          "this profile cannot be run on the emulated Pico" % (prof.source, prof.model))
    if "pico" not in model and "rp2040" not in model:
        raise Unsupported("%s: board %r is not a Raspberry Pi Pico (RP2040)" % (prof.source, prof.model))


def gpio(pin):
    """The GPIO number of a profile's pin: 22, or CircuitPython's board name "GP22"."""
    if pin is None or isinstance(pin, int):
        return pin
    if isinstance(pin, str) and pin.startswith("GP") and pin[2:].isdigit():
        return int(pin[2:])
    raise Unsupported("pin %r: the emulated Pico knows GP0..GP29 only" % (pin,))


def copper(prof, modules):
    """The module boards' wiring read from their netlists (boards/pcb/*/*.net):
    which register input each square's switch drives and the LED chain's order
    inside each module, when the build is made of those boards (a 74HC165
    chain of the game's modules, no local orders or extra LEDs of another
    board); None otherwise, and the profile's own wiring stands."""
    if prof.sensor_kind != "74hc165" or prof.led_local or prof.sensor_local or prof.led_offset:
        return None
    kinds = {m.kind for m in modules}
    if not kinds <= {"2x2", "2x3"}:
        return None
    from attila_tools.hardware import netlist

    return {kind: netlist.module_wiring(kind) for kind in sorted(kinds)}


def config(prof, wiring, sd_image=None, sd_card=None):
    """What tools/pico/wires.mjs (and sdcard.mjs) need to know about the board's pins.

    sd_image: the microSD card's image file, when the profile has a slot
    (None: the slot is empty); sd_card: the card's kind and latencies
    ({"kind": "sdhc" | "sdsc" | "v1", "slow": bool}, tools/pico/sdcard.mjs)."""
    cfg = {"led": {"pin": gpio(prof.led_pin)}, "buzzer": gpio(prof.buzzer)}
    if getattr(prof, "sdcard", False):
        sck, mosi, miso, cs = (gpio(p) for p in prof.sd_pins)
        spi = prof.sd_spi if prof.sd_spi is not None else (sck >> 3) & 1  # RP2040: the pin's bus
        cfg["sdcard"] = {"spi": spi, "sck": sck, "mosi": mosi, "miso": miso, "cs": cs,
                         "image": os.path.abspath(sd_image) if sd_image else None,
                         "card": dict(sd_card or {})}
    kind = prof.sensor_kind
    if kind == "74hc165":
        cfg["sensors"] = {"kind": kind, "load": gpio(prof.load), "clock": gpio(prof.clock),
                          "data": gpio(prof.data), "spi": prof.spi,
                          "registers": list(wiring.registers)}
        if prof.pull is None:  # the board's own resistor on QH, the way an empty square reads
            cfg["resistors"] = {gpio(prof.data): 1 if prof.active_low else 0}
    elif kind == "matrix":
        cfg["sensors"] = {"kind": kind, "rows": [gpio(p) for p in prof.rows],
                          "cols": [gpio(p) for p in prof.cols]}
    else:
        # pull null: the board has its own resistors (to 3V3 when active low).
        external = None if prof.pull is not None else (1 if prof.active_low else 0)
        cfg["sensors"] = {"kind": kind, "pins": [gpio(p) for p in prof.sensor_pins],
                          "active_low": prof.active_low, "external": external}
    cfg["buttons"] = {"pins": [gpio(p) for p in prof.buttons],
                      "active_low": prof.buttons_active_low}
    return cfg


def build_for(profile_path):
    """The MicroPython build (flashimage.Build) a MicroPython profile's board runs."""
    return flashimage.build_for(profiles.load(profile_path).model)


def firmware_files(layout_path, profile_path, source=False, extra=None, out_dir=None,
                   native=True, notes=None):
    """{board path: bytes}: what `make flash` puts on a board, plus `extra`.

    The .mpy files are compiled into out_dir (default: build/flash, as make
    flash does); the native modules for the chip's arch (MPY), as `make
    flash` does when it has read the chip's, or kept source with
    native=False (as for a board that does not name its arch). What does
    not fit the board's file system is left out as `make flash` leaves it
    (attila_tools.board.room; `notes` gets its line).
    """
    from attila_tools.board import build, room

    files = {}
    arch = build.native_arch(MPY) if native else None
    plan = build.plan(layout_path, profile_path, source=source, out_dir=out_dir or build.BUILD,
                      arch=arch)
    fs = build_for(profile_path)
    plan, note = room.fit(plan, (flashimage.BLOCK_SIZE, fs.block_count))
    if note and notes is not None:
        notes.append(note)
    for dest, src in plan.items():
        with open(src, "rb") as f:
            files[dest] = f.read()
    files.update(extra or {})
    return files


def drive_folder(folder, layout_path, profile_path, source=False, extra=None):
    """A CIRCUITPY folder filled as `attila flash --drive` fills it (plus `extra` files)."""
    from attila_tools.board import drive

    os.makedirs(folder, exist_ok=True)
    files = drive.plan(layout_path, profile_path, source=source)
    drive.flash_drive(folder, files, say=lambda msg: None)
    for name, data in (extra or {}).items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    return folder


class PicoBoard:
    """An emulated Pico with a board's LEDs, reed switches and buttons on its pins."""

    def __init__(self, flash_path, layout_path, profile_path, flash_times="typical",
                 flash_data=False, sd_image=None, sd_card=None):
        self.prof = profiles.load(profile_path)
        check_emulable(self.prof)
        self.layout, self.modules, self.tiles = layoutfile.load(layout_path)
        self.wiring = self.prof.wiring(self.layout, self.modules)
        self.prof.check_sensors(self.wiring)
        self.copper = copper(self.prof, self.modules)
        self.layout_path = layout_path
        self.profile_path = profile_path
        self.pico = Pico(flash_path, config(self.prof, self.wiring, sd_image, sd_card),
                         flash_times=flash_times, flash_data=flash_data)
        self.squares = 0
        self.held = 0
        self.unplugged = 0  # the chain module whose cable is out (0: none)
        self.flashed_names = None  # the files flashed() put on the board, when it did
        self._started = False

    @classmethod
    def flashed(cls, folder, layout_path, profile_path, extra=None, source=False, out_dir=None,
                native=True, flash_times="typical", flash_data=False, sd_image=None,
                sd_card=None):
        """A board whose flash (folder/flash.bin) holds the firmware as `make flash` builds it
        (a CircuitPython profile: as `attila flash --drive` puts it on folder/CIRCUITPY)."""
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "flash.bin")
        if profiles.load(profile_path).port == "circuitpython":
            drive = drive_folder(os.path.join(folder, "CIRCUITPY"), layout_path, profile_path,
                                 source, extra)
            files = circuitpy.folder_files(drive)
            circuitpy.new_flash(path, files)
        else:
            files = firmware_files(layout_path, profile_path, source, extra, out_dir, native)
            new_flash(path, files, build_for(profile_path).uf2)
        board = cls(path, layout_path, profile_path, flash_times, flash_data, sd_image, sd_card)
        board.flashed_names = frozenset(files)
        return board

    @property
    def circuitpython(self):
        return self.prof.port == "circuitpython"

    def drive_files(self):
        """{path: bytes} on CIRCUITPY now (CircuitPython profiles)."""
        with open(self.pico.flash_path, "rb") as f:
            return circuitpy.read_files(f.read())

    def start(self):
        self.pico.start()
        self._started = True
        self.set_squares(self.squares)
        self.pico.set_buttons(self.held)
        if self.unplugged:
            self.unplug(self.unplugged)
        return self

    def close(self):
        self.pico.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    # -- hands ------------------------------------------------------------------
    def set_squares(self, mask):
        """Magnets on exactly the squares of `mask` (square order)."""
        self.squares = mask
        raw = self.wiring.chain(mask)
        closed = [raw >> k & 1 for k in range(self.wiring.sensor_bits)]
        regs = self.register_bytes(mask) if self.prof.sensor_kind == "74hc165" else []
        self.pico.set_sensors(closed, regs)

    def register_bytes(self, mask):
        """A 74HC165 chain's parallel inputs (D7..D0 per register) with magnets
        on `mask`: unused inputs tied to 3.3 V, as docs/pages/build/wiring.md says;
        as the module boards wire them (their netlists) when the build is made of them."""
        if self.copper:
            return self._copper_registers(mask)
        raw = self.wiring.chain(mask)
        closed_level = 0 if self.prof.active_low else 1
        regs = []
        base = 0
        for n in self.wiring.registers:
            v = 0
            for d in range(8):
                level = 1 if d >= n else (closed_level if raw >> (base + d) & 1 else 1 - closed_level)
                v |= level << d
            regs.append(v)
            base += n
        return regs

    def _copper_registers(self, mask):
        """Each module's register inputs as its board wires them (netlist)."""
        closed_level = 0 if self.prof.active_low else 1
        regs = []
        for m in sorted(self.modules, key=lambda m: m.number):
            v = 0xFF  # unused inputs tied to 3.3 V
            for k, d in enumerate(self.copper[m.kind]["inputs"]):
                on = mask >> self.layout.at(*m.places[k]) & 1
                level = closed_level if on else 1 - closed_level
                v = v & ~(1 << d) | level << d
            regs.append(v)
        return regs

    def led_squares(self):
        """Square of each LED of the chain (255: none), as the boards wire them."""
        if not self.copper:
            return self.wiring.led_square
        out = []
        for m in sorted(self.modules, key=lambda m: m.number):
            out += [self.layout.at(*m.places[k]) for k in self.copper[m.kind]["leds"]]
        return out

    def unplug(self, module):
        """The cable into chain module `module` out (1: the one at the Pico): from
        it on no register answers, and the one before shifts in its SER's
        pull-down. 0 (or None): every cable back in."""
        regs = self.wiring.register_modules
        if self.prof.sensor_kind != "74hc165":
            raise Unsupported("%s: a %s board has no module cable to unplug"
                              % (self.prof.source, self.prof.sensor_kind))
        if module and module not in regs:
            raise Unsupported("module %r: the chain has modules %s"
                              % (module, ", ".join(str(m) for m in sorted(set(regs)))))
        self.unplugged = module or 0
        if self._started:  # (else start() does it)
            self.pico.unplug(regs.index(module) if module else -1)

    def hold(self, button, held=True):
        """Hold (or let go of) button UNDO or MENU."""
        self.held = self.held | 1 << button if held else self.held & ~(1 << button)
        self.pico.set_buttons(self.held)

    def press(self, button, ms=80):
        """Press a button for `ms` of emulated time."""
        self.hold(button)
        self.pico.run_ms(ms)
        self.hold(button, False)

    def run_ms(self, ms):
        self.pico.run_ms(ms)

    # -- what the LEDs show --------------------------------------------------------
    def strip(self):
        """The bytes of the last LED frame on the pin (b"" before the first)."""
        return self.pico.frames[-1].data if self.pico.frames else b""

    def leds(self, data=None):
        """[(r, g, b)] per square of a frame (default: the last one on the pin)."""
        data = self.strip() if data is None else data
        order = self.prof.led_order
        bpp = len(order)
        out = [(0, 0, 0)] * self.layout.size
        for k, sq in enumerate(self.led_squares()):
            if sq == 255 or (k + 1) * bpp > len(data):
                continue
            px = dict(zip(order, data[k * bpp : (k + 1) * bpp]))
            out[sq] = (px.get("R", 0), px.get("G", 0), px.get("B", 0))
        return out

    def boot(self, max_ms=20000):
        """Run until main.py says what it is ("attila: ..."); returns that line."""
        at = self.pico.wait_for(b"attila:", max_ms, since=0)
        end = self.pico.wait_for(b"\n", 1000, since=at)
        # main.py reads its buttons once before this line (the power-up
        # gesture); on a direct-GPIO board that read of the GPIO register
        # looks like a sensor scan at the pins. The loop's scans come after.
        self.pico.scans = [s for s in self.pico.scans if s[0] >= self.pico.us]
        return self.pico.serial[at:end].decode().strip()
