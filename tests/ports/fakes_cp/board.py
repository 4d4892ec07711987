"""Fake CircuitPython `board` for a Raspberry Pi Pico: pins GP0..GP28."""


from microcontroller import Pin as _Base


class Pin(_Base):
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name


for _n in list(range(23)) + [25, 26, 27, 28]:
    globals()["GP%d" % _n] = Pin("GP%d" % _n)
LED = globals()["GP25"]
