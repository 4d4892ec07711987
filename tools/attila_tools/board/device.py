"""Talking to a MicroPython board over USB serial, through mpremote's transport.

    port = find_port(None)              # the one MicroPython board plugged in
    with SerialBoard(port) as board:          # interrupts main.py, raw REPL
        board.info()                    # name, version, .mpy version, machine
        board.hashes(["main.py"])       # {"main.py": "ab12..." or None}
        board.write("layout.json", data)
        board.reset()                   # soft reboot: main.py runs; its first lines

Everything goes through `mpremote` (pinned in requirements.txt): the same raw
REPL commands `mpremote connect PORT fs cp / exec / reset` send. Errors are
DeviceError with a message that tells a maker what to do.
"""

import ast
import binascii
import hashlib
import time

from attila_tools.board.build import PROFILES
from attila_tools.errors import ToolError

# USB vendor ids of boards that run MicroPython: Raspberry Pi (Pico, Pico W,
# Pico 2), MicroPython's own (pyboard and ports using TinyUSB defaults).
# Espressif (ESP32-S2/S3 native USB). Other boards: pass --port.
VIDS = {0x2E8A: "Raspberry Pi", 0xF055: "MicroPython", 0x303A: "Espressif"}

MICROPYTHON_DOWNLOAD = "https://micropython.org/download/"
PICO_DOWNLOADS = {
    "RP2040": "https://micropython.org/download/RPI_PICO/",
    "RP2350": "https://micropython.org/download/RPI_PICO2/",
}


class DeviceError(ToolError):
    """A board that is missing, refuses or fails on the way (the message
    says what the maker has to fix): exit status 1."""

    status = 1


class PortError(DeviceError):
    """A --port (or another argument) that cannot name a board: bad input, exit 2."""

    status = 2


def check_port(port):
    """Refuse a port given as a path that is not a serial device (PortError).

    On Windows, names that are not paths (COM3) go to the serial library as
    they are; elsewhere every port is a path. "auto" is no path: find_port
    looks for the one board plugged in.
    """
    import os
    import stat

    if port == "auto":
        return port
    if os.name == "nt" and os.sep not in port and "/" not in port:
        return port
    try:
        mode = os.stat(port).st_mode
    except OSError:
        raise PortError("%s does not exist: is the board plugged in? "
                        "`mpremote connect list` shows the ports there are" % port)
    if stat.S_ISDIR(mode):
        raise PortError("%s is a folder, not a serial port" % port)
    if not stat.S_ISCHR(mode):
        raise PortError("%s is a file, not a serial port (like /dev/ttyACM0)" % port)
    return port


def _list_ports():
    import serial.tools.list_ports

    return sorted(serial.tools.list_ports.comports(), key=lambda p: p.device)


def describe_port(p):
    """One line per port, as `mpremote connect list` prints it."""
    return "{} {} {:04x}:{:04x} {} {}".format(
        p.device,
        p.serial_number,
        p.vid if isinstance(p.vid, int) else 0,
        p.pid if isinstance(p.pid, int) else 0,
        p.manufacturer,
        p.product,
    )


def candidates(ports=None):
    """The serial ports that look like a MicroPython board."""
    ports = _list_ports() if ports is None else ports
    found = []
    for p in ports:
        maker = (p.manufacturer or "") + " " + (p.product or "")
        if p.vid in VIDS or "MicroPython" in maker:
            found.append(p)
    return found


def find_port(port=None, ports=None):
    """The port to use: `port` if given, else the one board that is plugged in."""
    if port and port != "auto":
        return port
    ports = _list_ports() if ports is None else ports
    boards = candidates(ports)
    if len(boards) == 1:
        return boards[0].device
    seen = "\n".join("    " + describe_port(p) for p in ports) or "    (no serial ports at all)"
    if not boards:
        raise DeviceError(
            "no MicroPython board found. `mpremote connect list` sees:\n%s\n"
            "  - Plug the Pico in with a USB cable that carries data (some are power only).\n"
            "  - If a drive named RPI-RP2 (or RP2350) appears instead, the board has no\n"
            "    MicroPython yet: copy the .uf2 from %s onto that drive.\n"
            "  - Another board? Name its port: --port /dev/ttyACM0 (Linux), "
            "/dev/cu.usbmodem* (macOS), COM3 (Windows).\n"
            "  - No board at hand? Flash the emulated Pico (MicroPython's own Pico build on an\n"
            "    emulated RP2040): start it with\n"
            "        .venv/bin/python tools/pico/serve.py --state /tmp/mypico\n"
            "    which prints its port (/dev/pts/N), then in another terminal\n"
            "        make flash PORT=/dev/pts/N\n"
            "    (docs: Flash the firmware > The emulated Pico, docs/pages/flash/emulated.md)."
            % (seen, PICO_DOWNLOADS["RP2040"])
        )
    raise DeviceError(
        "several boards are plugged in; choose one with --port:\n%s"
        % "\n".join("    " + describe_port(p) for p in boards)
    )


