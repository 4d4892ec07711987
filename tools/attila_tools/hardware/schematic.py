"""Write a board's schematic (.kicad_sch) from circuit.py, and export its netlist.

Every part is KiCad's own library symbol (copied into the file, as KiCad
does); every connected pin carries a label with its net's name, so the
drawing reads like the wiring page's tables: find a net's name and you find
all its pins. Positions are on KiCad's 2.54 mm grid; UUIDs come from the
board's name and the reference, so the footprints' paths in the .kicad_pcb
point at these symbols (pcbgen.symbol_uuid) and regenerating gives the same
bytes.
"""

import os
import subprocess
import uuid

from attila_tools.hardware import circuit, pcbfile

SYMBOLS = os.environ.get("KICAD9_SYMBOL_DIR", "/usr/share/kicad/symbols")
NS = uuid.UUID("6d1c1f0e-29a7-4c8e-9a41-a77117a00029")  # pcbgen.NS
FLAGS = ("+5V", "+3V3", "GND", "VSYS")  # nets fed from the cable: a PWR_FLAG each for ERC


def sym_uuid(board, ref):
    return str(uuid.uuid5(NS, "%s/%s" % (board, ref)))


def _uid(board, what):
    return str(uuid.uuid5(NS, "%s/sch/%s" % (board, what)))


_cache = {}
TYPES = {}  # (lib_id, pin number) -> electrical type
PROPS = {}  # (lib_id, "Reference" or "Value") -> (x, y, angle) where the library shows it


def library_symbol(lib_id):
    """(text of the symbol for lib_symbols, {pin number: (x, y, angle)}) from KiCad's library."""
    if lib_id in _cache:
        return _cache[lib_id]
    lib, name = lib_id.split(":")
    path = os.path.join(SYMBOLS, lib + ".kicad_sym")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    chunks = {}
    for a, b in pcbfile.blocks(text):
        chunk = text[a:b]
        if chunk.startswith("(symbol "):
            chunks[chunk.split('"', 2)[1]] = chunk
    if name not in chunks:
        raise SystemExit("%s: no symbol %s" % (path, name))
    chunk = chunks[name]
    tree = pcbfile.parse(chunk)
    ext = pcbfile.find(tree, "extends")
    if ext is not None:
        # A derived symbol: KiCad's cache holds the parent's drawing under the
        # child's name, with the child's own fields (what ERC compares).
        parent = chunks[ext[1]]
        chunk = parent.replace('(symbol "%s_' % ext[1], '(symbol "%s_' % name)
        chunk = chunk.replace('(symbol "%s"' % ext[1], '(symbol "%s"' % name, 1)
        chunk = _with_fields(chunk, chunks[name])
        tree = pcbfile.parse(chunk)
    chunk = chunk.replace('(symbol "%s"' % name, '(symbol "%s"' % lib_id, 1)
    pins = {}

    def walk(node):
        for c in node:
            if isinstance(c, list) and c:
                if c[0] == "pin":
                    at = pcbfile.find(c, "at")
                    num = pcbfile.find(c, "number")[1]
                    pins[num] = (float(at[1]), float(at[2]), int(float(at[3])))
                    TYPES[(lib_id, num)] = str(c[1])
                else:
                    walk(c)

    walk(tree)
    for prop in pcbfile.find_all(tree, "property"):
        at = pcbfile.find(prop, "at")
        if prop[1] in ("Reference", "Value") and at is not None:
            eff = pcbfile.find(prop, "effects") or []
            just = pcbfile.find(eff, "justify")
            PROPS[(lib_id, prop[1])] = (float(at[1]), float(at[2]), int(float(at[3])),
                                        " ".join(just[1:]) if just else "")
    _cache[lib_id] = (chunk, pins)
    return _cache[lib_id]


def _fields(chunk):
    """{name: (start, end)} of a symbol's (property ...) blocks."""
    out = {}
    for a, b in pcbfile.blocks(chunk):
        if chunk.startswith("(property ", a):
            out[chunk[a:b].split('"', 2)[1]] = (a, b)
    return out


