"""The boards' circuits as data: which parts, which net each pin takes.

The first step of the generator (the others: place.py, route*.py, the
checks, the writers; see __init__.py). A part is a dict: its reference, its
catalogue choice (symbol, footprint, part number), its pins {pad: net} (None:
left open, a no-connect flag on the schematic), its job on the board and,
once placed, where it lies. A module's squares, register inputs and chain
order come from the firmware (`attila.game.modules`: square k row by row
from the bottom-left, its switch on register input D(k), its LED the k-th
link of the module's chain); the cable's pins from cable.py; the
controller's GPIOs from its profile (circuit_controller.py, pinout.py).
"""

from attila_tools.hardware import catalogue as cat, geometry as g
from attila_tools.hardware.cable import NETS as CABLE_NETS

# The boards' revision and its date, printed on each board and in each
# schematic's title block (the generator's, not the clock's: regenerating
# gives the same files).
REVISION = "1.0"
DATE = "2026-12-07"

# The series resistors where a driver sends a signal down the cable: each
# module's last LED on the data-out, the controller's LOAD and CLOCK (source
# terminations; 0 Ohm is a valid value: a link). The smallest value that keeps
# every receiver's clamp idle over four hops of ribbon, as the simulation finds
# it (docs/pages/build/signals.md, tests/hardware/test_signals.py).
LED_OUT_SERIES = "68"
CABLE_SERIES = "68"


def part(ref, choice, pins, job, role, square=None, side="top"):
    """A part of `choice` (catalogue.Choice) with its pins by role: {role: net}."""
    return {"ref": ref, "value": choice.value, "symbol": choice.symbol,
            "footprint": choice.footprint, "maker": choice.maker, "mpn": choice.mpn,
            "pins": {choice.pin(r): net for r, net in pins.items()}, "job": job,
            "role": role, "square": square, "side": side, "anchor": choice.anchor,
            "choice": choice, "at": None, "rot": 0.0}


def led_net(kind, k):
    """Net name of the LED chain's data entering square k's LED (k == n: the
    last LED's data-out, before its series resistor to the OUT connector)."""
    n = g.squares(kind)
    if k == 0:
        return "LED_IN"
    if k == n:
        return "LED_DOUT"
    return "LED%d_%d" % (k - 1, k)


def square(kind, k):
    """Square k's cell: its LED, the LED's 100 nF, the reed switch, its pull-up."""
    d = "D%d" % k
    return [
        part("D%d" % (k + 1), cat.LED, {"supply": "+5V", "ground": "GND",
                                        "data_in": led_net(kind, k),
                                        "data_out": led_net(kind, k + 1)},
             "led", "square %d's LED, chain link %d" % (k, k), k),
        part("C%d" % (k + 1), cat.CAP_100N, {"1": "GND", "2": "+5V"}, "led_cap",
             "square %d's LED supply" % k, k),
        part("SW%d" % (k + 1), cat.SWITCH, {"ground": "GND", "signal": d}, "switch",
             "square %d's reed switch, register input %s" % (k, d), k),
        part("R%d" % (k + 1), cat.resistor("10k"), {"1": d, "2": "+3V3"}, "pullup",
             "square %d's pull-up" % k, k),
    ]


def register(kind):
    """The module's 74HC165: D(k) from square k, unused inputs at 3.3 V (they
    read 1, never float), QH to IN, SER from OUT; its ~Q7 left open."""
    n = g.squares(kind)
    pins = {"D%d" % i: ("D%d" % i if i < n else "+3V3") for i in range(8)}
    pins.update(LOAD="LOAD", CLOCK="CLOCK", GND="GND", CE="GND", VCC="+3V3", QH="QH",
                SER="SER", nQH=None)
    return part("U1", cat.REGISTER, pins, "register", "the module's shift register")


def module(kind):
    """The parts of a module board of `kind` ("2x2", "2x3", ...), not yet placed."""
    n = g.squares(kind)
    parts = []
    for k in range(n):
        parts += square(kind, k)
    parts += [
        register(kind),
        part("C%d" % (n + 1), cat.CAP_100N, {"1": "GND", "2": "+3V3"}, "register_cap",
             "the register's supply"),
        part("R%d" % (n + 1), cat.resistor("10k"), {"1": "SER", "2": "GND"}, "ser_pulldown",
             "SER pull-down: the last module's open end reads 0"),
        part("R%d" % (n + 2), cat.resistor(LED_OUT_SERIES), {"1": "LED_DOUT", "2": "LED_OUT"},
             "out_series", "series resistor of the LED data leaving for the next module"),
        part("C%d" % (n + 2), cat.CAP_22U, {"1": "GND", "2": "+5V"}, "bulk",
             "the module's bulk capacitor, where its 5 V comes in"),
    ]
    for ref, name, data, led in (("J1", "IN", "QH", "LED_IN"), ("J2", "OUT", "SER", "LED_OUT")):
        pins = {str(pin): {"LED": led, "SHIFT": data}.get(net, net)
                for pin, net in CABLE_NETS.items()}
        c = part(ref, cat.CABLE, pins, name.lower(),
                 "cable %s (2x4 IDC box header, bottom side)" % name, side="bottom")
        c["value"] = name
        parts.append(c)
    for i in range(len(g.mounting_holes(kind))):
        parts.append(part("H%d" % (i + 1), cat.HOLE, {}, "hole", "mounting hole"))
    return parts


def module_name(kind):
    return "module-" + kind


def board_kind(name):
    """The module kind of a board name ('module-2x3' -> '2x3'), or None."""
    return name[len("module-"):] if name.startswith("module-") else None


def nets(parts):
    """{net: [(ref, pin), ...]} of a board's parts, sorted (open pins left out)."""
    out = {}
    for p in parts:
        for pin, net in p["pins"].items():
            if net is not None:
                out.setdefault(net, []).append((p["ref"], pin))
    return {k: sorted(v) for k, v in sorted(out.items())}
