"""The parts the boards are made of, each chosen once: its KiCad symbol and
footprint, maker and part number, which pad does what, how tall it stands.

Everything else reads this table: the circuits (circuit.py), the routing
(by pad role: an LED's "data_out" pad, whatever its number), the checks, the
BOM and the current model (an LED's milliamps per colour channel, held to
the firmware's by tests/hardware/test_parts_table.py). To build the board
with another LED or switch, change its row here.

Pin numbers are the footprint's pads, which are the symbol's pin numbers;
the checks read the symbols' pin names from KiCad's own library (kicadlib)
and a test holds these roles to them.
"""


class Choice:
    """One kind of part: what the BOM orders and how the boards use it."""

    def __init__(self, value, symbol, footprint, maker="", mpn="", pins=None, height=0.0,
                 anchor="origin", source="", **facts):
        self.value = value  # what the schematic and the BOM call it
        self.symbol = symbol  # KiCad's library symbol
        self.footprint = footprint  # KiCad's library footprint
        self.maker, self.mpn = maker, mpn
        self.pins = dict(pins or {})  # role -> pad number
        self.height = height  # mm above its side (a connector: below); 0: no check needs it
        self.anchor = anchor  # "pads": placed by its pads' middle (its origin is pin 1)
        self.source = source  # where the part number or a figure was checked
        self.facts = facts  # figures the checks and models read (an LED's current)

    def pin(self, role):
        """The pad number of a role ("data_in" -> "4")."""
        if role not in self.pins:
            raise KeyError("%s has no pin for %r (it has %s)" % (self.value, role,
                                                                  ", ".join(sorted(self.pins))))
        return self.pins[role]


TWO = {"1": "1", "2": "2"}

# The square's parts: an RGB LED under the square, a reed switch the piece's
# magnet closes (docs/pages/build/pieces.md), and its pull-up.
LED = Choice("WS2812B", "LED:WS2812B", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
             "Worldsemi", "WS2812B-B/W",
             {"supply": "1", "data_out": "2", "ground": "3", "data_in": "4"}, height=1.6,
             source="Worldsemi WS2812B datasheet: 5.0 x 5.0 x 1.6 mm, about 20 mA a channel",
             ma_per_channel=20, idle_ma=1)
SWITCH = Choice("reed", "Switch:SW_Reed", "Button_Switch_SMD:SW_SPST_REED_CT10-XXXX-G1",
                "Coto Technology", "CT10-1530-G1", {"ground": "1", "signal": "2"},
                height=2.6, source="Coto CT10 series: 15 mm between its pads, 2.6 mm tall")
REGISTER = Choice("74HC165", "74xx:74HC165", "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
                  "Nexperia", "74HC165D,653",
                  dict({"D%d" % k: p for k, p in enumerate(
                      ("11", "12", "13", "14", "3", "4", "5", "6"))},
                      LOAD="1", CLOCK="2", GND="8", QH="9", SER="10", CE="15", VCC="16",
                      nQH="7"), height=1.75)
CABLE = Choice("box header", "Connector_Generic:Conn_02x04_Odd_Even",
               "Connector_IDC:IDC-Header_2x04_P2.54mm_Vertical", "Wurth Elektronik",
               "61200821621", {str(p): str(p) for p in range(1, 9)}, height=9.1,
               anchor="pads")
HOLE = Choice("M3", "Mechanical:MountingHole", "MountingHole:MountingHole_3.2mm_M3")

C_0603 = "Capacitor_SMD:C_0603_1608Metric"
R_0603 = "Resistor_SMD:R_0603_1608Metric"
CAP_100N = Choice("100nF", "Device:C", C_0603, "Samsung", "CL10B104KB8NNNC", TWO, height=0.9)
CAP_22U = Choice("22uF", "Device:C", "Capacitor_SMD:C_1206_3216Metric", "Murata",
                 "GRM31CR61A226ME19L", TWO, height=1.8,
                 source="22 uF 10 V X5R 1206: Digi-Key's KiCad library field (found with "
                        "search); 1.6 mm thick +0.2 (Murata's naming: thickness code C)")
CAP_1000U = Choice("1000uF", "Device:C_Polarized", "Capacitor_THT:CP_Radial_D8.0mm_P3.50mm",
                   "Panasonic", "EEU-FR1A102", {"+": "1", "-": "2"})
RESISTORS = {
    "10k": ("RC0603FR-0710KL", ""),
    "33": ("RC0603FR-0733RL", ""),
    "68": ("RC0603FR-0768RL", ""),
    "330": ("RC0603FR-07330RL", ""),
    "5.1k": ("RC0603FR-075K1L", "5.1 kOhm 1 % 0603: Digi-Key's listing (found with search)"),
    "0": ("RC0603JR-070RL", "0 Ohm 0603: Yageo RC series naming, seen in public BOMs "
                            "(unverified)"),
}


