"""The circuits of the boards as data: parts, where they lie, which net each pin takes.

One description feeds the schematic writer (schematic.py), the PCB generator
(pcbgen.py, under KiCad's own Python) and the BOM. A module's squares, the
register inputs and the chain order come from the firmware
(`attila.game.modules.KINDS`: square k row by row from the bottom-left, switch on
register input D(k), LED k the module's k-th chain link); places from
geometry.py; the cable from cable.py.
"""

from attila_tools.hardware import geometry as g
from attila_tools.hardware.cable import NETS as CABLE_NETS

# The boards' revision and its date, printed on each board and in each
# schematic's title block (the generator's, not the clock's: regenerating
# gives the same files).
REVISION = "1.0"
DATE = "2026-12-07"

LIB_LED = ("LED:WS2812B", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm")
LIB_C = ("Device:C", "Capacitor_SMD:C_0603_1608Metric")
LIB_C_BULK = ("Device:C", "Capacitor_SMD:C_1206_3216Metric")
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
    "22uF": ("Murata", "GRM31CR61A226ME19L"),
    "0": ("Yageo", "RC0603JR-070RL"),
}
# Where a part number was checked (the others: unverified here, no network).
MPN_SOURCE = {
    "GRM31CR61A226ME19L": "22 uF 10 V X5R 1206: Digi-Key's KiCad library field (found with search)",
    "RC0603JR-070RL": "0 Ohm 0603: Yageo RC series naming, seen in public BOMs (unverified)",
}

# The series resistor where each module's last LED drives the cable's data-out
# (a source termination at the driver; 0 Ohm is a valid value: a link).
LED_OUT_SERIES = "33"

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
            "pins": dict(pins or {}), "maker": maker, "mpn": number, "role": role,
            "square": None}


def led_net(kind, k):
    """Net name of the LED chain's data entering square k's LED (k == n: the
    last LED's data-out, before its series resistor to the OUT connector)."""
    n = g.squares(kind)
    if k == 0:
        return "LED_IN"
    if k == n:
        return "LED_DOUT"
    return "LED%d_%d" % (k - 1, k)


def module(kind):
    """The parts of a module board of `kind` ("2x2" or "2x3")."""
    n = g.squares(kind)
    parts = []
    for k in range(n):
        right = g.mirrored(kind, k)
        first = len(parts)
        # The LED turned so that its 5 V and data-out pads face the spine.
        parts.append(part("D%d" % (k + 1), "WS2812B", LIB_LED, g.at(kind, k, g.LED_AT),
                          0.0 if right else 180.0,
                          pins={"1": "+5V", "2": led_net(kind, k + 1), "3": "GND",
                                "4": led_net(kind, k)},
                          role="square %d's LED, chain link %d" % (k, k)))
        # Its +5 V pad (2) towards the spine, under the LED's VDD pad.
        parts.append(part("C%d" % (k + 1), "100nF", LIB_C, g.cap_at(kind, k),
                          180.0 if right else 0.0, pins={"1": "GND", "2": "+5V"},
                          role="square %d's LED supply" % k))
        parts.append(part("SW%d" % (k + 1), "reed", LIB_REED, g.at(kind, k, g.REED_AT),
                          90.0, pins={"1": "GND", "2": "D%d" % k},
                          role="square %d's reed switch, register input D%d" % (k, k)))
        parts.append(part("R%d" % (k + 1), "10k", LIB_R, g.at(kind, k, g.PULLUP_AT), 270.0,
                          pins={"1": "D%d" % k, "2": "+3V3"},
                          role="square %d's pull-up" % k))
        for p in parts[first:]:
            p["square"] = k  # the schematic names it, so the netlist says where a part lies
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
    # Along the last LED's data-out lane, towards the spine (pad 1 at the LED).
    parts.append(part("R%d" % (n + 2), LED_OUT_SERIES, LIB_R,
                      g.at(kind, n - 1, g.SERIES_AT), 180.0 if g.mirrored(kind, n - 1) else 0.0,
                      pins={"1": "LED_DOUT", "2": "LED_OUT"},
                      role="series resistor of the LED data leaving for the next module"))
    parts.append(part("C%d" % (n + 2), "22uF", LIB_C_BULK, g.at(kind, 0, g.BULK_AT), 270.0,
                      pins={"1": "GND", "2": "+5V"},
                      role="the module's bulk capacitor, where its 5 V comes in"))
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


