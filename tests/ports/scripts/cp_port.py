"""The CircuitPython port (firmware/ports/circuitpython/code.py) on fake pins.

Run by tests/ports/test_circuitpython_port.py with CPython in a directory
holding profile.json (boards/profiles/circuitpython-pico.json) and
layout.json. The LEDs go through the real adafruit-circuitpython-neopixel
library (and its adafruit_pixelbuf) from the venv; only the modules below
it are fakes (tests/ports/fakes_cp: board, digitalio, neopixel_write,
supervisor, microcontroller, watchdog), so the bytes checked are the ones
the library hands to the hardware write. Prints "OK circuitpython".
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path[:0] = [
    os.path.join(ROOT, "tests", "ports", "fakes_cp"),
    os.path.join(ROOT, "firmware", "ports", "circuitpython"),
    os.path.join(ROOT, "firmware"),
]
# machine.py / physical.py only (after site-packages: its neopixel.py must
# not shadow the real library).
sys.path.append(os.path.join(ROOT, "tests", "ports", "fakes"))

import adafruit_pixelbuf  # noqa: E402
import neopixel  # noqa: E402
import neopixel_write  # noqa: E402
import physical  # noqa: E402
import microcontroller  # noqa: E402

import code as port  # noqa: E402

assert "site-packages" in neopixel.__file__, neopixel.__file__
assert "site-packages" in adafruit_pixelbuf.__file__

CHAIN = "a1 b1 a2 b2 a3 b3 a4 b4 c4 c3 d4 d3 e4 e3 c2 c1 d2 d1 e2 e1".split()


class Stub:
    def __init__(self, layout):
        self.layout = layout
        self.frame = bytearray(3 * layout.size)
        self.colour = (200, 100, 50)
        self.sensed = []
        self.presses = []

    def sense(self, mask, now_ms):
        self.sensed.append(mask)
        for i in range(self.layout.size):
            self.frame[3 * i : 3 * i + 3] = bytes(self.colour if mask >> i & 1 else (0, 0, 0))

    def press(self, button, now_ms):
        self.presses.append(button)

    def tick(self, now_ms):
        return False


def expect(lit, rgb, level):
    out = bytearray(60)
    r, g, b = (v * level // 255 for v in rgb)
    for k, name in enumerate(CHAIN):
        if name in lit:
            out[3 * k : 3 * k + 3] = bytes((g, r, b))  # GRB on the wire
    return bytes(out)


clock = physical.Clock()
chain = physical.HC165Chain("GP13", "GP10", "GP12", 4)
keys = physical.Switches(["GP16", "GP17"])
port._controller = lambda prof, layout, tiles, store: Stub(layout)

chain.close(2, 0)  # module 3 D0: c4
chain.close(3, 1)  # module 4 D1: c1
board = port.main(ticks=5, clock=clock.now, sleep=clock.sleep)
writes = neopixel_write.writes
assert writes[0] == ("GP22", bytes(60)), writes[0]  # dark at boot
assert writes[-1] == ("GP22", expect(("c4", "c1"), (200, 100, 50), 160)), writes[-1]
assert list(writes[-1][1][24:27]) == [62, 125, 31]  # c4, LED 8: G R B
assert board.controller.sensed == [1 << 17 | 1 << 2]
assert microcontroller.watchdog.timeout == 5.0 and microcontroller.watchdog.feeds == 5
assert len(writes) == 2


def run(n):
    port.run(board, 10, None, n, clock.now, clock.sleep)


# Full white everywhere: the cap holds it to 80 per channel (396 mA).
board.controller.colour = (255, 255, 255)
for r, n in enumerate((4, 4, 6, 6)):
    for d in range(n):
        chain.close(r, d)
run(5)
assert writes[-1] == ("GP22", b"\x50" * 60), writes[-1]

# UNDO pressed
keys.set("GP16", True)
run(5)
assert board.controller.presses == [0]
print("OK circuitpython")
