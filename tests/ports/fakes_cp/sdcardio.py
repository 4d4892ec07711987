"""Fake CircuitPython `sdcardio.SDCard`: the card in the slot is the file sd.img of the
current directory (absent: an empty slot, OSError "no SD card" as CircuitPython raises).

readblocks(start_block, buf) fills buf (a multiple of 512 bytes), as the real one.
"""

import os

IMAGE = "sd.img"


class SDCard:
    def __init__(self, bus, cs, baudrate=8000000):
        if not os.path.exists(IMAGE):
            raise OSError("no SD card")
        self.bus = bus
        self.cs = cs
        self.baudrate = baudrate
        self._f = open(IMAGE, "rb")

    def readblocks(self, start_block, buf):
        self._f.seek(start_block * 512)
        got = self._f.readinto(buf)
        if got != len(buf):
            raise OSError(5, "Input/output error")

    def count(self):
        return os.path.getsize(IMAGE) // 512
