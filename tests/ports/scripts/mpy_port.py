"""The MicroPython port (firmware/ports/micropython/main.py) on fake hardware.

Run by tests/ports/test_micropython_port.py under the unix port of
MicroPython:

    MICROPYPATH=tests/ports/fakes:firmware/ports/micropython:firmware \
        micropython tests/ports/scripts/mpy_port.py SCENARIO

in a directory holding profile.json and layout.json (boards/4x5.json). The
scenarios are scenario_<name> functions of mpy_wiring.py (each profile's
wiring), mpy_power_up.py (main.py at power-up) and mpy_loop.py (main.run);
MicroPython puts this folder first on sys.path, so they and the helpers
they share (mpy_start, stub_controller, chain_4x5) are found beside it.
Prints "OK <scenario>".
"""

import sys

import mpy_loop
import mpy_power_up
import mpy_wiring

name = "scenario_" + (sys.argv[1] if len(sys.argv) > 1 else "hc165")
for module in (mpy_wiring, mpy_power_up, mpy_loop):
    if hasattr(module, name):
        getattr(module, name)()
        break
else:
    raise SystemExit("mpy_port.py: no scenario %s" % name[9:])
