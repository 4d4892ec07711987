"""The controller's pins: the firmware's profile of the ordered controller
(boards/profiles/controller.json), read once, through the firmware's own
parser (attila.profile), so the board is wired where the firmware looks.

    pinout.gpios()   # {"LED": 22, "LOAD": 13, ..., "SD_CS": 5}: net -> GPIO
    PICO_PIN[22]     # 29: the Pico's header pin of GPIO 22
"""

import os

from attila import profile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PROFILE = os.path.join(ROOT, "boards", "profiles", "controller.json")

# The Raspberry Pi Pico's (and Pico 2's, Pico W's) header: GPIO -> board pin;
# its ground, VSYS, 3V3(OUT) and analogue ground pins. The checks read the same
# from KiCad's symbol (tests/hardware/test_copper.py holds them together).
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
            22: 29, 26: 31, 27: 32, 28: 34}
PICO_GND = (3, 8, 13, 18, 23, 28, 38)
PICO_AGND, PICO_VSYS, PICO_3V3 = 33, 39, 36


def load(path=None):
    """The controller's profile (attila.profile.Profile); ProfileError names a bad field."""
    prof = profile.load(path or PROFILE)
    if not prof.sdcard:
        raise profile.ProfileError("%s: the controller board has a microSD socket: its "
                                   "profile needs an \"sdcard\" section" % prof.source)
    return prof


def gpios(prof=None):
    """{net: GPIO} of every signal the controller board wires to the Pico."""
    p = prof or load()
    sck, mosi, miso, cs = p.sd_pins
    return {"LED": p.led_pin, "LOAD": p.load, "CLOCK": p.clock, "SHIFT": p.data,
            "UNDO": p.buttons[0], "MENU": p.buttons[1], "BUZZER": p.buzzer,
            "SD_SCK": sck, "SD_MOSI": mosi, "SD_MISO": miso, "SD_CS": cs}
