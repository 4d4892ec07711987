"""Where each part is bought: LCSC numbers, prices and the assembler's rotations.

One table keyed by the manufacturer part number that circuit.py gives a part
(its `mpn`), so a part added to a board must have its row here: a board part
without one stops `make hardware` with its MPN (`lookup`). No network here,
so every number says where it comes from (`SOURCES`); what no source gave
is marked "unverified" in the data and on the order page.

An `lcsc` number is the part the assembler (JLCPCB, whose library is
LCSC's) places. For plain resistors, capacitors and the Schottky it is a
JLCPCB basic part of the same value, package and ratings (`lcsc_part` names
it): basic parts load without a fee. Prices are US dollars for one part at
the quantities of one or two boards. `ohms`: the resistance a part puts in
series with the LEDs' 5 V (supply.py counts it).
"""

from attila_tools.errors import ToolError

SOURCES = {
    "cdfer": "CDFER/JLCPCB-Kicad-Library, symbols/*.kicad_sym at commit e37fb96 (JLCPCB's "
             "basic and preferred parts with their LCSC number, price and stock, "
             "as scraped on 2026-08-08)",
    "edg": "BerkeleyHCI/PolymorphicBlocks, edg/parts at commit 9c69857 (the part's "
           "footprint block: its LCSC number and pick-and-place rotation)",
    "boms": "unverified: the number (and price) public bills of materials give for this "
            "part (in the search index's code corpus); not checked against LCSC",
    "kibot": "KiBot, kibot/fil_rot_footprint.py DEFAULT_ROTATIONS (JLCPCB rotations by "
             "footprint name, from matthewlai/JLCKicadTools' cpl_rotations_db.csv and "
             "bennymeg/JLC-Plugin-for-KiCad); SOIC and SOT-23 agree with "
             "matthewlai/JLCKicadTools at commit 02f5483",
    "rpi": "Raspberry Pi's list price for the part (raspberrypi.com), unverified here",
    "estimate": "estimate: a typical hobby-distributor price, not a quote",
    "none": "unverified: no LCSC number found in our sources",
}

