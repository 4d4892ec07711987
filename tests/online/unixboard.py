"""A board on the MicroPython unix port (boardhost.py), driven from a test.

    board = UnixBoard(folder, broker, side=1)   # flashed files, online.json
    board.start(); board.wait_status(...)       # its status lines, as a serial console shows
    board.do(masks); board.press("menu")        # the hands
    board.kill(); board.start()                 # a power cut, and power again

The firmware is what `attila flash` copies (attila_tools.board.build: the
core and the port compiled with mpy-cross, main.py as source, lib/ with
umqtt and hmac). The board's status lines are read by a thread; waits have
a deadline in real time and name what did not come.
"""

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# A line told once (console.tell): "Huns: @c3 (a knight on c3)", "Romans: a1-b3,c2 (...".
TOLD = re.compile(r"^[A-Z][a-z]+(?: \(their board\))?: (?:@[a-z][0-9]+|[a-z][0-9]+-[a-z][0-9]+,[a-z][0-9]+) \(")
HERE = os.path.dirname(os.path.abspath(__file__))
FAKES = os.path.join(ROOT, "tests", "ports", "fakes")
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")
if not os.path.exists(MICROPYTHON):
    MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
DEADLINE_S = 30
_flashed = {}


def flashed(folder):
    """A folder holding the firmware as `attila flash` puts it on a board (made once)."""
    if "path" in _flashed:
        return _flashed["path"]
    from attila_tools.board import build

    mpy = subprocess.run([MICROPYTHON, "-c", "import sys; print(sys.implementation._mpy)"],
                         capture_output=True, text=True, check=True).stdout
    files = build.firmware(out_dir=os.path.join(folder, "build"),
                           arch=build.native_arch(int(mpy)))
    board = os.path.join(folder, "firmware")
    for dest, src in files.items():
        os.makedirs(os.path.dirname(os.path.join(board, dest)), exist_ok=True)
        shutil.copy(src, os.path.join(board, dest))
    _flashed["path"] = board
    return board


class UnixBoard:
    """One board's process and its files (`folder`: its flash)."""

    def __init__(self, folder, firmware, broker_port, side, code="castle-7fk2m9xq",
                 settings=None):
        self.folder = str(folder)
        self.firmware = firmware
        os.makedirs(self.folder, exist_ok=True)
        shutil.copy(os.path.join(ROOT, "boards", "profiles", "pico.json"),
                    os.path.join(self.folder, "profile.json"))
        shutil.copy(os.path.join(ROOT, "boards", "4x5.json"),
                    os.path.join(self.folder, "layout.json"))
        online = {"room": code, "side": "RH"[side], "broker": "127.0.0.1:%d" % broker_port}
        online.update(settings or {})
        with open(os.path.join(self.folder, "online.json"), "w") as f:
            json.dump(online, f)
        self.side = side
        self.proc = None
        self.lines = []  # every line the board printed, in order
        self.mask = 0  # the squares the pieces stand on
        self.others = []  # boards whose loops run while this one is waited for (step())
        self._queue = queue.Queue()

    def start(self):
        # A board's path: its files, the modules frozen into MicroPython (ssl
        # among them, as on a Pico W), /lib; the fake pins before them.
        env = dict(os.environ, MICROPYPATH=":".join(
            [FAKES, self.firmware, ".frozen", os.path.join(self.firmware, "lib")]))
        since = len(self.lines)  # (the readers may take the line before wait() looks)
        self.proc = subprocess.Popen(
            [MICROPYTHON, "-X", "heapsize=2M", os.path.join(HERE, "boardhost.py"),
             str(self.mask)], cwd=self.folder, env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        for stream in (self.proc.stdout, self.proc.stderr):
            threading.Thread(target=self._read, args=(stream,), daemon=True).start()
        self.wait(lambda line: line.startswith("attila: online: room"), "the board online",
                  since=since)
        return self

    def _read(self, stream):
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            self.lines.append(line)
            self._queue.put(line)

    def kill(self):
        """Its power cut: the process ends at once, its files stay."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def send(self, text):
        self.proc.stdin.write((text + "\n").encode())
        self.proc.stdin.flush()

    def wait(self, match, what, deadline_s=DEADLINE_S, since=None):
        """The first line from `since` (index in lines; default: from now on... or
        the last status when it matches already) for which match(line) is true."""
        end = time.monotonic() + deadline_s
        start = len(self.lines) if since is None else since
        k = start
        while True:
            while k < len(self.lines):
                if match(self.lines[k]):
                    return self.lines[k]
                k += 1
            left = end - time.monotonic()
            if left <= 0 or (self.proc is not None and self.proc.poll() is not None
                             and self._queue.empty()):
                raise AssertionError("%s: not within %d s; the board said:\n%s" % (
                    what, deadline_s, "\n".join(self.lines[-15:])))
            for other in self.others:
                other.step()
            try:
                self._queue.get(timeout=min(left, 0.005 if self.others else 0.5))
            except queue.Empty:
                pass

    def status(self):
        """The last status line (not an attila: or @@ line, nor a line told once:
        an action said in words comes after the status it belongs to)."""
        for line in reversed(self.lines):
            if not line.startswith(("attila:", "@@")) and line.strip() and not TOLD.match(line):
                return line
        return ""

    def wait_status(self, pattern, what=None, deadline_s=DEADLINE_S):
        """The status line matching the regular expression (the current one or a next)."""
        rx = re.compile(pattern)
        since = len(self.lines)
        current = self.status()
        if rx.search(current):
            return current
        return self.wait(lambda l: not l.startswith(("attila:", "@@")) and rx.search(l),
                         what or pattern, deadline_s, since)

    def do(self, masks):
        """The hands: the squares read each occupancy in turn."""
        since = len(self.lines)
        self.send("do " + " ".join(str(m) for m in masks))
        self.wait(lambda l: l == "@@done", "the board sensing %s" % masks, since=since)
        self.mask = masks[-1]

    def press(self, button):
        self.send("press " + button)

    def ask(self, what):
        since = len(self.lines)
        self.send(what)
        line = self.wait(lambda l: l.startswith("@@" + what + " ") or l == "@@" + what,
                         "@@" + what, since=since)
        return line[len(what) + 3:]

    def log(self):
        return self.ask("log")

    def leds(self):
        return dict(w.split("=") for w in self.ask("leds").split())

    def lit(self, square, deadline_s=5):
        """The colour `square` is lit with, once it is (a blinking LED is
        caught in its on phase); fails at the deadline."""
        end = time.monotonic() + deadline_s
        while time.monotonic() < end:
            leds = self.leds()
            if square in leds:
                return leds[square]
        raise AssertionError("%s not lit within %d s" % (square, deadline_s))


def steps(layout, mask, text):
    """The occupancies the hands make the squares read for an action."""
    from attila.game.notation import parse_placement, parse_turn

    if text[0] == "@":
        return [mask | 1 << parse_placement(layout, text)]
    a, b, c = parse_turn(layout, text)
    lifted = mask & ~(1 << a)
    return [lifted, lifted | 1 << b, lifted | 1 << b | 1 << c]