def check_compatible(info, mpy=(6, 0, 0), minimum=(1, 22, 0)):
    """None if the board can load our .mpy files, else what to do (a message).

    `info` is SerialBoard.info(); `mpy` the header of the .mpy files mpy-cross
    emitted (build.mpy_version_of); `minimum` the oldest MicroPython the firmware
    is known to run on.
    """
    name = info.get("name")
    version = tuple(info.get("version") or ())[:3]
    shown = ".".join(str(v) for v in version) or "unknown"
    where = download_hint(info)
    if name != "micropython":
        return (
            "the board runs %s %s, not MicroPython. Install MicroPython %s or newer: %s\n"
            "  (CircuitPython boards use firmware/ports/circuitpython instead)."
            % (name or "an unknown firmware", shown, _v(minimum), where)
        )
    board_mpy = info.get("mpy")
    if board_mpy is None or version < minimum:
        return (
            "the board runs MicroPython %s; this firmware needs %s or newer. "
            "Install a newer MicroPython: %s\n"
            "  (hold BOOTSEL while plugging the Pico in, then copy the .uf2 file to the "
            "RPI-RP2 drive)." % (shown, _v(minimum), where)
        )
    have = (board_mpy & 0xFF, board_mpy >> 8 & 3, board_mpy >> 10)
    native = len(mpy) > 2 and mpy[2] != 0
    if have[0] != mpy[0] or (native and have != tuple(mpy)):
        return (
            "the board's MicroPython %s loads .mpy version %d.%d, but mpy-cross made %d.%d. "
            "Install MicroPython %s or newer: %s (or flash the sources with --source)."
            % (shown, have[0], have[1], mpy[0], mpy[1], _v(minimum), where)
        )
    return None


def board_chip(info):
    """(board name, chip) the board reported ("Raspberry Pi Pico W with RP2040":
    ("Raspberry Pi Pico W", "rp2040")); (None, None) when it names none."""
    machine = info.get("machine") or ""
    if " with " not in machine:
        return None, None
    board, chip = machine.rsplit(" with ", 1)
    return board.strip(), chip.strip().lower()


def check_chip(info, prof, profile_path):
    """None if the profile is for the chip and board the board reported, else why not.

    A profile for another chip (an ESP32 or RP2350 profile on an RP2040) makes
    the firmware stop at boot, as do pins the reported board keeps (Pico W).
    """
    import glob
    import os

    from attila import profile as profiles
    from attila.errors import AttilaError

    board, chip = board_chip(info)
    known = chip is not None and (chip in profiles.CHIPS or chip.startswith("esp32"))
    if not known or prof.chip == "other":  # the emulated board: "with Emscripten"
        return None
    if chip != prof.chip:
        fits = sorted(os.path.relpath(p) for p in glob.glob(os.path.join(PROFILES, "*.json"))
                      if _chip_of(p) == chip)
        return ("%s is a profile for the %s, but the board is a %s with %s: its firmware "
                "would stop at boot. Give --profile for the %s%s (or \"chip\": \"other\")"
                % (profile_path, prof.chip, board, chip.upper(), chip.upper(),
                   ": " + ", ".join(fits) if fits else ""))
    try:
        profiles.check_pins(prof, board)
    except AttilaError as e:
        return "%s, as the board is a %s" % (e, board)
    return None


def _chip_of(path):
    from attila import profile as profiles
    from attila.errors import AttilaError

    try:
        p = profiles.load(path)
    except AttilaError:
        return None
    return p.chip if p.port == "micropython" else None


