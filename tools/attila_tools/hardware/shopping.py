"""One shopping list for a whole board (the reference 4x5): boards, parts, and
everything around them, with quantities, prices and where each price comes from.

    items(layout)  -> [Item]: what to buy for a layout file's board
    write_csv(items, path), write_md(items, path)

Counts come from the layout (its modules and squares), the boards' parts
(circuit.py, through assembly.py) and the printed parts' geometry (magnets,
screws, plates); prices from sourcing.py's rows or the estimates below, each
marked with its source.
"""

import collections
import csv
import glob
import os

from attila.game import layoutfile
from attila.game.rules import KNIGHTS
from attila_tools.hardware import assembly, boards, cable, sourcing

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
LAYOUT = os.path.join(ROOT, "boards", "4x5.json")
FAB_MINIMUM = 5  # boards of one design a low-cost fab makes at its lowest price
CABLE_MM = 300  # one module-to-module cable (docs/pages/build/order.md: the longest span fits)

Item = collections.namedtuple("Item", "group qty unit what part lcsc usd price note")

# (usd, source key) for what sourcing.PARTS does not hold: the boards and the
# things around them. Estimates are marked so on the page.
EXTRA_PRICES = {
    "pcb-small": (2.00, "jlc"),  # 5 boards up to 100 x 100 mm
    "pcb-large": (8.00, "estimate"),  # 5 boards past 100 mm on a side
    "assembly": (10.00, "estimate"),  # per assembled design: setup, stencil, part loading
    "headers": (0.30, "estimate"),
    "usbc-supply": (8.00, "rpi"),
    "barrel-supply": (7.00, "estimate"),
    "usb-cable": (3.00, "estimate"),
    "ribbon-m": (1.50, "estimate"),
    "idc": (0.40, "estimate"),
    "magnet": (0.05, "estimate"),
    "screw": (0.05, "estimate"),
    "plate-2x2": (1.50, "estimate"),
    "plate-2x3": (2.20, "estimate"),
    "sdcard": (5.00, "estimate"),
    "pla-kg": (20.00, "estimate"),
}
PRICE_SOURCES = dict(sourcing.SOURCES, jlc="estimate from JLCPCB's advertised price "
                     "(5 two-layer boards up to 100 x 100 mm), unverified here")


def board_counts(layout=LAYOUT):
    """{board name: boards a layout needs}: one per module, one controller."""
    _lay, modules, _tiles = layoutfile.load(layout)
    count = collections.Counter("module-" + m.kind for m in modules)
    count["controller"] = 1
    unknown = [b for b in count if b not in boards.BOARDS]
    if unknown:
        raise sourcing.SourcingError("%s: no board for module kind(s) %s" % (layout, unknown))
    return dict(count)


def cables(layout=LAYOUT):
    """Cables in the chain: controller -> module 1, then one between each two modules."""
    _lay, modules, _tiles = layoutfile.load(layout)
    return len(modules)


def pieces(layout=LAYOUT):
    """(knights, tiles) a game on the layout uses, each with one magnet."""
    lay, _modules, tiles = layoutfile.load(layout)
    return 2 * KNIGHTS, (lay.size - 2 * KNIGHTS if tiles is None else tiles)


def board_size(name):
    x0, y0, x1, y1 = assembly.load_board(name).outline()
    return x1 - x0, y1 - y0


def _price(key):
    usd, source = EXTRA_PRICES[key]
    return usd, source


def board_items(count):
    out = []
    for name in sorted(count):
        w, h = board_size(name)
        key = "pcb-small" if max(w, h) <= 100.0 else "pcb-large"
        usd, src = _price(key)
        out.append(Item("boards", FAB_MINIMUM, "boards", "%s board, %.0f x %.0f mm, 2 layers, 1.6 mm"
                        % (name, w, h), "", "", usd / FAB_MINIMUM, src,
                        "%d needed; %d is the fab's smallest order" % (count[name], FAB_MINIMUM)))
    for name in sorted(count):
        if any(g["smd"] for g in assembly.bom_rows(name)):
            usd, src = _price("assembly")
            out.append(Item("boards", 1, "order", "assembly of the %s board's SMD parts" % name,
                            "", "", usd, src, "setup, stencil and part loading, once per design"))
    return out


