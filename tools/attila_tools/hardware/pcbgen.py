"""Write a board's .kicad_pcb with KiCad's own Python module (pcbnew).

Runs under the Python that KiCad's `pcbnew` imports in (Debian's
/usr/bin/python3), as a subprocess of kicad.py:

    /usr/bin/python3 -m attila_tools.hardware.pcbgen BOARD OUT.kicad_pcb

Footprints come from KiCad's official libraries; places, sides and nets from
circuit.py; the tracks from route.py. UUIDs are derived from the board's
name so that regenerating gives the same bytes.
"""

import os
import re
import sys
import uuid

import pcbnew

from attila_tools.hardware import circuit, frame, geometry as g, pcbfile, route, route_ctl, silk

FOOTPRINTS = os.environ.get("KICAD9_FOOTPRINT_DIR", "/usr/share/kicad/footprints")
NS = uuid.UUID("6d1c1f0e-29a7-4c8e-9a41-a77117a00029")


def mm(v):
    return pcbnew.FromMM(v)


def point(xy):
    return pcbnew.VECTOR2I(mm(xy[0]), mm(xy[1]))


def symbol_uuid(board, ref):
    """The schematic symbol's UUID of a part: the footprint's path points to it."""
    return str(uuid.uuid5(NS, "%s/%s" % (board, ref)))


def place(board, name, kind, parts, netmap):
    for p in parts:
        lib, fp_name = p["footprint"].split(":")
        fp = pcbnew.FootprintLoad(os.path.join(FOOTPRINTS, lib + ".pretty"), fp_name)
        if fp is None:
            raise SystemExit("%s: footprint %s not in %s" % (name, p["footprint"], FOOTPRINTS))
        fp.SetReference(p["ref"])
        fp.SetValue(p["value"])
        fp.SetFPIDAsString(p["footprint"])
        fp.SetPath(pcbnew.KIID_PATH("/" + symbol_uuid(name, p["ref"])))
        board.Add(fp)
        fp.SetPosition(point(frame.to_kicad(kind, p["at"])))
        fp.SetOrientationDegrees(p["rot"])
        if p["side"] == "bottom":
            fp.Flip(fp.GetPosition(), pcbnew.FLIP_DIRECTION_LEFT_RIGHT)
        if p["footprint"] in (circuit.LIB_CABLE[1], "Module:RaspberryPi_Pico_Common_THT") or \
                p["ref"] in CENTRED:
            centre(fp, frame.to_kicad(kind, p["at"]))
        for pad in fp.Pads():
            net = p["pins"].get(pad.GetNumber())
            if net is not None:
                pad.SetNet(netmap[net])


CENTRED = ()  # other parts placed by their pads' middle


