"""Attila board, CircuitPython boot.py: who may write CIRCUITPY, from the buttons held at power-up.

Why it is built this way: docs/pages/inside/design.md (ports/circuitpython/boot.py).
"""

import time

import storage

PROFILE = "profile.json"
MAINTENANCE_FILE = "maintenance"  # attila.board.MAINTENANCE_FILE
PULLS_S = 0.005  # attila.board.PULLS_MS: the pulls charge the wires


def _pin(name):
    import board

    key = name if isinstance(name, str) else "GP%d" % name
    pin = getattr(board, key, None)
    if pin is None:
        raise ValueError("%s: this board has no pin %r (board.%s)" % (PROFILE, name, key))
    return pin


def held(profile_path=PROFILE):
    """The buttons held now: bit 0 UNDO, bit 1 MENU (0 without buttons)."""
    import json

    import digitalio

    with open(profile_path) as f:
        buttons = json.load(f).get("buttons") or {}
    low = buttons.get("active_low", True)
    pins = []
    for bit, key in ((0, "undo"), (1, "menu")):
        if buttons.get(key) is not None:
            pin = digitalio.DigitalInOut(_pin(buttons[key]))
            pin.switch_to_input(pull=digitalio.Pull.UP if low else digitalio.Pull.DOWN)
            pins.append((bit, pin))
    time.sleep(PULLS_S)
    mask = 0
    for bit, pin in pins:
        if pin.value != low:
            mask |= 1 << bit
        pin.deinit()  # code.py makes its own
    return mask


def _exists(path):
    try:
        open(path).close()
        return True
    except OSError:
        return False


# The one line boot.py prints, whatever it did: CircuitPython rewrites
# boot_out.txt (a FAT write on CIRCUITPY) whenever boot.py's output differs
# from the file's, so a line per mode would write the drive at every switch
# between play and maintenance. code.py says on the console which it is.
SAID = ("attila boot: the board keeps CIRCUITPY while it plays; UNDO and MENU held at "
        "power-up (or a file named maintenance) leave it to the computer")


def main(profile_path=PROFILE):
    """Remount CIRCUITPY for the board unless maintenance is asked for; True if it did."""
    print(SAID)
    try:
        maintenance = _exists(MAINTENANCE_FILE) or held(profile_path) & 3 == 3
    except Exception:  # noqa: BLE001  any trouble: the computer keeps the drive (code.py says why)
        return False
    if maintenance:
        return False
    storage.remount("/", readonly=False)
    return True


if __name__ == "__main__":
    main()
