"""What an assembly service takes as it is: JLCPCB's BOM and placement (CPL) files.

    bom_rows(name)        -> the board's parts grouped (every part, for the parts list)
    jlc_bom(name, path)   -> Comment, Designator, Footprint, LCSC Part #: what JLCPCB places
    jlc_cpl(name, path)   -> Designator, Mid X, Mid Y, Layer, Rotation: SMD parts only

Read from the committed board (boards/pcb/BOARD/BOARD.kicad_pcb: where each
footprint lies, turned, on which side, SMD or through-hole) and circuit.py's
parts (their manufacturer numbers); sourcing.py gives the LCSC numbers and
the rotations JLCPCB's library needs. No KiCad needed.
"""

import csv
import os

from attila_tools.hardware import boards, pcbfile, sourcing

PCB_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), "boards", "pcb")


def ref_key(ref):
    """D2 before D10."""
    head = ref.rstrip("0123456789")
    return (head, int(ref[len(head):] or 0))


def load_board(name, folder=PCB_DIR):
    return pcbfile.load(os.path.join(folder, name, name + ".kicad_pcb"))


def mounts(board):
    """{ref: (smd, in_bom, in_pos)} from each footprint's KiCad attributes."""
    out = {}
    for node in pcbfile.find_all(board.tree, "footprint"):
        fields = {p[1]: p[2] for p in pcbfile.find_all(node, "property")}
        attr = pcbfile.find(node, "attr") or []
        words = {str(w) for w in attr[1:]}
        out[fields.get("Reference")] = ("smd" in words, "exclude_from_bom" not in words,
                                        "exclude_from_pos_files" not in words)
    return out


def parts(name, board=None):
    """[(circuit part, footprint on the board, smd)] of the parts a board orders."""
    board = board or load_board(name)
    attrs = mounts(board)
    out = []
    for p in boards.parts(name):
        fp = board.footprints.get(p["ref"])
        if fp is None:
            raise pcbfile.PcbError("%s: part %s is not on the board" % (board.where, p["ref"]))
        smd, in_bom, _ = attrs[p["ref"]]
        if in_bom:
            out.append((p, fp, smd))
    return out


def bom_rows(name, board=None):
    """[{refs, value, footprint, maker, mpn, lcsc, qty, smd}] grouped by part, in ref order."""
    groups = {}
    for p, fp, smd in parts(name, board):
        row = sourcing.lookup(p["mpn"], "%s %s" % (name, p["ref"])) if p["mpn"] else None
        if row is None:
            raise sourcing.SourcingError("%s %s (%s) has no manufacturer part number in circuit.py"
                                         % (name, p["ref"], p["value"]))
        key = (p["value"], p["footprint"], p["mpn"])
        g = groups.setdefault(key, {"refs": [], "value": p["value"], "footprint": p["footprint"],
                                    "maker": p["maker"], "mpn": p["mpn"],
                                    "lcsc": row.get("lcsc", ""), "smd": smd})
        g["refs"].append(p["ref"])
    out = []
    for g in groups.values():
        g["refs"].sort(key=ref_key)
        g["qty"] = len(g["refs"])
        out.append(g)
    return sorted(out, key=lambda g: ref_key(g["refs"][0]))


def jlc_bom(name, path, board=None):
    """JLCPCB's BOM: the parts it places (SMD), one row per value and footprint."""
    rows = [g for g in bom_rows(name, board) if g["smd"]]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Comment", "Designator", "Footprint", "LCSC Part #"])
        for g in rows:
            w.writerow([g["value"], ",".join(g["refs"]), g["footprint"].split(":")[-1], g["lcsc"]])
    return rows


def placement(fp, lcsc):
    """(x, y, layer, rotation) of a footprint as JLCPCB reads it: mm, y up (KiCad's
    position files), rotation plus the correction for JLCPCB's library."""
    extra, _source = sourcing.jlc_rotation(fp.name, lcsc)
    if fp.side == "bottom":
        # KiCad mirrors a bottom part; the correction turns the other way there
        # (KiBot's default for JLCPCB, `negative_bottom`)
        rot, layer = fp.rot - extra, "Bottom"
    else:
        rot, layer = fp.rot + extra, "Top"
    return (round(fp.at[0], 4), round(-fp.at[1], 4), layer, round(rot % 360.0, 2))


def jlc_cpl(name, path, board=None):
    """JLCPCB's placement file: every SMD part the BOM lists, rotations corrected."""
    board = board or load_board(name)
    rows = []
    lcsc_of = {}
    for g in bom_rows(name, board):
        for ref in g["refs"]:
            lcsc_of[ref] = g["lcsc"]
    for p, fp, smd in parts(name, board):
        if smd:
            rows.append((p["ref"],) + placement(fp, lcsc_of[p["ref"]]))
    rows.sort(key=lambda r: ref_key(r[0]))
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Designator", "Mid X", "Mid Y", "Layer", "Rotation"])
        for ref, x, y, layer, rot in rows:
            w.writerow([ref, "%.4f" % x, "%.4f" % y, layer, "%g" % rot])
    return rows


def parts_list(name, path, board=None):
    """Every part of one board (through-hole ones too), quantities for ONE board."""
    rows = bom_rows(name, board)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Designators", "Value", "Footprint", "Manufacturer", "MPN", "LCSC Part #",
                     "Mount", "Qty per board"])
        for g in rows:
            w.writerow([",".join(g["refs"]), g["value"], g["footprint"], g["maker"], g["mpn"],
                        g["lcsc"], "SMD (assembler)" if g["smd"] else "through-hole (by hand)",
                        g["qty"]])
    return rows