# The Raspberry Pi Pico's (and Pico 2's) header: GPIO number -> board pin.
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
            22: 29, 26: 31, 27: 32, 28: 34}
PICO_GND = (3, 8, 13, 18, 23, 28, 33, 38)
PICO_VSYS, PICO_3V3 = 39, 36
# The microSD card's SPI pins (docs/pages/build/card.md: the reference Pico's).
SD_PINS = {"spi": 0, "sck": 2, "mosi": 3, "miso": 4, "cs": 5}
CONTROLLER_SIZE = (104.0, 64.0)

MPN.update({
    "Pico": ("Raspberry Pi", "SC0915"),
    "74AHCT1G125": ("Texas Instruments", "SN74AHCT1G125DBVR"),
    "330": ("Yageo", "RC0603FR-07330RL"),
    "33": ("Yageo", "RC0603FR-0733RL"),
    "1000uF": ("Panasonic", "EEU-FR1A102"),
    "SS14": ("onsemi", "SS14"),
    "button": ("Omron", "B3F-1000"),
    "piezo": ("TDK", "PS1240P02BT"),
    "microSD": ("Molex", "1040310811"),
    "USB-C 5V": ("GCT", "USB4125-GF-A"),
    "PTC 0.75A": ("Bourns", "MF-MSMF075/24"),
    "SMAJ5.0A": ("Littelfuse", "SMAJ5.0A"),
    "AO3401A": ("Alpha & Omega Semiconductor", "AO3401A"),
    "5.1k": ("Yageo", "RC0603FR-075K1L"),
})
MPN_SOURCE.update({
    "USB4125-GF-A": "GCT USB4125 power-only 6P receptacle, 3 A: KiCad's footprint description "
                    "and drawing gct.co/files/drawings/usb4125.pdf (the GF-A suffix: public BOMs)",
    "MF-MSMF075/24": "Bourns MF-MSMF series datasheet: I hold 0.75 A, I trip 1.5 A, 24 V max, "
                     "40 A max, trips in 0.2 s at 8 A (all at 23 C)",
    "SMAJ5.0A": "KiCad's Diode:SMAJ5.0A symbol (Littelfuse datasheet): 5.0 V stand-off, "
                "breakdown 6.40-7.07 V, clamps 9.2 V at 43.5 A, 400 W (10/1000 us)",
    "AO3401A": "KiCad's Transistor_FET:AO3401A symbol (AOS datasheet): -30 V, -4 A, "
               "Vgs +-12 V, Rds(on) under 60 mOhm at Vgs -4.5 V",
    "RC0603FR-075K1L": "5.1 kOhm 1 % 0603: Digi-Key's listing (found with search)",
})

# The 5 V input's resettable fuse: sized to the LED budget (the firmware's
# 400 mA, attila/leds/strip.py and boards/profiles/pico.json) and the Pico's
# and the card's 100 mA, with room for a warm case; no copper of the 5 V path
# carries more than its trip current for long (tests/hardware/test_copper.py).
FUSE_HOLD_MA, FUSE_TRIP_MA = 750, 1500


