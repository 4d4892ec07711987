"""The CircuitPython port (firmware/ports/circuitpython: boot.py, code.py) on fake modules.

Run by tests/ports/test_circuitpython_port.py with CPython, one scenario per
fresh process, in a directory holding profile.json and layout.json:

    python tests/ports/scripts/cp_port.py SCENARIO

Only CircuitPython's own modules are fakes (tests/ports/fakes_cp: board,
digitalio, keypad, neopixel_write, pwmio, storage, supervisor,
microcontroller, watchdog, written from CircuitPython's documentation), and
behind their pins the circuits of tests/ports/fakes/physical.py. The
scenarios are scenario_<name> functions of cp_wiring.py (the wiring read
and lit), cp_power_up.py (boot.py and code.py before the loop) and
cp_loop.py (code.run); cp_start.py puts the fakes on the path and starts
the port. Prints "OK <scenario>".
"""

import json
import sys

import cp_loop
import cp_power_up
import cp_wiring

if __name__ == "__main__":
    with open("profile.json") as f:
        json.load(f)  # the scenario's profile is there
    name = "scenario_" + sys.argv[1]
    for module in (cp_wiring, cp_power_up, cp_loop):
        if hasattr(module, name):
            getattr(module, name)()
            break
    else:
        raise SystemExit("cp_port.py: no scenario %s" % sys.argv[1])
