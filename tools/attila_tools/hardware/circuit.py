"""The circuits of the boards as data: parts, where they lie, which net each pin takes.

One description feeds the schematic writer (schematic.py), the PCB generator
(pcbgen.py, under KiCad's own Python) and the BOM. A module's squares, the
register inputs and the chain order come from the firmware
(`attila.modules.KINDS`: square k row by row from the bottom-left, switch on
register input D(k), LED k the module's k-th chain link); places from
geometry.py; the cable from cable.py.
"""

from attila_tools.hardware import geometry as g
from attila_tools.hardware.cable import NETS as CABLE_NETS

LIB_LED = ("LED:WS2812B", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm")
LIB_C = ("Device:C", "Capacitor_SMD:C_0603_1608Metric")
LIB_R = ("Device:R", "Resistor_SMD:R_0603_1608Metric")
LIB_REED = ("Switch:SW_Reed", "Button_Switch_SMD:SW_SPST_REED_CT10-XXXX-G1")
LIB_165 = ("74xx:74HC165", "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm")
LIB_CABLE = ("Connector_Generic:Conn_02x04_Odd_Even", "Connector_IDC:IDC-Header_2x04_P2.54mm_Vertical")
LIB_HOLE = ("Mechanical:MountingHole", "MountingHole:MountingHole_3.2mm_M3")

# Manufacturer and part number of each kind of part (what the BOM orders).
MPN = {
    "WS2812B": ("Worldsemi", "WS2812B-B/W"),
    "100nF": ("Samsung", "CL10B104KB8NNNC"),
    "10k": ("Yageo", "RC0603FR-0710KL"),
    "reed": ("Coto Technology", "CT10-1530-G1"),
    "74HC165": ("Nexperia", "74HC165D,653"),
    "cable": ("Wurth Elektronik", "61200821621"),
}

# 74HC165 (KiCad's symbol numbers): register input D(k) -> package pin.
REGISTER_INPUT_PIN = {0: "11", 1: "12", 2: "13", 3: "14", 4: "3", 5: "4", 6: "5", 7: "6"}
REGISTER_PINS = {"1": "LOAD", "2": "CLOCK", "8": "GND", "9": "QH", "10": "SER", "15": "GND",
                 "16": "+3V3", "7": "unconnected-(U1-~{Q7}-Pad7)"}  # ~Q7 is left open
# (that net name is the one KiCad's netlist gives a pin with a no-connect flag)


def REGISTER_CAP(kind):
    """The register's 100 nF: left of it, by the 3V3 track that feeds its pin 16."""
    x, y = g.at(kind, 0, g.REGISTER_AT)
    return (x - 7.0, y - 1.0)


def part(ref, value, lib, at, rot=0.0, side="top", pins=None, mpn=None, role=""):
    maker, number = MPN.get(mpn or value, ("", ""))
    return {"ref": ref, "value": value, "symbol": lib[0], "footprint": lib[1],
            "at": (round(at[0], 3), round(at[1], 3)), "rot": rot, "side": side,
            "pins": dict(pins or {}), "maker": maker, "mpn": number, "role": role}


def led_net(kind, k):
    """Net name of the LED chain's data entering square k's LED (k == n: leaving the module)."""
    n = g.squares(kind)
    if k == 0:
        return "LED_IN"
    if k == n:
        return "LED_OUT"
    return "LED%d_%d" % (k - 1, k)


def module(kind):
    """The parts of a module board of `kind` ("2x2" or "2x3")."""
    n = g.squares(kind)
    parts = []
    for k in range(n):
        right = g.mirrored(kind, k)
        # The LED turned so that its 5 V and data-out pads face the spine.
        parts.append(part("D%d" % (k + 1), "WS2812B", LIB_LED, g.at(kind, k, g.LED_AT),
                          0.0 if right else 180.0,
                          pins={"1": "+5V", "2": led_net(kind, k + 1), "3": "GND",
                                "4": led_net(kind, k)},
                          role="square %d's LED, chain link %d" % (k, k)))
        parts.append(part("C%d" % (k + 1), "100nF", LIB_C, g.at(kind, k, g.CAP_AT),
                          90.0, pins={"1": "GND", "2": "+5V"},
                          role="square %d's LED supply" % k))
        parts.append(part("SW%d" % (k + 1), "reed", LIB_REED, g.at(kind, k, g.REED_AT),
                          90.0, pins={"1": "GND", "2": "D%d" % k},
                          role="square %d's reed switch, register input D%d" % (k, k)))
        parts.append(part("R%d" % (k + 1), "10k", LIB_R, g.at(kind, k, g.PULLUP_AT), 270.0,
                          pins={"1": "D%d" % k, "2": "+3V3"},
                          role="square %d's pull-up" % k))
    pins = dict(REGISTER_PINS)
    for i, pin in REGISTER_INPUT_PIN.items():
        pins[pin] = "D%d" % i if i < n else "+3V3"  # unused inputs read 1, never float
    parts.append(part("U1", "74HC165", LIB_165, g.at(kind, 0, g.REGISTER_AT), 90.0, pins=pins,
                      role="the module's shift register"))
    parts.append(part("C%d" % (n + 1), "100nF", LIB_C, REGISTER_CAP(kind), 90.0,
                      pins={"1": "GND", "2": "+3V3"}, role="the register's supply"))
    parts.append(part("R%d" % (n + 1), "10k", LIB_R, g.at(kind, n - 1, g.SER_PULLDOWN_AT), 90.0,
                      pins={"1": "SER", "2": "GND"},
                      role="SER pull-down: the last module's open end reads 0"))
    cons = g.connectors(kind)
    for ref, name, data, led in (("J1", "IN", "QH", "LED_IN"), ("J2", "OUT", "SER", "LED_OUT")):
        pins = {}
        for pin, net in CABLE_NETS.items():
            pins[str(pin)] = {"LED": led, "SHIFT": data}.get(net, net)
        parts.append(part(ref, name, LIB_CABLE, cons[name], 270.0 if name == "IN" else 90.0,
                          "bottom", pins, mpn="cable",
                          role="cable %s (2x4 IDC box header, bottom side)" % name))
    for i, xy in enumerate(g.mounting_holes(kind)):
        parts.append(part("H%d" % (i + 1), "M3", LIB_HOLE, xy, role="mounting hole"))
    return parts


BOARDS = {"module-2x2": lambda: module("2x2"), "module-2x3": lambda: module("2x3")}


def board_kind(name):
    """The module kind of a board name ('module-2x3' -> '2x3'), or None."""
    return name[len("module-"):] if name.startswith("module-") else None


def nets(parts):
    """{net: [(ref, pin), ...]} of a board's parts, sorted."""
    out = {}
    for p in parts:
        for pin, net in p["pins"].items():
            out.setdefault(net, []).append((p["ref"], pin))
    return {k: sorted(v) for k, v in sorted(out.items())}
