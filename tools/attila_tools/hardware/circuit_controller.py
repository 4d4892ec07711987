"""The controller's circuit: a Pico, the LED data's level shifter, the chain's
first connector, the LEDs' own USB-C 5 V input behind its protection,
buttons, piezo and microSD socket. Every GPIO comes from the ordered
controller's profile (pinout.py); places from place_controller.py.
"""

from attila_tools.hardware import catalogue as cat, pinout
from attila_tools.hardware.cable import NETS as CABLE_NETS
from attila_tools.hardware.circuit import CABLE_SERIES, part

# The 5 V input's resettable fuse: sized to the LED budget (the firmware's
# 400 mA, attila/leds/strip.py and the controller's profile) and the Pico's
# and the card's 100 mA, with room for a warm case; no copper of the 5 V path
# carries more than its trip current for long (tests/hardware/test_copper.py).
FUSE_HOLD_MA, FUSE_TRIP_MA = cat.FUSE.facts["hold_ma"], cat.FUSE.facts["trip_ma"]


def pico(prof=None):
    """The Pico: each GPIO the profile names on its net; ground, VSYS, 3V3."""
    pins = {str(pinout.PICO_PIN[gpio]): net + ("_GP" if net in ("LED", "LOAD", "CLOCK") else "")
            for net, gpio in pinout.gpios(prof).items()}
    pins.update({str(p): "GND" for p in pinout.PICO_GND})
    # AGND is the Pico's own ground for its ADC, joined to GND on the module.
    pins[str(pinout.PICO_AGND)] = None
    pins.update({str(pinout.PICO_VSYS): "VSYS", str(pinout.PICO_3V3): "+3V3"})
    p = part("U1", cat.PICO, {}, "pico", "Raspberry Pi Pico (or Pico 2)")
    p["pins"] = pins
    return p


def led_data():
    """One buffer of the 74AHCT125 family (its input reads the Pico's 3.3 V as
    high) with its 100 nF, and the series resistors on the cable's lines."""
    r = cat.resistor
    return [
        part("U2", cat.BUFFER, {"OE": "GND", "A": "LED_GP", "GND": "GND", "Y": "LED_5V",
                                "VCC": "+5V"}, "buffer", "3.3 V -> 5 V LED data"),
        part("C1", cat.CAP_100N, {"1": "GND", "2": "+5V"}, "buffer_cap",
             "the level shifter's supply"),
        part("R1", r("330"), {"1": "LED_5V", "2": "LED"}, "led_series",
             "series resistor of the LED data"),
        part("R2", r(CABLE_SERIES), {"1": "LOAD_GP", "2": "LOAD"}, "load_series",
             "series resistor of LOAD (the cable's ringing)"),
        part("R3", r(CABLE_SERIES), {"1": "CLOCK_GP", "2": "CLOCK"}, "clock_series",
             "series resistor of CLOCK"),
        # CircuitPython's keypad.ShiftRegisterKeys leaves the data pin without a
        # pull: with the cable out the line must read all ones (the chain check's
        # "module 1 not answering"), not float; under MicroPython the pad's own
        # pull-up sits in parallel.
        part("R8", r("10k"), {"1": "SHIFT", "2": "+3V3"}, "shift_pullup",
             "pull-up of the chain's shift data (CircuitPython sets none)"),
    ]


def card():
    """The microSD socket: SPI on the profile's pins, its data lines and CS
    pulled up (the SD specification's, and CS idle high while the Pico boots),
    the shell to ground; the card-detect switch left open (the firmware does
    not read it: docs/pages/build/card.md)."""
    sd = part("J3", cat.MICRO_SD, {"DAT2": "SD_DAT2", "CS": "SD_CS", "MOSI": "SD_MOSI",
                                   "VDD": "+3V3", "SCK": "SD_SCK", "VSS": "GND",
                                   "MISO": "SD_MISO", "DAT1": "SD_DAT1", "DET_B": None,
                                   "DET_A": None, "SHELL": "GND"}, "card",
              "the solved game's card")
    out = [sd]
    for i, net in enumerate(("SD_MISO", "SD_DAT1", "SD_DAT2", "SD_CS")):
        out.append(part("R%d" % (4 + i), cat.resistor("10k"), {"1": net, "2": "+3V3"},
                        "card_pullup", "pull-up of %s" % net))
    out.append(part("C3", cat.CAP_100N, {"1": "GND", "2": "+3V3"}, "card_cap",
                    "the card's supply"))
    return out


def power_input():
    """The LEDs' own 5 V input, at the board's bottom edge, facing out: a USB-C
    receptacle asking for 5 V only (5.1 kOhm on CC1 and CC2), a resettable
    fuse, a clamp against over-voltage after it (a short through the clamp
    trips the fuse), a P-MOSFET against reversed polarity, and the 1000 uF on
    the LEDs' side. The Pico's own USB stays apart: nothing joins VIN to VBUS."""
    r = cat.resistor
    return [
        part("J2", cat.USB_C, {"VBUS_A": "VIN", "VBUS_B": "VIN", "GND_A": "GND",
                               "GND_B": "GND", "CC1": "CC1", "CC2": "CC2", "SHIELD": "GND"},
             "usb", "the LEDs' own 5 V supply (USB-C, 5 V only), never the Pico's VBUS"),
        part("R10", r("5.1k"), {"1": "CC1", "2": "GND"}, "cc1",
             "CC1 pull-down: a USB-C supply gives 5 V, nothing more"),
        part("R11", r("5.1k"), {"1": "CC2", "2": "GND"}, "cc2", "CC2 pull-down"),
        part("F1", cat.FUSE, {"1": "VIN", "2": "VIN_FUSED"}, "fuse",
             "resettable fuse: the LED budget passes, a short or the clamp trips it"),
        part("D2", cat.TVS, {"K": "VIN_FUSED", "A": "GND"}, "clamp",
             "over-voltage clamp (TVS); reversed, it conducts and the fuse trips"),
        part("Q1", cat.PFET, {"G": "Q1_GATE", "S": "+5V", "D": "VIN_FUSED"}, "guard",
             "reverse-polarity guard: on when the input is the right way round"),
        part("R9", r("10k"), {"1": "Q1_GATE", "2": "GND"}, "gate", "Q1's gate to ground"),
        part("C2", cat.CAP_1000U, {"+": "+5V", "-": "GND"}, "bulk",
             "on the LEDs' side of the input"),
        part("D1", cat.SCHOTTKY, {"K": "VSYS", "A": "+5V"}, "vsys",
             "5 V input -> the Pico's VSYS (the Pico's own diode guards USB)"),
    ]


def controller(prof=None):
    """The controller's parts, not yet placed (`prof`: a profile instead of the
    shipped one); place_controller.place lays them."""
    chain = part("J1", cat.CABLE, {str(p): n for p, n in CABLE_NETS.items()}, "out",
                 "the first module's cable")
    chain["value"] = "OUT"
    parts = [pico(prof)] + led_data() + [chain] + power_input() + [
        part("SW1", cat.BUTTON, {"1": "UNDO", "2": "GND"}, "undo", "UNDO"),
        part("SW2", cat.BUTTON, {"1": "MENU", "2": "GND"}, "menu", "MENU"),
        part("BZ1", cat.PIEZO, {"1": "BUZZER", "2": "GND"}, "piezo",
             "piezo transducer (not a magnetic buzzer)"),
    ] + card()
    parts += [part("H%d" % (i + 1), cat.HOLE, {}, "hole", "mounting hole") for i in range(4)]
    return parts