def _with_fields(parent, child):
    """The parent symbol's text with the derived symbol's fields in place of its own."""
    theirs = _fields(child)
    mine = _fields(parent)
    for key, (a, b) in sorted(mine.items(), key=lambda kv: -kv[1][0]):
        if key in theirs:
            ca, cb = theirs[key]
            parent = parent[:a] + child[ca:cb] + parent[b:]
    return parent


def _indent(chunk, tabs):
    return chunk.replace("\n", "\n" + "\t" * tabs)


def _prop(name, value, x, y, hide=False, angle=0, justify=""):
    return ('\t\t(property "%s" "%s"\n\t\t\t(at %s %s %d)\n\t\t\t(effects\n\t\t\t\t(font\n'
            '\t\t\t\t\t(size 1.27 1.27)\n\t\t\t\t)\n%s%s\t\t\t)\n\t\t)\n'
            % (name, value, _n(x), _n(y), angle,
               "\t\t\t\t(justify %s)\n" % justify if justify else "",
               "\t\t\t\t(hide yes)\n" if hide else ""))


def _n(v):
    s = ("%.4f" % v).rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


CONTROLLER_AT = {"U1": (40, 50),
                 "U2": (95, 20), "R1": (118, 20), "R2": (138, 20), "R3": (158, 20),
                 "R8": (176, 20),
                 "C1": (95, 42),
                 "J1": (100, 80), "J2": (128, 80), "R10": (138, 94), "R11": (146, 94),
                 "F1": (148, 74), "D2": (160, 84), "Q1": (172, 74), "R9": (176, 90),
                 "C2": (188, 80), "D1": (200, 80),
                 "SW1": (100, 125), "SW2": (118, 125), "BZ1": (138, 125),
                 "J3": (110, 170), "R4": (135, 170), "R5": (148, 170), "R6": (161, 170),
                 "R7": (174, 170), "C3": (190, 170),
                 "H1": (100, 205), "H2": (106, 205), "H3": (112, 205), "H4": (118, 205)}
CONTROLLER_FLAGS = (62, 54)


def layout(parts, kind):
    """Where each symbol stands on the sheet (mm, on the 2.54 mm grid)."""
    g = 2.54
    if kind == "controller":
        return {ref: (g * x / 2, g * y / 2) for ref, (x, y) in CONTROLLER_AT.items()}
    at = {}
    squares = [p for p in parts if p["ref"][0] in "DS" or (p["ref"][0] in "CR" and
                                                            "square" in p["role"])]
    row = {}
    for p in squares:
        k = int(p["role"].split()[1].rstrip("'s"))
        row.setdefault(k, []).append(p["ref"])
    for k, refs in row.items():
        y = g * (10 + 14 * k)
        for i, ref in enumerate(sorted(refs, key=lambda r: "DCSR".index(r[0]))):
            at[ref] = (g * (16 + 20 * i) if ref[0] != "S" else g * 55, y)
    # The register and its neighbours; the connectors, each with the part at
    # its data pin (IN: the bulk capacitor, OUT: the LED data's series resistor).
    n = len(row)
    place = {"U1": (110, 22), "C%d" % (n + 1): (135, 14), "R%d" % (n + 1): (135, 30),
             "J1": (105, 52), "J2": (135, 52), "C%d" % (n + 2): (105, 64),
             "R%d" % (n + 2): (135, 64)}
    for p in parts:
        ref = p["ref"]
        if ref in place:
            at[ref] = (g * place[ref][0], g * place[ref][1])
        elif ref[0] == "H":
            at[ref] = (g * (100 + 6 * int(ref[1:])), g * 84)
    for p in squares:
        if p["ref"][0] == "R":
            sw = "SW" + p["ref"][1:]
            at[p["ref"]] = (at[sw][0] + g * 14, at[sw][1])
    return at


def flag_places(kind):
    """Where the PWR_FLAGs stand: in a row by the connector the board's power
    comes in through (a module's IN, the controller's USB-C input)."""
    g = 2.54
    x0, y = (100, 74) if kind != "controller" else CONTROLLER_FLAGS
    return [(g * (x0 + 8 * i), g * y) for i in range(len(FLAGS))]