def _v(version):
    return ".".join(str(v) for v in version)


def download_hint(info):
    """Where to get MicroPython for this board."""
    machine = info.get("machine") or ""
    for chip, url in PICO_DOWNLOADS.items():
        if chip in machine:
            if "Pico W" in machine:
                url = url.rstrip("/") + "_W/"
            return url
    return MICROPYTHON_DOWNLOAD


# Runs on the board: sha256 of each path (None when missing) without
# allocating a buffer per chunk.
_HASHES = """
def _h(p):
    import hashlib
    try:
        f = open(p, 'rb')
    except OSError:
        return None
    d = hashlib.sha256()
    b = bytearray(256)
    m = memoryview(b)
    while True:
        n = f.readinto(b)
        if not n:
            break
        d.update(m[:n])
    f.close()
    return d.digest()
_r = {}
for _p in %r:
    _r[_p] = _h(_p)
print(repr(_r))
"""

_INFO = """
import sys
try:
    import os
    _m = os.uname().machine
except Exception:
    _m = getattr(sys.implementation, '_machine', '')
try:
    _fs = tuple(__import__('os').statvfs('/')[i] for i in (0, 2))  # block size, blocks
except Exception:
    _fs = None
print(repr({'name': sys.implementation.name, 'version': tuple(sys.implementation.version),
 'mpy': getattr(sys.implementation, '_mpy', None), 'machine': _m, 'platform': sys.platform,
 'fs': _fs}))
"""

_WALK = """
import os
def _w(d, out):
    try:
        es = list(os.ilistdir(d) if d else os.ilistdir())
    except OSError:
        return
    for e in es:
        p = (d + '/' + e[0]) if d else e[0]
        if e[1] & 0x4000:
            out.append(p + '/')
            _w(p, out)
        else:
            out.append(p)
_o = []
_w(%r, _o)
print(repr(_o))
"""


