"""code.py of the CircuitPython port started on the fakes, with the stub controller.

Importing this module puts CircuitPython's fake modules (tests/ports/fakes_cp),
the port, the core and the circuits behind the pins
(tests/ports/fakes/physical.py) first on sys.path: the cp_*.py scenarios
import it before any of those. boot() runs boot.py as at power-up, start()
code.py's main() on the fake clock, reference() both on the reference
wiring (the 74HC165 chain, UNDO and MENU), run() more steps of its loop.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path[:0] = [
    os.path.join(ROOT, "tests", "ports", "fakes_cp"),
    os.path.join(ROOT, "firmware", "ports", "circuitpython"),
    os.path.join(ROOT, "firmware"),
    os.path.join(ROOT, "tests", "ports", "fakes"),  # machine.py / physical.py only
]

import physical  # noqa: E402
import storage  # noqa: E402
import supervisor  # noqa: E402

import code as port  # noqa: E402  (the port's code.py: its folder is first on the path)
import hardware  # noqa: E402
from attila.game import layoutfile  # noqa: E402
from stub_controller import stub_factory  # noqa: E402

LAYOUT = layoutfile.load(os.path.join(ROOT, "boards", "4x5.json"))[0]


def squares(*names):
    """The square-order mask of some squares of boards/4x5.json."""
    return sum(1 << LAYOUT.index(n) for n in names)


class Clock:
    """The board's clock: supervisor.ticks_ms, moved on by sleep()."""

    def __init__(self, t=1000):
        supervisor.t[0] = t

    def now(self):
        return supervisor.ticks_ms()

    def sleep(self, ms):
        supervisor.t[0] += ms


clock = Clock()
hardware.sleep_ms = clock.sleep
port._controller = stub_factory


def boot():
    """Power-up: boot.py, then code.py may no longer remount."""
    import boot as boot_py

    result = boot_py.main()
    storage.booted = True
    return result


def start(ticks=5):
    return port.main(ticks=ticks, clock=clock.now, sleep=clock.sleep)


def reference(ticks=5):
    """The reference wiring (74HC165 chain, UNDO and MENU), boot.py, then code.py."""
    chain = physical.HC165Chain("GP13", "GP10", "GP12", 4)
    physical.Switches(["GP16", "GP17"])
    boot()
    return start(ticks), chain


def run(board, n):
    port.run(board, 10, None, n, clock.now, clock.sleep)
