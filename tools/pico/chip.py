"""The emulated Pico from Python: boot, run emulated time, talk to its REPL.

    with Pico(flash_path) as pico:           # boots MicroPython from the flash file
        pico.wait_for(b">>> ")                 # the REPL is up
        print(pico.exec("print(6 * 7)"))       # '42\\n'
        pico.run_ms(100)                       # 100 ms of emulated time
        pico.frames                            # LED frames decoded from the pin

Time only moves when the host runs the chip (run_ms, wait_for, exec), so a
test sees the same cycles on every machine. `pico.us` is the emulated time
in microseconds since the first boot; it keeps counting across reboots
(`pico.boot` says how many times the chip has started).

The chip itself is tools/pico/chip.mjs (rp2040js under Node); this module
only speaks its line protocol and keeps what it reported.
"""

import json
import os
import shutil
import subprocess

from . import flashimage

HERE = os.path.dirname(os.path.abspath(__file__))
CHIP = os.path.join(HERE, "chip.mjs")
RP2040JS = os.path.join(HERE, "node_modules", "rp2040js", "package.json")
RP2040JS_VERSION = "1.4.1"

# A WS2812 chain takes the bits it was sent as its frame after 280 us of low
# (tools/pico/wires.mjs, WS2812.resetMin): until then the frame is not in
# Pico.frames. Waited for with a little to spare.
LATCH_US = 300

CTRL_A, CTRL_B, CTRL_C, CTRL_D = b"\x01", b"\x02", b"\x03", b"\x04"
PRESS_ANY_KEY = b"Press any key to enter the REPL"


class PicoError(RuntimeError):
    """The emulated chip cannot start, or did not do what was asked in time."""


class EmulatorError(PicoError):
    """rp2040js logged an error (an unaligned access, a PIO instruction it cannot
    do): silicon would fault or misbehave there, so the run fails."""


class ScriptError(PicoError):
    """Code run on the chip raised: .output is what it printed, .traceback the error."""

    def __init__(self, output, traceback):
        super().__init__(traceback.strip().splitlines()[-1] if traceback.strip() else "error")
        self.output = output
        self.traceback = traceback


def available():
    """Why the emulated Pico cannot run here ("" when it can)."""
    if not shutil.which("node"):
        return "node is not installed"
    try:
        with open(RP2040JS) as f:
            version = json.load(f).get("version")
    except (OSError, ValueError):
        return "rp2040js is not installed (make install)"
    if version != RP2040JS_VERSION:
        return "rp2040js %s is installed, %s is needed (make install)" % (version, RP2040JS_VERSION)
    return ""


class Frame:
    """One LED frame latched by the WS2812 chain: .data (bytes) and when it went out."""

    __slots__ = ("t0", "t1", "data", "boot", "error")

    def __init__(self, raw):
        self.t0 = raw["t0"] / 1000.0  # us: first rising edge
        self.t1 = raw["t1"] / 1000.0  # us: last falling edge
        self.data = bytes.fromhex(raw["hex"])
        self.boot = raw["boot"]
        self.error = raw.get("error")

    def __repr__(self):
        return "Frame(t=%.1fus, %s)" % (self.t0, self.data.hex())