def controller(prof=None):
    """The controller: a Pico, the LED data level shifter, the chain's first
    connector, the LEDs' own 5 V input, buttons, piezo and microSD socket; the
    GPIOs from the profile (boards/profiles/pico.json)."""
    if prof is None:
        import json
        import os

        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))))
        with open(os.path.join(root, "boards", "profiles", "pico.json")) as f:
            prof = json.load(f)
    s = prof["sensors"]
    gp = {"LED_GP": prof["leds"]["pin"], "LOAD_GP": s["load"], "CLOCK_GP": s["clock"],
          "SHIFT": s["data"], "UNDO": prof["buttons"]["undo"], "MENU": prof["buttons"]["menu"],
          "BUZZER": prof["buzzer"], "SD_SCK": SD_PINS["sck"], "SD_MOSI": SD_PINS["mosi"],
          "SD_MISO": SD_PINS["miso"], "SD_CS": SD_PINS["cs"]}
    pico = {str(PICO_PIN[g_]): net for net, g_ in gp.items()}
    pico.update({str(p): "GND" for p in PICO_GND if p != 33})
    # AGND is the Pico's own ground for its ADC, joined to GND on the module.
    pico["33"] = "unconnected-(U1-AGND-Pad33)"
    pico.update({str(PICO_VSYS): "VSYS", str(PICO_3V3): "+3V3"})
    parts = [part("U1", "Pico", ("MCU_Module:RaspberryPi_Pico",
                                 "Module:RaspberryPi_Pico_Common_THT"), (20.0, 34.0), 0.0,
                  pins=pico, role="Raspberry Pi Pico (or Pico 2)")]
    # One buffer of the 74AHCT125 family: its input reads the Pico's 3.3 V as high.
    shifter = {"1": "GND", "2": "LED_GP", "3": "GND", "4": "LED_5V", "5": "+5V"}
    parts.append(part("U2", "74AHCT1G125", ("74xGxx:74AHCT1G125",
                                            "Package_TO_SOT_SMD:SOT-23-5"),
                      (37.0, 30.19), 0.0, pins=shifter, role="3.3 V -> 5 V LED data"))
    parts.append(part("C1", "100nF", LIB_C, (40.5, 33.0), 180.0, pins={"1": "GND", "2": "+5V"},
                      role="the level shifter's supply"))
    parts.append(part("R1", "330", LIB_R, (41.0, 29.24), 0.0, pins={"1": "LED_5V", "2": "LED"},
                      role="series resistor of the LED data"))
    parts.append(part("R2", "33", LIB_R, (54.0, 18.76), 0.0, pins={"1": "LOAD_GP", "2": "LOAD"},
                      role="series resistor of LOAD (the cable's ringing)"))
    parts.append(part("R3", "33", LIB_R, (48.0, 23.84), 0.0, pins={"1": "CLOCK_GP", "2": "CLOCK"},
                      role="series resistor of CLOCK"))
    cab = {}
    for pin, net in CABLE_NETS.items():
        cab[str(pin)] = net
    parts.append(part("J1", "OUT", LIB_CABLE, (86.0, 30.0), 90.0, pins=cab, mpn="cable",
                      role="the first module's cable"))
    parts += power_input()
    parts.append(part("D1", "SS14", ("Device:D_Schottky", "Diode_SMD:D_SMA"), (37.0, 55.59), 0.0,
                      pins={"1": "VSYS", "2": "+5V"},
                      role="5 V input -> the Pico's VSYS (the Pico's own diode guards USB)"))
    parts.append(part("SW1", "button", ("Switch:SW_Push", "Button_Switch_THT:SW_PUSH_6mm"),
                      (34.0, 9.87), 0.0, pins={"1": "UNDO", "2": "GND"}, role="UNDO"))
    parts.append(part("SW2", "button", ("Switch:SW_Push", "Button_Switch_THT:SW_PUSH_6mm"),
                      (46.0, 12.41), 0.0, pins={"1": "MENU", "2": "GND"}, role="MENU"))
    parts.append(part("BZ1", "piezo", ("Device:Buzzer",
                                       "Buzzer_Beeper:Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm"),
                      (59.0, 7.0), 0.0, pins={"1": "BUZZER", "2": "GND"},
                      role="piezo transducer (not a magnetic buzzer)"))
    # The shell (pads 11) to ground; the card-detect switch (pads 9 and 10) is
    # left open: the firmware does not read it (docs/pages/build/card.md).
    sd = {"1": "SD_DAT2", "2": "SD_CS", "3": "SD_MOSI", "4": "+3V3", "5": "SD_SCK", "6": "GND",
          "7": "SD_MISO", "8": "SD_DAT1", "9": "unconnected-(J3-DET_B-Pad9)",
          "10": "unconnected-(J3-DET_A-Pad10)", "11": "GND"}
    parts.append(part("J3", "microSD", ("Connector:Micro_SD_Card_Det2",
                                        "Connector_Card:microSD_HC_Molex_104031-0811"),
                      (62.0, 56.0), 180.0, pins=sd, role="the solved game's card"))
    pull_at = {"SD_MISO": ((57.0, 42.2), 270.0), "SD_DAT1": ((55.0, 46.0), 270.0),
               "SD_DAT2": ((68.0, 46.5), 270.0), "SD_CS": ((66.0, 44.5), 270.0)}
    for i, net in enumerate(("SD_MISO", "SD_DAT1", "SD_DAT2", "SD_CS")):
        parts.append(part("R%d" % (4 + i), "10k", LIB_R, pull_at[net][0], pull_at[net][1],
                          pins={"1": net, "2": "+3V3"},
                          role="pull-up of %s (the SD spec's, and CS idle high)" % net))
    parts.append(part("C3", "100nF", LIB_C, (60.2, 42.6), 0.0, pins={"1": "GND", "2": "+3V3"},
                      role="the card's supply"))
    # CircuitPython's keypad.ShiftRegisterKeys leaves the data pin without a
    # pull: with the cable out the line must read all ones (the chain check's
    # "module 1 not answering"), not float; under MicroPython the pad's own
    # pull-up sits in parallel.
    parts.append(part("R8", "10k", LIB_R, (70.0, 30.0), 90.0, pins={"1": "SHIFT", "2": "+3V3"},
                      role="pull-up of the chain's shift data (CircuitPython sets none)"))
    w, h = CONTROLLER_SIZE
    for i, xy in enumerate(((3.5, 3.5), (w - 3.5, 3.5), (3.5, h - 3.5), (w - 3.5, h - 3.5))):
        parts.append(part("H%d" % (i + 1), "M3", LIB_HOLE, xy, role="mounting hole"))
    return parts


