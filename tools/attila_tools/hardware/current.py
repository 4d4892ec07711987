"""Whether each track of the LEDs' supply is wide enough for the current it
can carry (no KiCad needed; the copper as connectivity.py reads it).

The current a track carries is bounded by the loads on the far side of it:
take the track away, and the copper on one side feeds what is on the other.
The loads: each LED at full white (the firmware's own model,
the catalogue's LED, which tests hold to attila/leds/strip.py: 3 x 20 mA + 1 mA),
the Pico, its card and the
registers (100 mA, docs/pages/build/power.md), and wherever the chain's
current passes (the cable's 5 V and ground pins, the USB-C socket, the fuse,
the clamp, the P-MOSFET) as much as the input's fuse lets through without
tripping: its trip current (the catalogue's fuse), which bounds every other
current too. A track in a loop (a ground track beside the pour) carries at
most what the pads it touches draw.

Widths from IPC-2221 for an outer layer of 1 oz copper and a 10 C rise:
I = 0.048 * dT^0.44 * A^0.725 (I in A, A in square mils).
"""

from attila_tools.hardware import cable, catalogue, connectivity, kicadlib

NETS = ("+5V", "GND", "VIN", "VIN_FUSED", "VSYS")  # the supply, its return, the Pico's feed
RISE = 10.0  # C
COPPER_MIL = 1.378  # 1 oz/ft2: 35 um, in mils
LED_MA = 3 * catalogue.LED.facts["ma_per_channel"] + catalogue.LED.facts["idle_ma"]
TRIP_MA = catalogue.FUSE.facts["trip_ma"]
LOGIC_MA = 100  # the Pico, its card, the registers (docs/pages/build/power.md)


def width_for(amps, rise=RISE):
    """The narrowest track (mm) of an outer layer that carries `amps` at `rise` C."""
    area = (amps / (0.048 * rise ** 0.44)) ** (1 / 0.725)
    return area / COPPER_MIL * 0.0254


def loads(board):
    """{(ref, pad number): mA} of the pads that draw or pass the supply's current."""
    chain = TRIP_MA
    led = kicadlib.pins(catalogue.LED.symbol)
    usb = kicadlib.pins(catalogue.USB_C.symbol)
    fet = kicadlib.pins(catalogue.PFET.symbol)
    out = {}
    for ref, fp in board.footprints.items():
        if fp.value == catalogue.LED.value:
            for name in ("VDD", "VSS"):
                out[(ref, led[name][0])] = LED_MA
        elif fp.name.startswith("Connector_IDC:"):  # the cable's 5 V and ground
            for pin in cable.pin_of("+5V") + cable.pin_of("GND"):
                out[(ref, str(pin))] = chain
        elif fp.name.startswith("Connector_USB:"):
            for name in ("VBUS", "GND", "SHIELD"):
                for pin in usb[name]:
                    out[(ref, pin)] = chain
        elif ref.startswith("F") or fp.value == catalogue.TVS.value:
            for pin in fp.pads:
                out[(ref, pin)] = chain
        elif ref.startswith("Q"):
            for name in ("D", "S"):
                out[(ref, fet[name][0])] = chain
        elif fp.value == catalogue.SCHOTTKY.value:
            for pin in fp.pads:
                out[(ref, pin)] = LOGIC_MA
    return out


def currents(board, copper=None):
    """[(track item, mA)] for every track of the supply's nets."""
    copper = copper or connectivity.Copper(board)
    load = loads(board)
    cap = TRIP_MA
    its, adj = copper.items, copper.adj
    draw = [load.get((it.ref, it.pin), 0) if it.kind == "pad" else 0 for it in its]
    out = []
    for t, it in enumerate(its):
        if it.kind != "track" or it.net not in NETS:
            continue
        piece = copper.pieces[copper.piece_of[t]]
        total = sum(draw[i] for i in piece)
        sides = [p for p in connectivity.pieces({i: adj[i] for i in piece}, skip={t})
                 if any(j in adj[t] for j in p)]
        if len(sides) > 1:
            amps = max(min(s, total - s) for s in (sum(draw[i] for i in p) for p in sides))
        else:  # in a loop: what the pads it touches draw
            amps = sum(draw[i] for i in adj[t])
        out.append((it, min(amps, cap)))
    return out


def problems(board, copper=None):
    """The supply's tracks narrower than the current they carry needs."""
    out = []
    for it, ma in currents(board, copper):
        need = width_for(ma / 1000.0)
        width = 2 * it.geo[3]
        if width + 1e-6 < need:
            (ax, ay), (bx, by) = it.geo[1], it.geo[2]
            out.append("%s track (%.2f, %.2f)-(%.2f, %.2f) on %s is %.2f mm wide and carries up "
                       "to %.2f A: it needs %.2f mm (IPC-2221, %g C rise, 1 oz)"
                       % (it.net, ax, ay, bx, by, sorted(it.layers)[0], width, ma / 1000.0, need,
                          RISE))
    return out