class Pico:
    """One emulated Pico on a flash file (see module doc)."""

    def __init__(self, flash_path, board=None, node=None, flash_times="typical",
                 flash_data=False, xip_cache=False):
        self.flash_path = os.path.abspath(flash_path)
        # "typical" or "max": the W25Q16JV's erase/program times (flash.mjs)
        self.flash_times = flash_times
        self.flash_data = flash_data  # program ops carry their bytes ("data", hex)
        # Charge the flash reads' XIP cache misses (tools/pico/xip.mjs); off:
        # every flash read costs one cycle, as rp2040js has it (a lower bound).
        self.xip_cache = xip_cache
        self.xip = None  # {"hits", "misses"} over every boot, with xip_cache
        self.board = board  # a dict for wires.mjs (tools/pico/board.py), or None
        self.node = node or shutil.which("node")
        self.proc = None
        self.serial = bytearray()  # everything the chip printed on USB
        self.frames = []  # Frame, in order
        self.pwm = []  # (us, hz, duty) of the buzzer
        self.flash_ops = []  # {"t", "op", "addr", "len", "ns"} erase/program served
        self.scans = []  # (us, ms) a sensor scan began, and the ticks_ms before it
        self.awake = []  # (us, us) the core ran from .. to (between WFIs), while watched
        # Watchdog feeds (us, woke us, [(us, timer us) read since it woke or
        # since the last feed], True if the core slept since the last feed).
        self.feeds = []
        self.events = []  # {"t", "boot", "kind", "text"}: resets, bad LED timing...
        self.resets = []  # (us, why) "watchdog", "reset", "power", "lockup"
        self.sd_reads = 0
        self.ns = 0
        self.boot = 0
        self.cycles = 0
        self._board_file = None
        self._mark = 0

    # -- life cycle -------------------------------------------------------------
    def start(self):
        why = available()
        if why:
            raise PicoError(why)
        cmd = [self.node, CHIP, "--flash", self.flash_path, "--bootrom", flashimage.BOOTROM,
               "--flash-times", self.flash_times]
        if self.flash_data:
            cmd += ["--flash-data", "1"]
        if self.xip_cache:
            cmd += ["--xip-cache", "1"]
        if self.board is not None:
            self._board_file = self.flash_path + ".board.json"
            with open(self._board_file, "w") as f:
                json.dump(self.board, f)
            cmd += ["--board", self._board_file]
        self.proc = subprocess.Popen(
            cmd + self._extra_args(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            pass_fds=self._pass_fds(),
        )
        self._cmd(op="read")
        return self

    def _extra_args(self):
        return []

    def _pass_fds(self):
        return ()

    def close(self):
        if self.proc is None:
            return
        try:
            self._cmd(op="quit")
        except (PicoError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None
        if self._board_file:
            try:
                os.remove(self._board_file)
            except OSError:
                pass

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    # -- the protocol ---------------------------------------------------------------
    def _cmd(self, **msg):
        if self.proc is None:
            raise PicoError("the chip is not running")
        try:
            self.proc.stdin.write((json.dumps(msg) + "\n").encode())
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (BrokenPipeError, OSError) as e:
            raise PicoError("the emulator stopped (%s)" % e)
        if not line:
            raise PicoError("the emulator stopped (exit status %s)" % self.proc.poll())
        reply = json.loads(line)
        if "error" in reply:
            raise PicoError("chip.mjs: %s" % reply["error"])
        self.ns = reply["t"]
        self.boot = reply["boot"]
        self.cycles = reply["cycles"]
        if msg["op"] == "read":
            self._take(reply)
        return reply

    def _take(self, reply):
        self.serial += bytes.fromhex(reply["serial"])
        self.frames += [Frame(f) for f in reply["frames"]]
        self.pwm += [(p["t"] / 1000.0, p["hz"], p["duty"]) for p in reply["pwm"]]
        self.flash_ops += reply["flash"]
        self.scans += [(s[0] / 1000.0, s[1]) for s in reply.get("scans", [])]
        self.awake += [(a[0] / 1000.0, a[1] / 1000.0) for a in reply.get("awake", [])]
        self.sd_reads = reply.get("sdReads", 0)  # blocks the microSD card has sent
        self.xip = reply.get("xip") or self.xip
        self.feeds += [(f[0] / 1000.0, f[1] / 1000.0, [(r[0] / 1000.0, r[1]) for r in f[2]],
                        bool(f[3])) for f in reply.get("feeds", [])]
        errors = []
        for e in reply["events"]:
            self.events.append(e)
            if e["kind"] == "reset":
                self.resets.append((e["t"] / 1000.0, e["text"]))
            elif e["kind"] == "rp2040js":
                errors.append("at %.1f us: %s" % (e["t"] / 1000.0, e["text"]))
        if errors:
            raise EmulatorError("rp2040js: " + "; ".join(errors))

    @property
    def us(self):
        """Emulated microseconds since the first boot."""
        return self.ns / 1000.0

    # -- time ---------------------------------------------------------------------------
    def run_ns(self, ns, on_serial=False, cut_ns=None, idle=False):
        """Run `ns` of emulated time; True if it stopped early because the core slept.

        on_serial: stop early when the chip prints; idle: when the core
        sleeps (WFI/WFE: the main loop waits for its next step).
        """
        msg = {"op": "run", "ns": int(ns), "serial": bool(on_serial), "idle": bool(idle)}
        if cut_ns is not None:
            msg["cut"] = int(cut_ns)
        reply = self._cmd(**msg)
        self._cmd(op="read")
        return bool(idle and reply.get("idle"))

    def run_to_idle(self, max_ms=1000):
        """Run until the core sleeps (between two loop steps); PicoError after max_ms."""
        if not self.run_ns(max_ms * 1e6, idle=True):
            raise PicoError("the core did not sleep within %d ms of emulated time" % max_ms)

    def rest(self):
        """Run until the core sleeps, past any sleep within 1 ms of the last scan,
        then 300 us (the last LED frame latched: 280 us of low). A loop step can
        sleep inside itself (MicroPython's rp2 StateMachine.get waits for the
        74HC165's bits that way), and run_to_idle() stops at any sleep. Not a
        proof that the step is over: test_pico_game once saw a step that
        run_to_idle() left 0.1 ms after its scan write its frame 3.8 ms later.
        to_next_scan() is sure; rest() stays where there is no next scan to
        wait for (sensors unplugged; CircuitPython's keypad scans on its own
        clock) and where the power-cut tests' moments were chosen with it."""
        self.run_to_idle()
        for _ in range(10):  # (CircuitPython's keypad scans in the background)
            if not self.scans or self.us - self.scans[-1][0] >= 1000:
                break
            self.run_us(200)
            self.run_to_idle()
        self.run_us(LATCH_US)

    def to_next_scan(self, max_ms=1000):
        """Run on until the loop's next step begins (its sensor scan), then
        LATCH_US past that scan: the step before it is over, whatever it slept
        on inside (a USB write, a PIO FIFO), and its LED frame latched. A step
        that overran its loop period (a save that erased a sector) has the
        next one scan at once, maybe 0.1 ms after its frame's last bit: that
        frame is on the LEDs 280 us after the bit, not at the scan. No frame
        of the new step has latched yet (its bits, then 280 us of low, end
        past LATCH_US). PicoError after max_ms."""
        count = len(self.scans)
        end = self.us + max_ms * 1000
        while len(self.scans) == count:
            if self.us > end:
                raise PicoError("no loop step began within %d ms of emulated time" % max_ms)
            self.run_us(100)
        left = self.scans[count][0] + LATCH_US - self.us
        if left > 0:
            self.run_us(left)

    def run_ms(self, ms):
        self.run_ns(ms * 1e6)

    def run_us(self, us):
        self.run_ns(us * 1e3)

    def cut_in_flash_op(self, k, fraction, max_ms=5000):
        """Run until the k-th flash operation from now (0: the next), cut the power
        `fraction` of the way through it (0.0: at its start) and boot again;
        PicoError if no such operation comes within max_ms."""
        boot = self.boot
        reply = self._cmd(op="run", ns=int(max_ms * 1e6), serial=False, idle=False,
                          cutop=[int(k), float(fraction)])
        self._cmd(op="read")
        if self.boot == boot:
            raise PicoError("no flash operation %d within %d ms" % (k, max_ms))
        return reply

    def power_cut(self, at_us=None):
        """Cut the power now (or at emulated time `at_us`, within a flash write too) and boot again."""
        if at_us is None:
            self._cmd(op="power")
        else:
            if at_us * 1000 < self.ns:
                raise PicoError("cannot cut the power in the past (%.1f us < %.1f us)" % (at_us, self.us))
            self.run_ns(at_us * 1000 - self.ns + 1, cut_ns=at_us * 1000)
        self._cmd(op="read")

    # -- serial -----------------------------------------------------------------------------
    def write(self, data):
        """Bytes from the host to the chip's USB serial port."""
        if isinstance(data, str):
            data = data.encode()
        self._cmd(op="serial", hex=bytes(data).hex())

    def deaf(self, on=True):
        """The host holds the USB serial open and stops reading it (on=False: reads again)."""
        self._cmd(op="deaf", on=bool(on))

    def mark(self):
        """Remember where the serial output is now (wait_for looks after it)."""
        self._mark = len(self.serial)
        return self._mark

    def output(self, since=None):
        """The serial output since `since` (default: the last mark) as text."""
        start = self._mark if since is None else since
        return self.serial[start:].decode("utf-8", "replace").replace("\r\n", "\n")

    def wait_for(self, text, max_ms=10000, since=None, echo=None):
        """Run until the serial output (after the mark) holds `text`; returns where.

        PicoError after max_ms of emulated time. echo(bytes) sees the output
        as it comes.
        """
        if isinstance(text, str):
            text = text.encode()
        start = self._mark if since is None else since
        end_ns = self.ns + max_ms * 1e6
        shown = start
        while True:
            at = self.serial.find(text, start)
            if echo is not None:
                upto = len(self.serial) if at < 0 else at
                if upto > shown:
                    echo(bytes(self.serial[shown:upto]))
                    shown = upto
            if at >= 0:
                return at
            if self.ns >= end_ns:
                raise PicoError("no %r on the serial port after %d ms of emulated time; it said:\n%s"
                                % (text, max_ms, self.output(start)[-2000:]))
            self.run_ns(end_ns - self.ns, on_serial=True)

    # -- the REPL -----------------------------------------------------------------------------
    def repl(self, max_ms=5000):
        """Interrupt whatever runs and get a friendly REPL prompt."""
        start = self.mark()
        self.write(CTRL_C + CTRL_C + CTRL_B + b"\r\n")
        end_ns = self.ns + max_ms * 1e6
        while self.serial.find(b">>> ", start) < 0:
            # CircuitPython: code.py stopped, it waits for a key before its REPL.
            at = self.serial.find(PRESS_ANY_KEY, start)
            if at >= 0:
                self.write(b"\r\n")
                start = at + len(PRESS_ANY_KEY)
            if self.ns >= end_ns:
                raise PicoError("no REPL prompt after %d ms of emulated time; it said:\n%s"
                                % (max_ms, self.output()[-2000:]))
            self.run_ns(min(20e6, end_ns - self.ns), on_serial=True)

    def exec(self, code, max_ms=60000, echo=None):
        """Run `code` through the raw REPL; returns what it printed (ScriptError if it raised).

        echo(bytes) sees the output as it comes.
        """
        if isinstance(code, str):
            code = code.encode()
        start = self.mark()
        self.write(CTRL_C + CTRL_C + CTRL_A)
        self.wait_for(b"raw REPL; CTRL-B to exit\r\n>", 5000, since=start)
        self.mark()
        for k in range(0, len(code), 256):
            self.write(code[k : k + 256])
        self.write(CTRL_D)
        self.wait_for(b"OK", 5000)
        begin = self.serial.find(b"OK", self._mark) + 2
        if echo is not None:
            self.wait_for(CTRL_D, max_ms, since=begin, echo=echo)
        end = self.wait_for(CTRL_D + b">", max_ms, since=begin)  # the error part ends the reply
        parts = self.serial[begin:end + 1].split(CTRL_D)
        self.write(CTRL_B)
        out = parts[0].decode("utf-8", "replace").replace("\r\n", "\n")
        err = parts[1].decode("utf-8", "replace").replace("\r\n", "\n") if len(parts) > 1 else ""
        if err:
            raise ScriptError(out, err)
        return out

    # -- the board ------------------------------------------------------------------------------
    def set_sensors(self, closed, registers=()):
        """Reed switches: closed[k] for chain sensor k; registers: a 74HC165 chain's inputs."""
        self._cmd(op="sensors", closed=[1 if c else 0 for c in closed], registers=list(registers))

    def unplug(self, register):
        """The 74HC165 chain's cable into `register` (0: the first) out, and every
        register after it with it; -1: every cable in (tools/pico/wires.mjs)."""
        self._cmd(op="unplug", at=int(register))

    def set_buttons(self, mask):
        """Bit b held: button b (0 UNDO, 1 MENU) pressed."""
        self._cmd(op="buttons", mask=int(mask))

    def watch_awake(self, on=True):
        """Record when the core runs (`awake`: spans between two sleeps), or stop."""
        self._cmd(op="awake", on=bool(on))

    def busy(self):
        """[(scan us, us)]: for each scan in `awake`'s time, how long the core ran
        without sleeping around it (the loop step that made it, and its loop)."""
        out = []
        spans = self.awake
        k = 0
        for t, _ms in self.scans:
            while k < len(spans) and spans[k][1] < t:
                k += 1
            if k < len(spans) and spans[k][0] <= t:
                out.append((t, spans[k][1] - spans[k][0]))
        return out

    def steps(self):
        """[(scan us, us)]: each loop step in `awake`'s time, from its scan to
        the next scan or the core's next sleep, whichever comes first (a loop
        that steps again at once while it thinks has no sleep between its
        steps)."""
        out = []
        spans = self.awake
        scans = self.scans
        k = 0
        for i, (t, _ms) in enumerate(scans):
            while k < len(spans) and spans[k][1] < t:
                k += 1
            if k < len(spans) and spans[k][0] <= t:
                end = spans[k][1]
                if i + 1 < len(scans) and scans[i + 1][0] < end:
                    end = scans[i + 1][0]
                out.append((t, end - t))
        return out

    def led_errors(self):
        """Every WS2812 timing error seen so far."""
        return [f.error for f in self.frames if f.error]


def flash_at(start, ops, ns):
    """The flash as it stood at emulated time `ns`: the bytes `start` (the flash
    before the first of `ops`) with every op begun before `ns` done (the
    flash ops of a run made with flash_data=True, oldest first). An op under
    way at `ns` is done in part, as flash.mjs does when the power is cut
    inside it: its first bytes in proportion to the time it has had."""
    flash = bytearray(start)
    for op in ops:
        if op["t"] >= ns:
            break
        fraction = min(1.0, (ns - op["t"]) / op["ns"])
        addr = op["addr"]
        if op["op"] == "erase":
            n = op["len"] if fraction >= 1 else int(op["len"] * fraction)
            flash[addr:addr + n] = b"\xff" * n
        else:
            data = bytes.fromhex(op["data"])
            n = len(data) if fraction >= 1 else int(len(data) * fraction)
            for i in range(n):
                flash[addr + i] &= data[i]
    return bytes(flash)


def new_flash(path, files, uf2_path=flashimage.UF2):
    """Write a fresh flash file: MicroPython and a file system holding `files`."""
    with open(path, "wb") as f:
        f.write(flashimage.flash_image(files, uf2_path))
    return path
