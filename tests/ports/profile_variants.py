"""What the profile tests share: the shipped files and a minimal profile to vary.

MINIMAL is the least a MicroPython profile needs (an LED pin and a 74HC165
chain); variant() changes fields of a copy by path, so each test says only
what it changes.
"""

import glob
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROFILES = sorted(glob.glob(os.path.join(ROOT, "boards", "profiles", "*.json")))
LAYOUTS = sorted(glob.glob(os.path.join(ROOT, "boards", "*.json")))

MINIMAL = {
    "leds": {"pin": 22},
    "sensors": {"kind": "74hc165", "load": 13, "clock": 10, "data": 12},
}


def variant(**changes):
    """A copy of MINIMAL with fields changed by path (leds__pin=30 sets
    ["leds"]["pin"]); the value KeyError removes the field."""
    data = json.loads(json.dumps(MINIMAL))
    for dotted, value in changes.items():
        keys = dotted.split("__")
        d = data
        for k in keys[:-1]:
            d = d.setdefault(k, {})
        if value is KeyError:
            del d[keys[-1]]
        else:
            d[keys[-1]] = value
    return data
