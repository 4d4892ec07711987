"""The emulated board's reed switches, buttons and LEDs, seen from the host.

    hw = Hardware.wire(device, "boards/4x5.json", "boards/profiles/pico.json")
    hw.set_squares(mask)      # these squares hold a magnet (square order)
    hw.press(BUTTON_MENU)     # hold a button for a moment
    hw.leds()                 # [(r, g, b) per square] as the firmware last wrote them

wire() tells the device-side fakes (device/_emu_hw.py) how this build is
wired (which pins, which sensor back-end, how many 74HC165 registers), using
the firmware's own attila.profile / attila.sensing.wiring on the host. Squares are
turned into chain-order sensor bits with Wiring.chain(), so the firmware has
to undo exactly that: a wrong pin or bit order in the port shows up as the
wrong square.
"""

import json
import os
import time


class Hardware:
    """Inputs and outputs of one emulated build (see module doc)."""

    def __init__(self, device, wiring, profile):
        self.device = device
        self.wiring = wiring
        self.profile = profile
        self.buttons = 0
        self.squares = 0

    @classmethod
    def wire(cls, device, layout_path, profile_path):
        from attila.game import layoutfile
        from attila import profile as profiles

        prof = profiles.load(profile_path)
        layout, modules, _tiles = layoutfile.load(layout_path)
        wiring = prof.wiring(layout, modules)
        config = {
            "kind": prof.sensor_kind,
            "active_low": prof.active_low,
            "buttons": list(prof.buttons),
            "buttons_active_low": prof.buttons_active_low,
            "led_pin": prof.led_pin,
        }
        if prof.sensor_kind == "gpio":
            config["pins"] = list(prof.sensor_pins)
        elif prof.sensor_kind == "matrix":
            config.update(rows=list(prof.rows), cols=list(prof.cols), count=wiring.sensor_bits)
        else:
            config.update(load=prof.load, clock=prof.clock, data=prof.data,
                          registers=list(wiring.registers), spi=prof.spi)
        path = os.path.join(device.hw, "config.json")
        os.makedirs(device.hw, exist_ok=True)
        with open(path + ".~emu", "w") as f:
            json.dump(config, f)
        os.replace(path + ".~emu", path)
        hw = cls(device, wiring, prof)
        hw.set_squares(0)
        return hw

    def set_squares(self, mask):
        """Close the reed switches under the squares of `mask` (square order), open the rest."""
        self.squares = mask
        self.device.set_inputs(sensors=self.wiring.chain(mask), buttons=self.buttons)

    def hold(self, button, held=True):
        """Hold (or release) button 0 (undo) or 1 (menu)."""
        if held:
            self.buttons |= 1 << button
        else:
            self.buttons &= ~(1 << button)
        self.device.set_inputs(sensors=self.wiring.chain(self.squares), buttons=self.buttons)

    def press(self, button, ms=150):
        """Press and release a button."""
        self.hold(button)
        time.sleep(ms / 1000.0)
        self.hold(button, False)

    def strip(self):
        """(writes, bytes) of the last LED strip write, or (0, b"")."""
        raw = self.device.hw_file("leds.json")
        if not raw:
            return 0, b""
        try:
            data = json.loads(raw)
        except ValueError:
            return 0, b""
        return data["writes"], bytes.fromhex(data["data"])

    def leds(self):
        """[(r, g, b)] per square as last written (after brightness and power cap)."""
        _writes, buf = self.strip()
        order = self.profile.led_order
        bpp = len(order)
        out = [(0, 0, 0)] * self.wiring.size
        for k, sq in enumerate(self.wiring.led_square):
            if sq == 255 or (k + 1) * bpp > len(buf):
                continue
            px = buf[k * bpp : (k + 1) * bpp]
            rgb = dict(zip(order, px))
            out[sq] = (rgb.get("R", 0), rgb.get("G", 0), rgb.get("B", 0))
        return out