def views(name):
    """[(view, (x0, y0, x1, y1))]: parts of the sheet (mm) the docs show at a legible size."""
    kind = circuit.board_kind(name) or name
    at = layout(circuit.BOARDS[name](), kind)
    if kind == "controller":
        x, y = at["U1"]
        u = 1.27
        return [("pico", (x - 36, y - 36, x + 40, y + 36)),
                ("buffer", (95 * u - 26, 20 * u - 16, 176 * u + 16, 42 * u + 20)),
                ("power", (100 * u - 26, 80 * u - 20, 200 * u + 16, 80 * u + 26)),
                ("buttons", (100 * u - 16, 125 * u - 16, 138 * u + 20, 125 * u + 16)),
                ("card", (110 * u - 36, 170 * u - 22, 190 * u + 16, 170 * u + 22))]
    (dx, dy), (cx, _), (sx, _), (rx, _) = at["D1"], at["C1"], at["SW1"], at["R1"]
    ux, uy = at["U1"]
    return [("led", (dx - 24, dy - 16, cx + 16, dy + 16)),
            ("switch", (sx - 18, dy - 14, rx + 16, dy + 14)),
            ("register", (ux - 26, uy - 32, ux + 72, uy + 124))]


def _label(net, x, y, angle, board, n):
    """A global label (its net keeps its plain name, as on the board) at a pin's end."""
    rot = (angle + 180) % 360
    just = "left" if rot in (0, 90) else "right"
    return ('\t(global_label "%s"\n\t\t(shape passive)\n\t\t(at %s %s %d)\n'
            '\t\t(fields_autoplaced yes)\n\t\t(effects\n\t\t\t(font\n\t\t\t\t(size 1.27 1.27)\n'
            '\t\t\t)\n\t\t\t(justify %s)\n\t\t)\n\t\t(uuid "%s")\n'
            '\t\t(property "Intersheetrefs" "${INTERSHEET_REFS}"\n\t\t\t(at %s %s 0)\n'
            '\t\t\t(effects\n\t\t\t\t(font\n\t\t\t\t\t(size 1.27 1.27)\n\t\t\t\t)\n'
            '\t\t\t\t(hide yes)\n\t\t\t)\n\t\t)\n\t)\n'
            % (net, _n(x), _n(y), rot, just, _uid(board, "label%d" % n), _n(x), _n(y)))