def power_input():
    """The LEDs' own 5 V input, at the board's bottom edge, facing out: a USB-C
    receptacle asking for 5 V only (5.1 kOhm on CC1 and CC2), a resettable
    fuse, a clamp against over-voltage after it (a short through the clamp
    trips the fuse), a P-MOSFET against reversed polarity, and the 1000 uF on
    the LEDs' side. The Pico's own USB stays apart: nothing joins VIN to VBUS."""
    usb_c = ("Connector:USB_C_Receptacle_PowerOnly_6P",
             "Connector_USB:USB_C_Receptacle_GCT_USB4125-xx-x_6P_TopMnt_Horizontal")
    return [
        # its "PCB Edge" line (the footprint's, 3.4 mm from its origin) on the board's edge
        part("J2", "USB-C 5V", usb_c, (87.0, 3.4), 0.0,
             pins={"A9": "VIN", "B9": "VIN", "A12": "GND", "B12": "GND", "A5": "CC1",
                   "B5": "CC2", "S1": "GND"},
             role="the LEDs' own 5 V supply (USB-C, 5 V only), never the Pico's VBUS"),
        part("R10", "5.1k", LIB_R, (84.0, 10.6), 180.0, pins={"1": "CC1", "2": "GND"},
             role="CC1 pull-down: a USB-C supply gives 5 V, nothing more"),
        part("R11", "5.1k", LIB_R, (90.0, 10.6), 0.0, pins={"1": "CC2", "2": "GND"},
             role="CC2 pull-down"),
        part("F1", "PTC 0.75A", ("Device:Polyfuse", "Fuse:Fuse_1812_4532Metric"), (79.0, 11.5),
             90.0, pins={"1": "VIN", "2": "VIN_FUSED"},
             role="resettable fuse: the LED budget passes, a short or the clamp trips it"),
        part("D2", "SMAJ5.0A", ("Diode:SMAJ5.0A", "Diode_SMD:D_SMA"), (73.4, 14.85), 180.0,
             pins={"1": "VIN_FUSED", "2": "GND"},
             role="over-voltage clamp (TVS); reversed, it conducts and the fuse trips"),
        part("Q1", "AO3401A", ("Transistor_FET:AO3401A", "Package_TO_SOT_SMD:SOT-23"),
             (79.0, 17.0), 270.0, pins={"1": "Q1_GATE", "2": "+5V", "3": "VIN_FUSED"},
             role="reverse-polarity guard: on when the input is the right way round"),
        part("R9", "10k", LIB_R, (82.3, 17.94), 0.0, pins={"1": "Q1_GATE", "2": "GND"},
             role="Q1's gate to ground"),
        part("C2", "1000uF", ("Device:C_Polarized", "Capacitor_THT:CP_Radial_D8.0mm_P3.50mm"),
             (74.0, 7.0), 180.0, pins={"1": "+5V", "2": "GND"},
             role="on the LEDs' side of the input"),
    ]


BOARDS = {"module-2x2": lambda: module("2x2"), "module-2x3": lambda: module("2x3"),
          "controller": controller}


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
