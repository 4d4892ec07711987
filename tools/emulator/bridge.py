"""The emulated board behind a pseudo-terminal, for real `mpremote` commands.

    python tools/emulator/bridge.py [--state DIR]    # prints the port, runs until Ctrl-C

or from Python (tests)::

    with EmulatedDevice(state_dir) as dev:
        subprocess.run(["mpremote", "connect", dev.port, "fs", "ls", ":"])
        dev.files()            # what is on the board's flash: state_dir/fs
        dev.set_inputs(...)    # the reed switches and buttons (state_dir/hw)

The board itself is tools/emulator/device.mjs (MicroPython WebAssembly under
Node). This bridge owns the pseudo-terminal: what mpremote writes goes to the
device's stdin (every Ctrl-C also goes first to the device's interrupt pipe,
so a running main.py sees KeyboardInterrupt), what the device prints goes to
the terminal and to state_dir/serial.log. Output nobody reads is dropped, as
a board's USB serial does.

state_dir/fs is the board's flash (kept between runs), state_dir/hw the
hardware files (see device/_emu_hw.py).
"""

import argparse
import json
import os
import pty
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tty

HERE = os.path.dirname(os.path.abspath(__file__))
DEVICE = os.path.join(HERE, "device.mjs")
WASM = os.path.join(
    HERE, "..", "wasm", "node_modules", "@micropython", "micropython-webassembly-pyscript"
)


class EmulatorError(RuntimeError):
    """The emulated board could not start (no node, no wasm port, ...)."""


def node_binary():
    """The `node` executable, or None."""
    return shutil.which("node")


def available():
    """Why the emulator cannot run here ("" when it can)."""
    if not node_binary():
        return "node is not installed"
    if not os.path.exists(os.path.join(WASM, "micropython.mjs")):
        return "the MicroPython WebAssembly port is not installed (make install)"
    if not hasattr(pty, "openpty"):
        return "no pseudo-terminals on this system"
    return ""


class EmulatedDevice:
    """A MicroPython board emulated behind a pseudo-terminal (see module doc)."""

    def __init__(self, state_dir=None, heapsize=256 * 1024):
        self._own_state = state_dir is None
        self.state_dir = os.path.abspath(state_dir or tempfile.mkdtemp(prefix="attila-emu-"))
        self.root = os.path.join(self.state_dir, "fs")
        self.hw = os.path.join(self.state_dir, "hw")
        self.log_path = os.path.join(self.state_dir, "serial.log")
        self.heapsize = heapsize
        self.port = None
        self.proc = None
        self._master = self._slave = None
        self._intr_r = self._intr_w = None
        self._stdin = None
        self._threads = []
        self._stop = threading.Event()
        self._log = None
        self._log_lock = threading.Lock()

    # -- life cycle ---------------------------------------------------------
    def start(self):
        why = available()
        if why:
            raise EmulatorError(why)
        os.makedirs(self.root, exist_ok=True)
        os.makedirs(self.hw, exist_ok=True)
        self._master, self._slave = pty.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        os.set_blocking(self._master, False)
        self._intr_r, self._intr_w = os.pipe()
        os.set_blocking(self._intr_r, False)
        self._log = open(self.log_path, "ab")
        # The device polls its stdin (non-blocking) so its watchdog can bite
        # while it waits at the REPL.
        in_r, in_w = os.pipe()
        os.set_blocking(in_r, False)
        self.proc = subprocess.Popen(
            [
                node_binary(), DEVICE, "--root", self.root, "--hw", self.hw,
                "--intr-fd", str(self._intr_r), "--heapsize", str(self.heapsize),
            ],
            stdin=in_r, stdout=subprocess.PIPE, pass_fds=(self._intr_r,),
        )
        os.close(in_r)
        self._stdin = os.fdopen(in_w, "wb", buffering=0)
        os.close(self._intr_r)
        self._intr_r = None
        for target in (self._to_device, self._from_device):
            t = threading.Thread(target=target, daemon=True)
            t.start()
            self._threads.append(t)
        return self

    def stop(self):
        self._stop.set()
        if self._intr_w is not None:
            try:
                os.close(self._intr_w)  # a running main.py sees it and powers off
            except OSError:
                pass
            self._intr_w = None
        if self.proc is not None:
            try:
                if self._stdin is not None:
                    self._stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for t in self._threads:
            t.join(timeout=2)
        for fd in (self._master, self._slave, self._intr_w):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = self._intr_w = None
        if self._log:
            self._log.close()
            self._log = None
        if self._own_state:
            shutil.rmtree(self.state_dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- pumps ----------------------------------------------------------------
    def _to_device(self):
        """Terminal -> device stdin (Ctrl-C also to the interrupt pipe, first)."""
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self._master], [], [], 0.1)
            except (OSError, ValueError):
                return
            if not ready:
                continue
            try:
                data = os.read(self._master, 4096)
            except BlockingIOError:
                continue
            except OSError:
                time.sleep(0.05)
                continue
            if not data:
                continue
            n = data.count(b"\x03")
            try:
                if n:
                    os.write(self._intr_w, b"\x03" * n)
                view = memoryview(data)
                while view:
                    view = view[os.write(self._stdin.fileno(), view):]
            except (OSError, ValueError):
                return

    def _from_device(self):
        """Device stdout -> terminal (dropped when nobody reads) and the log."""
        out = self.proc.stdout
        while True:
            data = out.read1(4096) if hasattr(out, "read1") else os.read(out.fileno(), 4096)
            if not data:
                return
            with self._log_lock:
                if self._log:
                    self._log.write(data)
                    self._log.flush()
            view = memoryview(data)
            deadline = time.monotonic() + 0.5
            while view and not self._stop.is_set():
                try:
                    n = os.write(self._master, view)
                    view = view[n:]
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        break  # nobody reads the port: drop, like USB serial
                    time.sleep(0.005)
                except OSError:
                    break

    # -- the board's files and hardware ----------------------------------------
    def files(self):
        """{device path: bytes} of every file on the board's flash."""
        found = {}
        for dirpath, _dirs, names in os.walk(self.root):
            for name in names:
                if name.endswith(".~emu"):
                    continue
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, self.root).replace(os.sep, "/")
                with open(full, "rb") as f:
                    found[rel] = f.read()
        return found

    def serial_log(self):
        """Everything the board printed since the state directory was made."""
        with self._log_lock:
            try:
                with open(self.log_path, "rb") as f:
                    return f.read()
            except OSError:
                return b""

    def set_inputs(self, **inputs):
        """Set the hardware inputs the fakes read (see device/_emu_hw.py)."""
        path = os.path.join(self.hw, "inputs.json")
        current = {}
        try:
            with open(path) as f:
                current = json.load(f)
        except (OSError, ValueError):
            pass
        current.update(inputs)
        tmp = path + ".~emu"
        with open(tmp, "w") as f:
            json.dump(current, f)
        os.replace(tmp, path)

    def hw_file(self, name):
        """Contents of a hardware output file (bytes, or None)."""
        try:
            with open(os.path.join(self.hw, name), "rb") as f:
                return f.read()
        except OSError:
            return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--state", help="state directory (flash in STATE/fs); default: a temporary one")
    args = parser.parse_args(argv)
    try:
        dev = EmulatedDevice(args.state).start()
    except EmulatorError as e:
        print("emulator: %s" % e, file=sys.stderr)
        return 1
    print(dev.port, flush=True)
    print("flash: %s  (Ctrl-C to stop)" % dev.root, file=sys.stderr, flush=True)
    try:
        while dev.proc.poll() is None:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        dev.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