def part_items(count):
    """The boards' own parts, totalled over the boards a layout needs, by MPN."""
    total = collections.OrderedDict()
    for name in sorted(count):
        for g in assembly.bom_rows(name):
            t = total.setdefault(g["mpn"], {"qty": 0, "values": [], "g": g, "boards": []})
            t["qty"] += g["qty"] * count[name]
            if g["value"] not in t["values"]:
                t["values"].append(g["value"])
            t["boards"].append(name)
    out = []
    for mpn, t in total.items():
        g, row = t["g"], sourcing.lookup(mpn)
        group = "assembled parts" if g["smd"] else "parts soldered by hand"
        what = "%s (%s)" % ("/".join(t["values"]), g["footprint"].split(":")[-1])
        note = row.get("note", "")
        if row.get("lcsc_part"):
            note = "LCSC part: %s. %s" % (row["lcsc_part"], note)
        out.append(Item(group, t["qty"], "pcs", what, "%s %s" % (g["maker"], mpn),
                        row.get("lcsc", ""), row["usd"], row["price"], note.strip()))
    return sorted(out, key=lambda i: (i.group != "assembled parts", -i.qty))


def _has(count, word):
    return any(word in p["footprint"] for name in count for p in boards.BOARDS[name]())


def other_items(count, layout=LAYOUT):
    from attila_tools.hardware.parts import dims, tray

    n_cables = cables(layout)
    knights, tiles = pieces(layout)
    kinds = [k for k in ("2x2", "2x3") if "module-" + k in count]
    out = []
    if _has(count, "RaspberryPi_Pico") and "THT" in "".join(
            p["footprint"] for p in boards.BOARDS["controller"]()):
        usd, src = _price("headers")
        out.append(Item("controller", 2, "pcs", "1 x 20 pin header, 2.54 mm, male", "", "", usd,
                        src, "soldered to the Pico, then the Pico to the board (or buy a "
                        "Pico H, headers fitted)"))
    if _has(count, "USB_C"):
        usd, src = _price("usbc-supply")
        out.append(Item("power", 1, "pcs", "USB-C power supply, 5 V 3 A (15 W)",
                        "e.g. Raspberry Pi 15 W USB-C power supply", "", usd, src,
                        "the LEDs' power: on the Pico's USB alone they stay dark"))
    else:
        usd, src = _price("barrel-supply")
        out.append(Item("power", 1, "pcs", "5 V 2 A (or more) plug-in supply, barrel plug to "
                        "fit the board's jack, centre positive", "", "", usd, src,
                        "the LEDs' power: on the Pico's USB alone they stay dark"))
    usd, src = _price("usb-cable")
    out.append(Item("power", 1, "pcs", "USB data cable for the Pico (micro-USB)", "", "", usd, src,
                    "to flash the firmware; the Pico 2 takes the same"))
    usd, src = _price("ribbon-m")
    metres = n_cables * CABLE_MM / 1000.0
    out.append(Item("cables", metres, "m", "8-way flat ribbon cable, 1.27 mm pitch, 28 AWG",
                    "3M 3365/08 (or any grey 8-way 1.27 mm)", "", usd, src,
                    "%d cables of %d mm: controller -> module 1 -> ... -> module %d"
                    % (n_cables, CABLE_MM, n_cables)))
    usd, src = _price("idc")
    out.append(Item("cables", 2 * n_cables, "pcs", "IDC socket 2 x 4, 2.54 mm, for 1.27 mm ribbon, "
                    "keyed", "e.g. Amphenol 71600-008LF (unverified)", "", usd, src,
                    "two per cable, red stripe to pin 1 at both ends; pressed in a bench "
                    "vice between two flat pieces of wood (or an IDC press), no crimp tool"))
    trays = sum(count["module-" + k] * len(tray.magnets(k)) for k in kinds)
    usd, src = _price("magnet")
    out.append(Item("case", trays + knights + tiles, "pcs", "neodymium disc magnet %g x %g mm, N35 "
                    "or stronger" % (dims.MAGNET_D, dims.MAGNET_T), "", "", usd, src,
                    "%d in the trays, %d in the knights, %d in the tiles" % (trays, knights, tiles)))
    posts = sum(count["module-" + k] * len(tray.posts(k)) for k in kinds)
    holes = len([p for p in boards.BOARDS["controller"]() if p["ref"].startswith("H")])
    usd, src = _price("screw")
    out.append(Item("case", posts + holes, "pcs", "M3 x 6 mm pan-head screw", "ISO 7045", "", usd,
                    src, "%d for the module boards, %d for the controller" % (posts, holes)))
    for k in kinds:
        w, h = tray.plate_size(k)
        usd, src = _price("plate-" + k)
        out.append(Item("case", count["module-" + k], "pcs", "top plate %g x %g mm, %g mm opal cast "
                        "acrylic" % (w, h, dims.PLATE), "", "", usd, src, "the %s modules" % k))
    usd, src = _price("pla-kg")
    grams = pla_grams()
    if grams:
        out.append(Item("case", grams / 1000.0, "kg", "PLA filament (baffles in black)", "", "",
                        usd, src, "trays, baffles, the controller's case (make hardware-parts)"))
    if _has(count, "microSD"):
        usd, src = _price("sdcard")
        out.append(Item("controller", 1, "pcs", "microSD card, 4-32 GB, FAT32", "", "", usd, src,
                        "optional: the solved game (docs: build/card)"))
    return out


