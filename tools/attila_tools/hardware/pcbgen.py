"""Write a board's .kicad_pcb with KiCad's own Python module (pcbnew).

Runs under the Python that KiCad's `pcbnew` imports in (Debian's
/usr/bin/python3), as a subprocess of generate.py:

    /usr/bin/python3 -m attila_tools.hardware.pcbgen BOARD OUT.kicad_pcb NETLIST [PITCH]

It draws what the earlier steps decided (boards.Board: the placed parts of
circuit.py and place*.py, the tracks of route*.py), with the nets as the
schematic's netlist names them, then the silkscreen (silk.py) and the pour's
fill. UUIDs come from the board's name, so regenerating gives the same bytes
(normalise.py).
"""

import os
import sys

import pcbnew

from attila_tools.hardware import boards, footprints, frame, geometry, netlist, normalise, silk

FOOTPRINTS = os.environ.get("KICAD9_FOOTPRINT_DIR", "/usr/share/kicad/footprints")
ZONE = {"clearance": 0.3, "min_thickness": 0.25, "relief_gap": 0.4, "spoke": 0.5}


def mm(v):
    return pcbnew.FromMM(v)


class Drawing:
    """A pcbnew board being drawn, in the board's own frame."""

    def __init__(self, board, design, names):
        self.board, self.design = board, design
        self.nets = {}
        for net in sorted(set(names.values())):
            ni = pcbnew.NETINFO_ITEM(board, net)
            board.Add(ni)
            self.nets[net] = ni
        self.names = names  # (ref, pad) -> the netlist's net name

    def point(self, xy):
        x, y = frame.to_kicad(self.design.height, xy)
        return pcbnew.VECTOR2I(mm(x), mm(y))

    def net(self, logical, where):
        """The board's net of a router's net name (the netlist's name of a pad on it)."""
        return self.nets[self.design.names[logical]] if logical in self.design.names else \
            _fail("%s: net %s of %s is on no part's pin" % (self.design.name, logical, where))

    def place(self, p, path):
        lib, name = p["footprint"].split(":")
        fp = pcbnew.FootprintLoad(os.path.join(FOOTPRINTS, lib + ".pretty"), name)
        if fp is None:
            _fail("%s: footprint %s not in %s" % (self.design.name, p["footprint"], FOOTPRINTS))
        fp.SetReference(p["ref"])
        fp.SetValue(p["value"])
        fp.SetFPIDAsString(p["footprint"])
        fp.SetPath(pcbnew.KIID_PATH(path))
        self.board.Add(fp)
        fp.SetPosition(self.point(footprints.origin(p)))
        fp.SetOrientationDegrees(p["rot"])
        if p["side"] == "bottom":
            fp.Flip(fp.GetPosition(), pcbnew.FLIP_DIRECTION_LEFT_RIGHT)
        for pad in fp.Pads():
            name = self.names.get((p["ref"], pad.GetNumber()))
            if name is not None:
                pad.SetNet(self.nets[name])

    def outline(self):
        x0, y0, x1, y1 = self.design.outline
        corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        for a, b in zip(corners, corners[1:] + corners[:1]):
            s = pcbnew.PCB_SHAPE(self.board)
            s.SetShape(pcbnew.SHAPE_T_SEGMENT)
            s.SetStart(self.point(a))
            s.SetEnd(self.point(b))
            s.SetLayer(pcbnew.Edge_Cuts)
            s.SetWidth(mm(0.1))
            self.board.Add(s)

    def copper(self, route):
        layer = {"F.Cu": pcbnew.F_Cu, "B.Cu": pcbnew.B_Cu}
        for net, side, width, a, b in route.tracks:
            t = pcbnew.PCB_TRACK(self.board)
            t.SetStart(self.point(a))
            t.SetEnd(self.point(b))
            t.SetLayer(layer[side])
            t.SetWidth(mm(width))
            t.SetNet(self.net(net, "a track"))
            self.board.Add(t)
        for net, xy, size, drill in route.vias:
            v = pcbnew.PCB_VIA(self.board)
            v.SetPosition(self.point(xy))
            v.SetViaType(pcbnew.VIATYPE_THROUGH)
            v.SetWidth(mm(size))
            v.SetDrill(mm(drill))
            v.SetNet(self.net(net, "a via"))
            self.board.Add(v)
        for net, side, (x0, y0, x1, y1) in route.pours:
            z = pcbnew.ZONE(self.board)
            z.SetLayer(layer[side])
            z.SetNet(self.net(net, "a pour"))
            outline = z.Outline()
            outline.NewOutline()
            for xy in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
                p = self.point(xy)
                outline.Append(p.x, p.y)
            z.SetLocalClearance(mm(ZONE["clearance"]))
            z.SetMinThickness(mm(ZONE["min_thickness"]))
            z.SetThermalReliefGap(mm(ZONE["relief_gap"]))
            z.SetThermalReliefSpokeWidth(mm(ZONE["spoke"]))
            z.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
            self.board.Add(z)


def _fail(why):
    raise SystemExit(why)


def build(name, netlist_path):
    """The pcbnew board of `name`, its nets named as the netlist names them."""
    design = boards.Board(name)
    nl = netlist.Netlist(netlist_path)
    names = {}
    for p in design.parts:
        for pad in p["pins"]:
            got = nl.net(p["ref"], pad)
            if got is None:
                _fail("%s: %s pad %s is not in the schematic's netlist" % (name, p["ref"], pad))
            names[(p["ref"], pad)] = got
    for (ref, pad), net in nl.pin_net.items():
        names.setdefault((ref, pad), net)  # the pins the schematic leaves open
    design.names = {}
    for p in design.parts:
        for pad, net in p["pins"].items():
            if net is not None:
                design.names.setdefault(net, names[(p["ref"], pad)])
    board = pcbnew.BOARD()
    d = Drawing(board, design, names)
    for p in design.parts:
        d.place(p, nl.path_of(p["ref"]))
    d.outline()
    d.copper(design.route())
    silk.write(board, design)
    return board


def main(argv):
    name, out, net = argv[1], argv[2], argv[3]
    if len(argv) > 4:
        geometry.use_pitch(float(argv[4]))
    board = build(name, net)
    pcbnew.SaveBoard(out, board)
    # Fill the pour on the board as KiCad loads it (a board built in memory
    # lacks what the filler needs).
    board = pcbnew.LoadBoard(out)
    board.BuildConnectivity()
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    pcbnew.SaveBoard(out, board)
    normalise.board(out, name)


if __name__ == "__main__":
    main(sys.argv)
