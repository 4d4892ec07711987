"""Where the controller board's parts lie, for its case: read from the
controller's `.kicad_pcb` (mm, the board's bottom-left corner at the origin,
y up), each part's height from the catalogue.
"""

import os

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
    """(layout dict, source): the controller's parts from boards/pcb/controller."""
    found = from_board()
    if found is None:
        raise FileNotFoundError("boards/pcb/controller/controller.kicad_pcb is not there "
                                "(make hardware)")
    return found


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
    from attila_tools.hardware.parts.board import ROOT, courtyard, missing, part_height, pcb_path

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
        h = part_height(fp)
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