def pla_grams(path=os.path.join(ROOT, "docs", "figures", "parts.md")):
    """The printed parts' total weight, as make hardware-parts measured it (0 if not yet)."""
    if not os.path.exists(path):
        return 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("| **"):
                cells = [c.strip(" *") for c in line.split("|")]
                grams = [c for c in cells if c.endswith(" g")]
                if grams:
                    return int(grams[0][:-2])
    return 0


GROUPS = ("boards", "assembled parts", "parts soldered by hand", "controller", "power", "cables",
          "case")


def items(layout=LAYOUT):
    """Everything to buy for the layout's board, group by group."""
    count = board_counts(layout)
    its = board_items(count) + part_items(count) + other_items(count, layout)
    return sorted(its, key=lambda i: GROUPS.index(i.group))


def cost(item):
    return item.qty * item.usd


def total(its):
    return sum(cost(i) for i in its)


def write_csv(its, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Group", "Qty", "Unit", "What", "Part number", "LCSC Part #", "Unit USD",
                    "USD", "Price from", "Note"])
        for i in its:
            w.writerow([i.group, _qty(i), i.unit, i.what, i.part, i.lcsc, "%.3f" % i.usd,
                        "%.2f" % cost(i), i.price, i.note])
        w.writerow(["total", "", "", "", "", "", "", "%.2f" % total(its), "", ""])


def _qty(i):
    return ("%g" % round(i.qty, 3)) if isinstance(i.qty, float) else str(i.qty)


def write_md(its, path, layout=LAYOUT):
    """The order page's table (docs/figures/shopping-4x5.md)."""
    lines = ["| qty | what | part number | LCSC | est. USD | price from |",
             "|--:|---|---|---|--:|---|"]
    group = None
    for i in its:
        if i.group != group:
            group = i.group
            lines.append("| | **%s** | | | | |" % group)
        what = i.what + (" (%s)" % i.note if i.note else "")
        lines.append("| %s | %s | %s | %s | %.2f | %s |" % (
            _qty(i) + ("" if i.unit == "pcs" else " " + i.unit), what, i.part, i.lcsc or "-",
            cost(i), i.price))
    lines.append("| | **all of the above** | | | **%.2f** | |" % total(its))
    used = sorted({i.price for i in its})
    lines += ["", "Where the prices come from:", ""]
    lines += ["- **%s**: %s" % (k, PRICE_SOURCES[k]) for k in used]
    lines += ["", "The total includes: every board of the layout `%s` (%s), their parts, the "
              "assembler's fees, the supply, the cables, the magnets, screws, plates and "
              "filament of the printed trays, and the optional card. It leaves out shipping, "
              "taxes and customs, and tools. Written by `make hardware`."
              % (os.path.basename(layout), ", ".join("%d %s" % (n, b) for b, n in
                                                     sorted(board_counts(layout).items())))]
    span, where = cable.longest_span()
    lines += ["", "The longest span from a module's OUT to the next module's IN over the shipped "
              "layouts is %.0f mm (%s): a %d mm cable reaches it under the board with room to "
              "fold." % (span, where, CABLE_MM)]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def check(names=None):
    """Every board part has its sourcing row (a SourcingError names the first missing MPN)."""
    for name in names or sorted(boards.BOARDS):
        assembly.bom_rows(name)