def centre(fp, xy):
    """Move a footprint whose origin is its pin 1 so that its pads' middle lies at xy."""
    xs = [pad.GetPosition().x for pad in fp.Pads()]
    ys = [pad.GetPosition().y for pad in fp.Pads()]
    mid = ((min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2)
    target = point(xy)
    fp.Move(pcbnew.VECTOR2I(target.x - mid[0], target.y - mid[1]))


def outline(board, kind):
    if kind == "controller":
        x0, y0, (x1, y1) = 0.0, 0.0, circuit.CONTROLLER_SIZE
    else:
        x0, y0, x1, y1 = g.board_outline(kind)
    corners = [frame.to_kicad(kind, c) for c in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    for a, b in zip(corners, corners[1:] + corners[:1]):
        s = pcbnew.PCB_SHAPE(board)
        s.SetShape(pcbnew.SHAPE_T_SEGMENT)
        s.SetStart(point(a))
        s.SetEnd(point(b))
        s.SetLayer(pcbnew.Edge_Cuts)
        s.SetWidth(mm(0.1))
        board.Add(s)


def unconnected(netlist):
    """{(ref, pin): net} of the pins the schematic leaves open: KiCad's netlist
    gives each a net of its own (unconnected-(...)), which the board's pads take."""
    out = {}
    if not netlist or not os.path.exists(netlist):
        return out
    with open(netlist, encoding="utf-8") as f:
        tree = pcbfile.parse(f.read(), netlist)
    for net in pcbfile.find_all(pcbfile.find(tree, "nets") or [], "net"):
        name = pcbfile.find(net, "name")[1]
        if name.startswith("unconnected-"):
            for node in pcbfile.find_all(net, "node"):
                out[(pcbfile.find(node, "ref")[1], pcbfile.find(node, "pin")[1])] = name
    return out


def build(name, netlist=None):
    parts = circuit.BOARDS[name]()
    for (ref, pin), net in unconnected(netlist).items():
        for p in parts:
            if p["ref"] == ref:
                p["pins"].setdefault(pin, net)
    kind = circuit.board_kind(name) or name
    board = pcbnew.BOARD()
    netmap = {}
    for net in circuit.nets(parts):
        ni = pcbnew.NETINFO_ITEM(board, net)
        board.Add(ni)
        netmap[net] = ni
    place(board, name, kind, parts, netmap)
    outline(board, kind)
    if kind == "controller":
        route_ctl.route_board(board, netmap)
    else:
        route.route(board, name, kind, parts, netmap)
    silk.write(board, name, kind)
    return board


def normalise(path, name):
    """Make the saved file depend on the design only: KiCad orders items by their
    random UUIDs, so sort each kind of item by what it is (footprints by
    reference, tracks by place), then replace every UUID but the footprints'
    paths by one made from the board's name and its order."""
    with open(path) as f:
        text = f.read()
    spans = pcbfile.blocks(text)
    order, groups = [], {}
    for a, b in spans:
        chunk = text[a:b]
        kind = chunk[1:].split(None, 1)[0]
        if kind not in groups:
            order.append(kind)
            groups[kind] = []
        if kind == "footprint":
            ref = re.search(r'\(property "Reference" "([^"]*)"', chunk).group(1)
            key = (re.sub(r"\d+", "", ref), int(re.sub(r"\D", "", ref) or 0))
            chunk = _sorted_texts(chunk)
        else:
            key = re.sub(r'\(uuid "[^"]*"\)', "", chunk)
        groups[kind].append((key, chunk))
    body = "\n\t".join(c for k in order for _, c in sorted(groups[k]))
    text = text[:spans[0][0]] + body + text[spans[-1][1]:]
    seen = {}

    def sub(m):
        u = m.group(1)
        if u not in seen:
            seen[u] = str(uuid.uuid5(NS, "%s#%d" % (name, len(seen))))
        return '(uuid "%s")' % seen[u]

    text = re.sub(r'\(uuid "([0-9a-f-]+)"\)', sub, text)
    with open(path, "w") as f:
        f.write(text)


def _sorted_texts(chunk):
    """A footprint's own texts in the order of what they say (KiCad: by UUID),
    less its groups (a drawing aid of the library, listed by random UUIDs)."""
    groups = [(a, b) for a, b in pcbfile.blocks(chunk) if chunk.startswith("(group", a)]
    for a, b in reversed(groups):
        while chunk[a - 1] in "\t\n":
            a -= 1
        chunk = chunk[:a] + chunk[b:]
    spans = [(a, b) for a, b in pcbfile.blocks(chunk) if chunk.startswith("(fp_text", a)]
    if len(spans) < 2:
        return chunk
    texts = sorted(chunk[a:b] for a, b in spans)
    out, last = [], 0
    for (a, b), t in zip(spans, texts):
        out += [chunk[last:a], t]
        last = b
    return "".join(out) + chunk[last:]


def main(argv):
    name, out = argv[1], argv[2]
    board = build(name, argv[3] if len(argv) > 3 else None)
    pcbnew.SaveBoard(out, board)
    # Fill the pour on the board as KiCad loads it (a board built in memory
    # lacks what the filler needs).
    board = pcbnew.LoadBoard(out)
    board.BuildConnectivity()
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    pcbnew.SaveBoard(out, board)
    normalise(out, name)


if __name__ == "__main__":
    main(sys.argv)
