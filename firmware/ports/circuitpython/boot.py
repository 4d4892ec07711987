"""Attila board, CircuitPython boot.py: give CIRCUITPY to code.py, so it can save the game.

CIRCUITPY is writable by the computer (as a USB drive) or by the board,
never both; CircuitPython gives it to the computer unless boot.py remounts
it (the usual Adafruit pattern). This one gives it to the board, unless
UNDO and MENU are held while the board powers up or a file named
`maintenance` is on the drive: then the computer keeps it (to edit the
files) and code.py stops before its loop, the maintenance gesture of every
port (attila.board.power_up). Any error here (a bad profile.json) also
leaves the drive to the computer, so it can be fixed; boot_out.txt on the
drive says why. boot.py runs at power-up and hard reset only.
"""

import storage

import hardware
from attila import profile as profiles
from attila.board import MAINTENANCE, MAINTENANCE_FILE, exists, power_up

PROFILE = "profile.json"


def main(profile_path=PROFILE):
    """Remount CIRCUITPY writable for code.py unless maintenance is asked for."""
    try:
        prof = profiles.load(profile_path)
        keys = hardware.buttons(prof)
        held = 0
        if keys is not None:
            held = keys.read()
            keys.deinit()  # code.py makes its own
        gesture = power_up(held, exists(MAINTENANCE_FILE))
    except Exception as e:  # noqa: BLE001  any trouble: the computer keeps the drive
        print("attila boot: CIRCUITPY stays writable by the computer: %s" % e)
        return False
    if gesture == MAINTENANCE:
        print("attila boot: maintenance: CIRCUITPY stays writable by the computer")
        return False
    storage.remount("/", readonly=False)
    print("attila boot: CIRCUITPY writable by the board (it saves the game); "
          "hold UNDO and MENU at power-up to edit its files")
    return True


if __name__ == "__main__":
    main()
