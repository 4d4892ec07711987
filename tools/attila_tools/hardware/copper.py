"""Check a board's copper against the firmware's own wiring.

Reads the .kicad_pcb with pcbfile (no KiCad needed) and follows its copper
(connectivity.py: tracks, vias, the pour, pads; not the pads' net labels),
with the parts' pinouts read from KiCad's own symbol libraries (kicadlib.py),
and compares:

- the copper itself: no net open, none shorted to another;
- the outline with geometry.board_outline;
- LED k: the chain traced from IN's data pin through each LED's DIN and
  DOUT visits the LEDs in the order the firmware's Wiring expects, each at
  its square's centre, and leaves through its series resistor to OUT's data pin;
- the switch under square k is on the register input whose bit the firmware
  reads for that square (ShiftScanner: register bits 0..n-1 = D0..D(n-1)),
  with its pull-up to 3.3 V; unused inputs tied to 3.3 V;
- IN and OUT carry the cable's signals on the same pins (cable.NETS),
  the register's QH on IN's shift-data pin, its SER on OUT's with a pull-down;
- the controller (copper_ctl.py): the cable's signals, buttons, piezo and
  microSD card reach the profile's GPIOs, the power input's protection.

`problems(board, kind, wiring_order)` lists what is wrong, one line each.
"""

from attila_tools.hardware import cable, catalogue, connectivity, frame, geometry as g, kicadlib

# The parts' symbols in KiCad's libraries (the catalogue's choice); the pins'
# names below are those symbols' own.
HC165 = catalogue.REGISTER.symbol
LED = catalogue.LED.symbol


def register_pins():
    """The 74HC165's pins by role, from KiCad's symbol: inputs D0..D7, QH, SER,
    LOAD (~PL) and CLOCK (CP)."""
    p = kicadlib.pins(HC165)
    return {"inputs": [p["D%d" % k][0] for k in range(8)], "QH": p["Q7"][0], "SER": p["DS"][0],
            "LOAD": p["~{PL}"][0], "CLOCK": p["CP"][0]}


def led_pins():
    """(DIN, DOUT) pad numbers of the WS2812B, from KiCad's symbol."""
    p = kicadlib.pins(LED)
    return p["DIN"][0], p["DOUT"][0]


def firmware_order(kind, prof=None):
    """(led order, sensor order): the module's local squares in chain order, as
    the firmware wires a module of this kind under the ordered controller's
    profile (attila.sensing.wiring over boards/4x5.json where it has such a
    module; elsewhere the profile's local order, row by row by default)."""
    import os

    from attila.game import layoutfile
    from attila.sensing.wiring import check_order

    from attila_tools.hardware import pinout

    prof = prof or pinout.load()
    layout, modules, _ = layoutfile.load(os.path.join(pinout.ROOT, "boards", "4x5.json"))
    wiring = prof.wiring(layout, modules)
    led, bit = wiring.led_offset, 0
    for m in sorted(modules, key=lambda m: m.number):
        n = len(m.places)
        local = {layout.at(f, r): i for i, (f, r) in enumerate(m.places)}
        if m.kind == kind:
            leds = [local[wiring.led_square[led + j]] for j in range(n)]
            sensors = [local[wiring.sensor_square[bit + j]] for j in range(n)]
            return leds, sensors
        led += n
        bit += n
    n = g.squares(kind)
    return tuple(list(check_order((orders or {}).get(kind), n, kind))
                 for orders in (prof.led_local, prof.sensor_local))