class SerialBoard:
    """A MicroPython board in the raw REPL (interrupted, soft-reset)."""

    def __init__(self, port, transport=None):
        self.port = port
        self._t = transport
        self._hashlib = None
        self.marker = False  # a maintenance marker we put there (see flash.calm)

    # -- connection ------------------------------------------------------------
    def open(self):
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport

        if self._t is None:
            try:
                self._t = SerialTransport(self.port, baudrate=115200)
            except TransportError as e:
                raise DeviceError(
                    "cannot open %s: %s. Is another program (Thonny, a serial monitor, "
                    "mpremote repl) using it? Close it, or unplug and replug the board."
                    % (self.port, e)
                )
            except Exception as e:  # serial.SerialException and friends
                raise DeviceError("cannot open %s: %s" % (self.port, e))
        try:
            self._t.enter_raw_repl(soft_reset=True)
        except TransportError as e:
            self.close()
            raise DeviceError(
                "the board on %s does not answer (%s). Is it running MicroPython? "
                "Unplug it, plug it in again and retry." % (self.port, e)
            )
        return self

    def in_raw_repl(self):
        """True while connected and in the raw REPL (exec() possible)."""
        return self._t is not None and bool(self._t.in_raw_repl)

    def reconnect(self, timeout=20.0):
        """Open the port again after the board reset (USB drops and comes back)."""
        self.close()
        end = time.monotonic() + timeout
        last = None
        time.sleep(0.5)
        while time.monotonic() < end:
            try:
                return self.open()
            except DeviceError as e:
                last = e
                self._t = None
                time.sleep(0.5)
        raise DeviceError("the board on %s did not come back after its reset (%s)"
                          % (self.port, last))

    def close(self):
        if self._t is None:
            return
        try:
            if self._t.in_raw_repl:
                self._t.exit_raw_repl()
        except Exception:
            pass
        try:
            self._t.close()
        except Exception:
            pass
        self._t = None

    def __enter__(self):
        return self.open()

    def __exit__(self, *exc):
        self.close()

    # -- code --------------------------------------------------------------------
    def exec(self, code):
        """Run code on the board; its output (bytes). DeviceError on a traceback."""
        from mpremote.transport import TransportError, TransportExecError

        try:
            return self._t.exec(code)
        except TransportExecError as e:
            raise DeviceError("the board raised:\n%s" % e.error_output.strip())
        except TransportError as e:
            raise DeviceError("lost the board on %s: %s" % (self.port, e))

    def eval(self, code):
        """exec code that prints one repr(); the value."""
        out = self.exec(code).decode("utf-8", "replace").strip()
        try:
            return ast.literal_eval(out.splitlines()[-1] if out else "None")
        except (ValueError, SyntaxError):
            raise DeviceError("unexpected answer from the board: %r" % out[:200])

    def info(self):
        """{'name', 'version', 'mpy', 'machine', 'platform', 'fs'} of the board's firmware."""
        return self.eval(_INFO)

    # -- files -------------------------------------------------------------------
    def hashes(self, paths):
        """{path: sha256 hex or None (missing)} of files on the board."""
        paths = list(paths)
        if not paths:
            return {}
        if self._hashlib is None:
            try:
                self.exec("import hashlib\nhashlib.sha256")
                self._hashlib = True
            except DeviceError:
                self._hashlib = False
        if not self._hashlib:
            out = {}
            for p in paths:
                data = self.read(p)
                out[p] = None if data is None else hashlib.sha256(data).hexdigest()
            return out
        out = {}
        for start in range(0, len(paths), 16):
            got = self.eval(_HASHES % (paths[start : start + 16],))
            for p, digest in got.items():
                out[p] = None if digest is None else binascii.hexlify(digest).decode()
        return out

    def files(self, top=""):
        """Every path under `top` on the board ("dir/" for directories)."""
        return self.eval(_WALK % (top,))

    def mkdirs(self, path):
        """Make the directories leading to file `path`."""
        parts = path.split("/")[:-1]
        for k in range(1, len(parts) + 1):
            d = "/".join(parts[:k])
            self.exec("import os\ntry:\n os.mkdir(%r)\nexcept OSError:\n pass" % d)

    def write(self, path, data):
        """Write a whole file (parents made as needed)."""
        from mpremote.transport import TransportError

        if "/" in path:
            self.mkdirs(path)
        try:
            self._t.fs_writefile(path, data)
        except OSError as e:
            raise DeviceError("cannot write %s on the board: %s" % (path, e.strerror or e))
        except TransportError as e:
            raise DeviceError("lost the board while writing %s: %s" % (path, e))

    def read(self, path):
        """A file's bytes, or None when it does not exist."""
        from mpremote.transport import TransportError

        try:
            return bytes(self._t.fs_readfile(path))
        except OSError:
            return None
        except TransportError as e:
            raise DeviceError("lost the board while reading %s: %s" % (path, e))

    def remove(self, path):
        """Remove a file (no error when it is not there)."""
        self.exec("import os\ntry:\n os.remove(%r)\nexcept OSError:\n pass" % path)

    # -- reset ---------------------------------------------------------------------
    def reset(self, wait=5.0, ready=b"attila:"):
        """Soft-reboot into main.py (as after power-up); what it printed first.

        Leaves the raw REPL and sends Ctrl-D at the friendly REPL: the board
        runs boot.py and main.py with USB kept up. Collects the output for up
        to `wait` seconds, until a line starting with `ready` (the firmware
        is running) or the REPL prompt (main.py ended: an error, or
        maintenance mode). The board keeps running afterwards.
        """
        t = self._t
        t.exit_raw_repl()
        time.sleep(0.05)
        while t.serial.inWaiting():
            t.serial.read(t.serial.inWaiting())
        t.serial.write(b"\x04")
        end = time.monotonic() + wait
        data = b""
        while time.monotonic() < end:
            n = t.serial.inWaiting()
            if not n:
                time.sleep(0.02)
                continue
            data += t.serial.read(n)
            mark = data.find(b"soft reboot")
            if mark < 0:
                continue
            after = data[mark:]
            lines = after.split(b"\r\n")[1:-1]
            if any(line.startswith(ready) for line in lines) or after.endswith(b">>> "):
                break
        mark = data.find(b"soft reboot")
        if mark >= 0:
            data = data[mark:].split(b"\r\n", 1)[-1]
        return data.decode("utf-8", "replace").replace("\r\n", "\n")

    def hard_reset(self):
        """machine.reset() (as `mpremote reset`): the USB serial drops for a moment."""
        self._t.exec_raw_no_follow("import time, machine; time.sleep_ms(100); machine.reset()")
