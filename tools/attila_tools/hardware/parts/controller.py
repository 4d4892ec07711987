"""Where the controller board's parts lie, for its case: read from the
controller's `.kicad_pcb` when there is one, else this stand-in layout, all
its numbers here (mm, the board's bottom-left corner at the origin, y up).

The stand-in is drawn around the Pico's own footprint (51 x 21 mm, its
micro-USB socket overhanging the short edge by 1.3 mm), soldered flat by its
castellations at the board's left edge.
"""

import os

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
           "Connector_IDC:": 9.1, "Button_Switch_THT:": BUTTON_H,
           "Connector_USB:": 3.3}  # a USB-C receptacle, 3.26 mm (the USB-C specification)
# The side each socket's plug (or card) comes from, in the footprint's own
# frame (KiCad's, y down): all three open at local +y, their mouth at the
# courtyard's edge there (KiCad's footprints: the USB-C's "PCB Edge" line,
# the card socket's slot, the barrel jack's front).
ENTRY = {"Connector_USB:USB_C_Receptacle_GCT_USB4125": (0.0, 1.0),
         "Connector_Card:microSD_HC_Molex_104031": (0.0, 1.0),
         "Connector_BarrelJack:BarrelJack_CUI_PJ-063AH": (0.0, 1.0)}
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
    found = from_board()
    if found is not None:
        return found
    return STAND_IN, "stand-in"


def entry(fp):
    """The side of the board ('left', 'right', 'bottom', 'top') a socket's plug
    comes from, from its footprint's turn; None for a part that takes none."""
    import math

    for prefix, (dx, dy) in ENTRY.items():
        if fp.name.startswith(prefix):
            a = math.radians(fp.rot)  # KiCad turns counter-clockwise, y down
            x, y = dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)
            if abs(x) > abs(y):
                return "right" if x > 0 else "left"
            return "bottom" if y > 0 else "top"  # the page's y runs down
    return None


def from_board(pcb=None):
    """(layout, source): the controller's from its .kicad_pcb (or a pcbfile.Pcb), or None."""
    from attila_tools.hardware import geometry, pcbfile
    from attila_tools.hardware.parts.board import ROOT, courtyard, missing, pcb_path

    if pcb is None:
        if missing("controller"):
            return None
        path = pcb_path("controller")
        pcb = pcbfile.load(path)
    else:
        path = os.path.join(ROOT, pcb.where)
    ox0, oy0, ox1, oy1 = pcb.outline()

    def item(box, h):
        # KiCad's page (y down) to the board's own frame (y up, origin bottom-left)
        return (box[0] - ox0, oy1 - box[3], box[2] - box[0], box[3] - box[1], h)

    nodes = {}
    for node in pcbfile.find_all(pcb.tree, "footprint"):
        fields = {q[1]: q[2] for q in pcbfile.find_all(node, "property")}
        nodes[fields.get("Reference")] = node
    lay = {"board": (0.0, 0.0, ox1 - ox0, oy1 - oy0, geometry.THICKNESS), "holes": [],
           "buttons": [], "ports": ["usb"], "entry": {}}
    names = {"Buzzer_Beeper:": "piezo", "Connector_Card:": "sd",
             "Connector_BarrelJack:": "power", "Connector_USB:": "power",
             "Connector_IDC:": "chain"}
    for ref, fp in sorted(pcb.footprints.items()):
        if fp.name.startswith("MountingHole:"):
            lay["holes"].append((fp.at[0] - ox0, oy1 - fp.at[1]))
            continue
        box = courtyard(nodes[ref], fp)
        h = float(fp.fields.get("Height", 0) or 0)
        for prefix, height in HEIGHTS.items():
            if fp.name.startswith(prefix):
                h = h or height
        if "RaspberryPi_Pico" in fp.name:
            lay["pico"] = item(box, 1.0)
        elif fp.name.startswith("Button_Switch_THT:"):
            lay["buttons"].append(item(box, h))
        else:
            for prefix, name in names.items():
                if fp.name.startswith(prefix):
                    lay[name] = item(box, h)
                    if name == "chain":
                        lay["chain_side"] = fp.side
                    if name != "piezo":
                        lay["ports"].append(name)
                    if entry(fp):
                        lay["entry"][name] = entry(fp)
    lay["usb"] = usb(lay)
    return lay, os.path.relpath(path, ROOT)
