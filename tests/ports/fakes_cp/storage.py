"""Fake CircuitPython `storage`: the CIRCUITPY mount "/".

As on a board, "/" is read-only to CircuitPython (the computer writes it)
until boot.py remounts it; once boot.py is over (`booted`), a remount
raises RuntimeError while the drive is visible over USB.
"""

booted = False
remounts = []  # (mount_path, readonly) of every remount


class VfsFat:
    def __init__(self):
        self.readonly = True  # to CircuitPython: the computer may write


root = VfsFat()


def getmount(mount_path):
    if mount_path != "/":
        raise OSError(22)  # EINVAL
    return root


def remount(mount_path, readonly=False, *, disable_concurrent_write_protection=False):
    if mount_path != "/":
        raise OSError(22)
    if booted:
        raise RuntimeError("Cannot remount path when visible via USB.")
    root.readonly = bool(readonly)
    remounts.append((mount_path, bool(readonly)))
