"""main.py of the MicroPython port started on the fakes, with the stub controller.

For the scenarios of mpy_port.py: start() runs main.main() on a fake clock;
reference() first wires the reference board (the 74HC165 chain, UNDO and
MENU).
"""

import physical

import main
from stub_controller import stub_factory


def start(clock, ticks=5):
    main._controller = stub_factory
    return main.main(ticks=ticks, clock=clock.now, sleep=clock.sleep)


def reference(ticks=5):
    """The reference wiring (74HC165 chain, UNDO and MENU) under main.py."""
    physical.HC165Chain(13, 10, 12, 4)
    physical.Switches([16, 17])
    clock = physical.Clock()
    return start(clock, ticks), clock