def _square_of(kind, xy):
    """Local square index of a module-frame point, or None outside the squares."""
    w, h = g.size(kind)
    c, r = int(xy[0] // g.PITCH), int(xy[1] // g.PITCH)
    if 0 <= c < w and 0 <= r < h:
        return r * w + c
    return None


def problems(board, kind, order=None):
    """What in `board` (a pcbfile.Pcb) disagrees with the firmware; [] when nothing."""
    copper = connectivity.Copper(board)
    out = list(copper.problems)
    leds_order, sensors_order = order or firmware_order(kind)
    reg = register_pins()
    din, dout = led_pins()
    n = g.squares(kind)
    fps = board.footprints
    net = copper.net

    def kpos(fp):
        return frame.to_module(kind, fp.at)

    x0, y0, x1, y1 = board.outline()
    a, b = frame.to_module(kind, (x0, y1)), frame.to_module(kind, (x1, y0))
    want = g.board_outline(kind)
    if any(abs(u - v) > 0.01 for u, v in zip(a + b, want)):
        out.append("outline %s, geometry says %s" % (a + b, want))
    # The connectors: the cable's signals on the same pins at IN and OUT.
    for pin, sig in cable.NETS.items():
        nin, nout = net("J1", pin), net("J2", pin)
        if sig in ("LED", "SHIFT"):
            continue
        if nin != sig or nout != sig:
            out.append("cable pin %d: IN has %s, OUT has %s, the cable carries %s"
                       % (pin, nin, nout, sig))
    data_pin = cable.pin_of("SHIFT")[0]
    led_pin = cable.pin_of("LED")[0]
    if net("U1", reg["QH"]) != net("J1", data_pin):
        out.append("register QH (pin %s) is not on IN's shift-data pin %s" % (reg["QH"], data_pin))
    ser = net("U1", reg["SER"])
    if ser != net("J2", data_pin):
        out.append("register SER (pin %s) is not on OUT's shift-data pin %s"
                   % (reg["SER"], data_pin))
    for role in ("LOAD", "CLOCK"):
        if net("U1", reg[role]) != role:
            out.append("register pin %s is on %s, not %s" % (reg[role], net("U1", reg[role]), role))

    def resistor_to(a, other):
        return any(ref.startswith("R") and set(copper.nets_of(ref).values()) == {a, other}
                   for ref in fps)

    if not resistor_to(ser, "GND"):
        out.append("SER has no pull-down to GND")
    out += _chain(copper, fps, kind, leds_order, led_pin, din, dout)
    # The switches: square k's on the register input the firmware reads for it.
    under = {}
    for ref, fp in fps.items():
        if fp.value == "reed":
            nets = [x for x in copper.nets_of(ref).values() if x != "GND"]
            sq = _square_of(kind, kpos(fp))
            under.setdefault(sq, []).append((ref, nets[0] if nets else None))
    for bit in range(n):
        sq = sensors_order[bit]
        reg_net = net("U1", reg["inputs"][bit])
        here = under.get(sq, [])
        if len(here) != 1 or here[0][1] != reg_net:
            out.append("square %d's switch %s is on %s; the firmware reads it as bit %d, "
                       "register input D%d (pin %s, net %s)"
                       % (sq, [r for r, _ in here], [x for _, x in here], bit, bit,
                          reg["inputs"][bit], reg_net))
        elif not resistor_to(reg_net, "+3V3"):
            out.append("register input D%d has no pull-up to 3.3 V" % bit)
    for bit in range(n, 8):
        if net("U1", reg["inputs"][bit]) != "+3V3":
            out.append("unused register input D%d is not tied to 3.3 V" % bit)
    return out


def through(copper, fps, net, avoid=("GND", "+3V3", "+5V")):
    """The net on the far side of a two-pad resistor in series with `net`
    (a series resistor, not a pull-up or pull-down), or None."""
    for ref in sorted(fps):
        nets = copper.nets_of(ref)
        if ref.startswith("R") and len(nets) == 2 and net in nets.values():
            other = [x for x in nets.values() if x != net]
            if other and other[0] not in avoid:
                return other[0]
    return None


def _chain(copper, fps, kind, leds_order, led_pin, din, dout):
    """The LED chain traced from IN: the firmware's order, each LED at its
    square's centre, out through the last LED's series resistor to OUT."""
    out = []
    n = g.squares(kind)
    leds = sorted(ref for ref, fp in fps.items() if fp.value == "WS2812B")
    net, seen = copper.net("J1", led_pin), []
    while True:
        nxt = [ref for ref in leds if net and copper.net(ref, din) == net]
        if len(nxt) != 1:
            break
        if nxt[0] in seen:
            out.append("the LED chain loops at %s" % nxt[0])
            break
        seen.append(nxt[0])
        net = copper.net(nxt[0], dout)
    last = net
    if len(seen) == n:
        net = through(copper, fps, net) or net
    if len(seen) != n or net != copper.net("J2", led_pin):
        out.append("the LED chain from IN reaches %d of %d LEDs%s" % (
            len(seen), n, "" if len(seen) != n else
            " but does not end on OUT's data pin through a series resistor"))
    elif net == last:
        out.append("the last LED drives OUT's data pin with no series resistor")
    for j, ref in enumerate(seen):
        want_sq = leds_order[j] if j < len(leds_order) else None
        pos = frame.to_module(kind, fps[ref].at)
        centre = g.square_centre(kind, want_sq) if want_sq is not None else None
        if centre is None or abs(pos[0] - centre[0]) > 0.01 or abs(pos[1] - centre[1]) > 0.01:
            out.append("LED %s is link %d of the chain at %s, the firmware expects square %s's "
                       "centre %s" % (ref, j, pos, want_sq, centre))
    return out


def decoupling(board):
    """[(LED, capacitor, mm to VDD, mm to VSS)]: each LED's 100 nF and the
    length of track from its pads to the LED's 5 V and ground pads, over
    tracks alone (no via, no pour between; None where there is no such path)."""
    import heapq
    import math

    copper = connectivity.Copper(board)
    its, adj = copper.items, copper.adj
    index = {(it.ref, it.pin): i for i, it in enumerate(its) if it.kind == "pad"}
    pins = kicadlib.pins(LED)

    def length(a, b):
        """Shortest track length from pad item a to pad item b, tracks only."""
        best, heap = {a: 0.0}, [(0.0, a)]
        while heap:
            d, i = heapq.heappop(heap)
            if i == b:
                return round(d, 2)
            if d > best.get(i, 1e9) or (i != a and its[i].kind != "track"):
                continue
            for j in adj[i]:
                if its[j].kind not in ("track", "pad") or (its[j].kind == "pad" and j != b):
                    continue
                g = its[j].geo
                step = math.hypot(g[2][0] - g[1][0], g[2][1] - g[1][1]) if g[0] == "seg" else 0.0
                if d + step < best.get(j, 1e9):
                    best[j] = d + step
                    heapq.heappush(heap, (d + step, j))
        return None

    out = []
    for ref in sorted(board.footprints, key=lambda r: int(r[1:]) if r[1:].isdigit() else 0):
        if board.footprints[ref].value != "WS2812B":
            continue
        vdd, vss = (ref, pins["VDD"][0]), (ref, pins["VSS"][0])
        caps = [r for (r, p) in copper.pads(copper.net(*vdd)) if r.startswith("C")
                and board.footprints[r].value == "100nF"]
        near = sorted(caps, key=lambda c: _dist(board.footprints[c].at, board.footprints[ref].at))
        if not near:
            out.append((ref, None, None, None))
            continue
        cap = near[0]
        c5 = [p for p, n in copper.nets_of(cap).items() if n == copper.net(*vdd)][0]
        cg = [p for p, n in copper.nets_of(cap).items() if n != copper.net(*vdd)][0]
        out.append((ref, cap, length(index[(cap, c5)], index[vdd]),
                    length(index[(cap, cg)], index[vss])))
    return out


def _dist(a, b):
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