def text(name):
    """The .kicad_sch of a board, as text."""
    parts = circuit.BOARDS[name]()
    kind = circuit.board_kind(name) or name
    driven = set()  # nets a part's power output already drives
    for p in parts:
        library_symbol(p["symbol"])
        for num, net in p["pins"].items():
            if TYPES.get((p["symbol"], num)) == "power_out":
                driven.add(net)
    flags = [{"ref": "#FLG0%d" % (i + 1), "value": "PWR_FLAG", "symbol": "power:PWR_FLAG",
              "footprint": "", "pins": {"1": net}, "role": "flag"}
             for i, net in enumerate(n for n in FLAGS if n not in driven
                                     and any(n in p["pins"].values() for p in parts))]
    at = layout(parts, kind)
    for f, xy in zip(flags, flag_places(kind)):
        at[f["ref"]] = xy
    root = _uid(name, "root")
    out = ['(kicad_sch\n\t(version 20250114)\n\t(generator "eeschema")\n'
           '\t(generator_version "9.0")\n\t(uuid "%s")\n\t(paper "A3")\n' % root,
           '\t(title_block\n\t\t(title "Attila %s")\n\t\t(date "%s")\n\t\t(rev "%s")\n'
           '\t\t(company "attila-board")\n'
           '\t\t(comment 1 "Generated by tools/attila_tools/hardware (circuit.py); do not edit")\n\t)\n'
           % (name.replace("-", " "), circuit.DATE, circuit.REVISION),
           "\t(lib_symbols\n"]
    for lib_id in sorted({p["symbol"] for p in parts + flags}):
        out.append("\t\t" + _indent(library_symbol(lib_id)[0], 1) + "\n")
    out.append("\t)\n")
    n = 0
    body = []
    for p in parts + flags:
        x, y = at[p["ref"]]
        chunk, pins = library_symbol(p["symbol"])
        power = p["ref"].startswith("#")
        bom = "no" if power or p["ref"][0] == "H" else "yes"
        s = ['\t(symbol\n\t\t(lib_id "%s")\n\t\t(at %s %s 0)\n\t\t(unit 1)\n'
             '\t\t(exclude_from_sim no)\n\t\t(in_bom %s)\n\t\t(on_board %s)\n\t\t(dnp no)\n'
             '\t\t(uuid "%s")\n'
             % (p["symbol"], _n(x), _n(y), bom, "no" if power else "yes",
                sym_uuid(name, p["ref"]))]
        rx, ry, ra, rj = PROPS.get((p["symbol"], "Reference"), (0.0, 6.35, 0, ""))
        vx, vy, va, vj = PROPS.get((p["symbol"], "Value"), (0.0, -6.35, 0, ""))
        s.append(_prop("Reference", p["ref"], x + rx, y - ry, hide=power, angle=ra, justify=rj))
        s.append(_prop("Value", p["value"], x + vx, y - vy, angle=va, justify=vj))
        s.append(_prop("Footprint", p["footprint"], x, y, hide=True))
        s.append(_prop("Datasheet", "", x, y, hide=True))
        if p.get("square") is not None:
            s.append(_prop("Square", str(p["square"]), x, y, hide=True))
        if p.get("mpn"):
            s.append(_prop("MPN", p["mpn"], x, y, hide=True))
            s.append(_prop("Manufacturer", p["maker"], x, y, hide=True))
        for num in sorted(pins, key=lambda v: (len(v), v)):
            s.append('\t\t(pin "%s"\n\t\t\t(uuid "%s")\n\t\t)\n'
                     % (num, _uid(name, "%s.%s" % (p["ref"], num))))
        s.append('\t\t(instances\n\t\t\t(project "%s"\n\t\t\t\t(path "/%s"\n'
                 '\t\t\t\t\t(reference "%s")\n\t\t\t\t\t(unit 1)\n\t\t\t\t)\n\t\t\t)\n\t\t)\n\t)\n'
                 % (name, root, p["ref"]))
        body.append("".join(s))
        done = {}
        for num, (px, py, angle) in sorted(pins.items()):
            sx, sy = x + px, y - py
            net = p["pins"].get(num)
            if (sx, sy) in done:  # pins stacked on one point (a module's GND pins)
                if done[(sx, sy)] != net:
                    raise SystemExit("%s: %s pins at one point on nets %s and %s"
                                     % (name, p["ref"], done[(sx, sy)], net))
                continue
            done[(sx, sy)] = net
            n += 1
            if net and not net.startswith("unconnected-"):
                body.append(_label(net, sx, sy, angle, name, n))
            else:
                body.append('\t(no_connect\n\t\t(at %s %s)\n\t\t(uuid "%s")\n\t)\n'
                            % (_n(sx), _n(sy), _uid(name, "nc%d" % n)))
    out += body
    out.append('\t(sheet_instances\n\t\t(path "/"\n\t\t\t(page "1")\n\t\t)\n\t)\n'
               '\t(embedded_fonts no)\n)\n')
    return "".join(out)


def write(name, path):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text(name))


def netlist(name, folder):
    """Export the schematic's netlist next to it (KiCad's s-expression format)."""
    sch = os.path.join(folder, name + ".kicad_sch")
    out = os.path.join(folder, name + ".net")
    r = subprocess.run(["kicad-cli", "sch", "export", "netlist", "--format", "kicadsexpr",
                        "-o", os.path.basename(out), os.path.basename(sch)],
                       capture_output=True, text=True, cwd=folder)
    if r.returncode:
        raise SystemExit("%s: netlist export failed: %s" % (name, r.stderr.strip()))
    # The export stamps the date, the file's path and where this machine keeps
    # KiCad's libraries: keep only the design.
    with open(out, encoding="utf-8") as f:
        text = f.read()
    a = text.find("\n  (libraries")
    if a >= 0:
        b = text.index("\n  (nets", a)
        text = text[:a] + text[b:]
    keep = [ln for ln in text.splitlines() if "(date " not in ln and "(source " not in ln
            and "(tool " not in ln]
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(keep) + "\n")
