"""The 8-wire module cable: the one table of its wire order.

Every module has an IN and an OUT connector with these signals on the same
pin numbers, so identical cables chain any number of modules; the
controller's cable connector is the same. The schematic drawings
(tools/docs/schematics.py), the KiCad boards and the wiring page use it.
"""

# pin -> wire name, as the docs print it
CABLE = ((1, "5V"), (2, "GND"), (3, "3V3"), (4, "LED DATA"), (5, "LOAD"), (6, "CLOCK"),
         (7, "SHIFT DATA"), (8, "GND"))

# pin -> net name on the boards (the two data wires change name at each
# module: LED data leaves through OUT from the last LED, shift data comes
# back through IN from the register; see `module_net`)
NETS = {1: "+5V", 2: "GND", 3: "+3V3", 4: "LED", 5: "LOAD", 6: "CLOCK", 7: "SHIFT", 8: "GND"}


def pin_of(net):
    """The cable pin numbers that carry a board net name of NETS."""
    return [p for p, n in sorted(NETS.items()) if n == net]
