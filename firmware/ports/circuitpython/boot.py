"""Attila board, CircuitPython boot.py: who may write CIRCUITPY, from the buttons held at power-up.

CIRCUITPY is writable by the computer (as a USB drive) or by the board,
never both; CircuitPython gives it to the computer unless boot.py remounts
it. The board saves its game in microcontroller.nvm, never on CIRCUITPY
(code.py), so it has nothing to write there: boot.py takes the drive from
the computer only so that nothing changes the board's files while it
plays. UNDO and MENU held while the board powers up, or a file named
`maintenance` on the drive, leave the drive to the computer (to edit the
files, `attila flash --drive`) and code.py stops before its loop: the
maintenance gesture of every port (attila.board.power_up). Any error here
(a bad profile.json) also leaves the drive to the computer, so it can be
fixed; boot_out.txt on the drive says why.

It reads the two buttons with digitalio and profile.json with json only:
importing the game here would compile or load it twice at every power-up.
boot.py runs at power-up and hard reset only.
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


def main(profile_path=PROFILE):
    """Remount CIRCUITPY for the board unless maintenance is asked for; True if it did."""
    try:
        maintenance = _exists(MAINTENANCE_FILE) or held(profile_path) & 3 == 3
    except Exception as e:  # noqa: BLE001  any trouble: the computer keeps the drive
        print("attila boot: CIRCUITPY stays writable by the computer: %s" % e)
        return False
    if maintenance:
        print("attila boot: maintenance: CIRCUITPY stays writable by the computer")
        return False
    storage.remount("/", readonly=False)
    print("attila boot: CIRCUITPY kept by the board while it plays (the game is saved in "
          "its nvm); hold UNDO and MENU at power-up to edit its files")
    return True


if __name__ == "__main__":
    main()
