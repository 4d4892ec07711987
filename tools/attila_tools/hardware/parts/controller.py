"""Where the controller board's parts lie, for its case: read from the
controller's `.kicad_pcb` when there is one, else this stand-in layout, all
its numbers here (mm, the board's bottom-left corner at the origin, y up).

The stand-in is drawn around the Pico's own footprint (51 x 21 mm, its
micro-USB socket overhanging the short edge by 1.3 mm), soldered flat by its
castellations at the board's left edge.
"""

PICO = (51.0, 21.0)

# name: (x, y, width, depth, height above the board's top) of each part the
# case must open to or clear; the "ports" reach an edge of the board, the
# case's wall opens in front of them ("chain": the first module's cable).
STAND_IN = {
    "board": (0.0, 0.0, 90.0, 60.0, 1.6),
    "holes": [(4.0, 4.0), (86.0, 4.0), (4.0, 56.0), (86.0, 56.0)],
    "pico": (0.0, 30.0, PICO[0], PICO[1], 1.0),
    "usb": (-1.3, 37.5, 5.7, 8.0, 3.9),  # on the Pico: 1.0 board + 2.9 socket
    "buttons": [(62.0, 45.0, 6.0, 6.0, 4.3), (77.0, 45.0, 6.0, 6.0, 4.3)],
    "piezo": (70.0, 20.0, 12.0, 12.0, 6.5),
    "sd": (76.0, 4.0, 15.0, 14.5, 1.9),  # push-push socket, its mouth at x = 91
    "chain": (81.0, 20.0, 9.0, 20.3, 9.1),  # 2x4 box header to the first module
    "ports": ["usb", "sd", "chain"],
    "chain_side": "top",
}
BUTTON_H = 4.3  # a 6 x 6 mm tact switch (Omron B3F-1000) above the board
# Heights above the board of the controller's parts, by footprint library.
HEIGHTS = {"Buzzer_Beeper:": 6.5, "Connector_Card:": 2.0, "Connector_BarrelJack:": 11.0,
           "Connector_IDC:": 9.1, "Button_Switch_THT:": BUTTON_H}
USB = (8.0, 5.7, 3.9)  # the Pico's micro-USB socket: width, depth, top above the board


def usb(lay):
    """The Pico's USB socket: at the middle of its short end nearest the board's edge."""
    x, y, w, d, _h = lay["pico"]
    bw, bd = lay["board"][2], lay["board"][3]
    uw, ud, uh = USB
    ends = {"left": x, "right": bw - (x + w), "bottom": y, "top": bd - (y + d)}
    if w > d:
        side = min(("left", "right"), key=ends.get)
        ux = x - 1.3 if side == "left" else x + w - ud + 1.3
        return (ux, y + d / 2 - uw / 2, ud, uw, uh)
    side = min(("bottom", "top"), key=ends.get)
    uy = y - 1.3 if side == "bottom" else y + d - ud + 1.3
    return (x + w / 2 - uw / 2, uy, uw, ud, uh)


def layout():
    """The controller's parts: from its .kicad_pcb if it is there, else STAND_IN.

    Returns (layout dict, source): source is the board file's path or "stand-in".
    """
    from attila_tools.hardware.parts import board
    found = board.controller_layout()
    if found is not None:
        return found
    return STAND_IN, "stand-in"