# mpn -> the row of a part on a board (mount: who solders it, "smd" the assembler)
PARTS = {
    "WS2812B-B/W": dict(lcsc="C2761795", source="edg", usd=0.12, price="estimate",
                        note="LCSC's datasheet of it is Worldsemi-WS2812B-B-W_C2761795"),
    "CL10B104KB8NNNC": dict(lcsc="C14663", lcsc_part="YAGEO CC0603KRX7R9BB104", source="cdfer",
                            usd=0.006, price="cdfer", note="100 nF 50 V X7R 0603, basic part"),
    "RC0603FR-0710KL": dict(lcsc="C25804", lcsc_part="UNI-ROYAL 0603WAF1002T5E", source="cdfer",
                            usd=0.005, price="cdfer", note="10 kOhm 1 % 0603, basic part"),
    "RC0603FR-0733RL": dict(lcsc="C23140", lcsc_part="UNI-ROYAL 0603WAF330JT5E", source="cdfer",
                            usd=0.005, price="cdfer", note="33 Ohm 0603, basic part"),
    "RC0603FR-0768RL": dict(lcsc="C27592", lcsc_part="UNI-ROYAL 0603WAF680JT5E", source="cdfer",
                            usd=0.005, price="cdfer",
                            note="68 Ohm 0603, preferred part (the simulation's series value)"),
    "RC0603FR-07330RL": dict(lcsc="C23138", lcsc_part="UNI-ROYAL 0603WAF3300T5E", source="cdfer",
                             usd=0.005, price="cdfer", note="330 Ohm 1 % 0603, basic part"),
    "74HC165D,653": dict(lcsc="C5613", source="cdfer", usd=0.232, price="cdfer"),
    "SN74AHCT1G125DBVR": dict(lcsc="C7484", source="boms", usd=0.15, price="estimate"),
    "SS14": dict(lcsc="C2480", lcsc_part="MDD SS14", source="cdfer", usd=0.019, price="cdfer",
                 note="40 V 1 A Schottky, SMA, basic part"),
    "1040310811": dict(lcsc="C585350", source="edg", usd=0.60, price="estimate"),
    "CT10-1530-G1": dict(lcsc="", source="none", usd=1.60, price="estimate",
                         note="order from a distributor (Digi-Key 306-1125-1-ND) and send it "
                              "to the assembler, or solder it by hand"),
    # the controller's power input and the modules' bulk capacitor and data-out resistor
    "USB4125-GF-A": dict(lcsc="C5246813", lcsc_part="GCT USB4125-GF-A-0190", source="boms",
                         usd=0.85, price="boms", note="USB-C receptacle, power only"),
    "MF-MSMF075/24": dict(lcsc="C208467", lcsc_part="Bourns MF-MSMF075/24-2", source="boms",
                          usd=0.25, price="estimate", ohms=0.40,
                          note="PTC 0.75 A hold; 0.11 Ohm new, 0.40 Ohm at most after a trip "
                               "(Bourns' figures as public BOMs quote them, unverified)"),
    "SMAJ5.0A": dict(lcsc="C2925443", lcsc_part="Liown SMAJ5.0A", source="cdfer", usd=0.036,
                     price="cdfer", note="5 V stand-off TVS, SMA"),
    "AO3401A": dict(lcsc="C15127", source="cdfer", usd=0.060, price="cdfer", ohms=0.06,
                    note="Rds(on) under 60 mOhm at -4.5 V (AOS datasheet, as KiCad's symbol "
                         "quotes it)"),
    "RC0603FR-075K1L": dict(lcsc="C23186", lcsc_part="UNI-ROYAL 0603WAF5101T5E", source="cdfer",
                            usd=0.005, price="cdfer", note="5.1 kOhm 1 % 0603, basic part"),
    "GRM31CR61A226ME19L": dict(lcsc="C5672", lcsc_part="Samsung CL31A226KPHNNNE", source="cdfer",
                               usd=0.043, price="cdfer", note="22 uF 10 V X5R 1206"),
    "RC0603JR-070RL": dict(lcsc="", source="none", usd=0.005, price="estimate",
                           note="0 Ohm 0603 link"),
    # through-hole: soldered by hand, bought anywhere
    "SC0915": dict(usd=4.00, price="rpi", note="Raspberry Pi Pico; or the Pico 2 (SC1631)"),
    "61200821621": dict(usd=0.40, price="estimate", note="Wurth WR-BHD 2x4 box header"),
    "EEU-FR1A102": dict(usd=0.50, price="estimate"),
    "B3F-1000": dict(usd=0.30, price="estimate"),
    "PS1240P02BT": dict(usd=0.80, price="estimate"),
}

# footprint name (without its library) -> degrees added for JLCPCB's library,
# first match wins; only the families our boards use or are likely to
ROTATIONS = (
    (r"^LED_WS2812B_PLCC4", 180.0),
    (r"^SOIC-", 270.0),
    (r"^SOP-(?!(18_|4_))", 270.0),
    (r"^TSSOP-", 270.0),
    (r"^MSOP-", 270.0),
    (r"^SOT-223", 180.0),
    (r"^SOT-23", 180.0),
    (r"^SOT-89", 180.0),
    (r"^TSOT-23", 180.0),
    (r"^D_SOT-23", 180.0),
    (r"^CP_Elec_", 180.0),
    (r"^CP_EIA-", 180.0),
    (r"^QFN-", 270.0),
    (r"^USB_C_Receptacle_HRO_TYPE-C-31-M-12", 180.0),
)
ROTATIONS_SOURCE = "kibot"
# one LCSC part whose own rotation a named source gives (it wins over ROTATIONS)
PART_ROTATIONS = {"C585350": (180.0, "edg")}


class SourcingError(ToolError):
    """A board part this table cannot buy (its MPN in the message)."""


def lookup(mpn, where=""):
    """The row of a manufacturer part number; a missing one names it."""
    row = PARTS.get(mpn)
    if row is None:
        raise SourcingError("no sourcing row for MPN %r%s: add it to "
                            "tools/attila_tools/hardware/sourcing.py (LCSC number, price, "
                            "and where they come from)" % (mpn, " (%s)" % where if where else ""))
    return row


def jlc_rotation(footprint, lcsc=""):
    """(degrees, source) added to KiCad's rotation for JLCPCB's placement."""
    import re

    if lcsc in PART_ROTATIONS:
        return PART_ROTATIONS[lcsc]
    name = footprint.split(":")[-1]
    for pattern, degrees in ROTATIONS:
        if re.search(pattern, name):
            return degrees, ROTATIONS_SOURCE
    return 0.0, ""