def resistor(value):
    """A 0603 resistor of `value` (Yageo's RC series)."""
    if value not in RESISTORS:
        raise KeyError("no resistor of %s Ohm in catalogue.RESISTORS" % value)
    mpn, source = RESISTORS[value]
    return Choice(value, "Device:R", R_0603, "Yageo", mpn, TWO, height=0.55, source=source)


# The controller's parts.
PICO = Choice("Pico", "MCU_Module:RaspberryPi_Pico", "Module:RaspberryPi_Pico_Common_THT",
              "Raspberry Pi", "SC0915", height=1.0, anchor="pads")  # its own board, 1 mm
BUFFER = Choice("74AHCT1G125", "74xGxx:74AHCT1G125", "Package_TO_SOT_SMD:SOT-23-5",
                "Texas Instruments", "SN74AHCT1G125DBVR",
                {"OE": "1", "A": "2", "GND": "3", "Y": "4", "VCC": "5"})
SCHOTTKY = Choice("SS14", "Device:D_Schottky", "Diode_SMD:D_SMA", "onsemi", "SS14",
                  {"K": "1", "A": "2"})
BUTTON = Choice("button", "Switch:SW_Push", "Button_Switch_THT:SW_PUSH_6mm", "Omron",
                "B3F-1000", TWO, height=4.3)
PIEZO = Choice("piezo", "Device:Buzzer", "Buzzer_Beeper:Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm",
               "TDK", "PS1240P02BT", TWO, height=6.5)
MICRO_SD = Choice("microSD", "Connector:Micro_SD_Card_Det2",
                  "Connector_Card:microSD_HC_Molex_104031-0811", "Molex", "1040310811",
                  {"DAT2": "1", "CS": "2", "MOSI": "3", "VDD": "4", "SCK": "5", "VSS": "6",
                   "MISO": "7", "DAT1": "8", "DET_B": "9", "DET_A": "10", "SHELL": "11"},
                  height=2.0)
USB_C = Choice("USB-C 5V", "Connector:USB_C_Receptacle_PowerOnly_6P",
               "Connector_USB:USB_C_Receptacle_GCT_USB4125-xx-x_6P_TopMnt_Horizontal",
               "GCT", "USB4125-GF-A",
               {"VBUS_A": "A9", "VBUS_B": "B9", "GND_A": "A12", "GND_B": "B12", "CC1": "A5",
                "CC2": "B5", "SHIELD": "S1"}, height=3.3,
               source="GCT USB4125 power-only 6P receptacle, 3 A: KiCad's footprint "
                      "description and drawing gct.co/files/drawings/usb4125.pdf (the GF-A "
                      "suffix: public BOMs); 3.26 mm tall (the USB-C specification)")
FUSE = Choice("PTC 0.75A", "Device:Polyfuse", "Fuse:Fuse_1812_4532Metric", "Bourns",
              "MF-MSMF075/24", TWO,
              source="Bourns MF-MSMF series datasheet: I hold 0.75 A, I trip 1.5 A, 24 V max, "
                     "40 A max, trips in 0.2 s at 8 A (all at 23 C)",
              hold_ma=750, trip_ma=1500)
TVS = Choice("SMAJ5.0A", "Diode:SMAJ5.0A", "Diode_SMD:D_SMA", "Littelfuse", "SMAJ5.0A",
             {"K": "1", "A": "2"},
             source="KiCad's Diode:SMAJ5.0A symbol (Littelfuse datasheet): 5.0 V stand-off, "
                    "breakdown 6.40-7.07 V, clamps 9.2 V at 43.5 A, 400 W (10/1000 us)")
PFET = Choice("AO3401A", "Transistor_FET:AO3401A", "Package_TO_SOT_SMD:SOT-23",
              "Alpha & Omega Semiconductor", "AO3401A", {"G": "1", "S": "2", "D": "3"},
              source="KiCad's Transistor_FET:AO3401A symbol (AOS datasheet): -30 V, -4 A, "
                     "Vgs +-12 V, Rds(on) under 60 mOhm at Vgs -4.5 V")

CHOICES = (LED, SWITCH, REGISTER, CABLE, HOLE, CAP_100N, CAP_22U, CAP_1000U, PICO, BUFFER,
           SCHOTTKY, BUTTON, PIEZO, MICRO_SD, USB_C, FUSE, TVS, PFET) + tuple(
               resistor(value) for value in RESISTORS)


def height(footprint):
    """How tall a footprint's part stands (mm; the tallest choice that uses it)."""
    found = [c.height for c in CHOICES if c.footprint == footprint]
    if not found:
        raise KeyError("no part of the catalogue uses footprint %s" % footprint)
    return max(found)


def sources():
    """{mpn: where it was checked} of every part number with a source."""
    out = {c.mpn: c.source for c in CHOICES if c.source and c.mpn}
    out.update({mpn: src for mpn, src in RESISTORS.values() if src})
    return out
