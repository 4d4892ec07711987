"""Check a module board's copper against the firmware's own wiring.

Reads the .kicad_pcb with pcbfile (no KiCad needed) and compares:

- the outline with geometry.board_outline;
- LED k: the chain traced from IN's data pin through each LED's DIN and
  DOUT visits the LEDs in the order the firmware's Wiring expects, each at
  its square's centre, and leaves through OUT's data pin;
- the switch under square k is on the register input whose bit the firmware
  reads for that square (ShiftScanner: register bits 0..n-1 = D0..D(n-1)),
  with its pull-up to 3.3 V; unused inputs tied to 3.3 V;
- IN and OUT carry the cable's signals on the same pins (cable.NETS),
  the register's QH on IN's shift-data pin, its SER on OUT's with a pull-down;
- the controller (`controller_problems`): the cable's signals reach the
  profile's GPIOs, and its shift data has a pull-up to 3.3 V.

`problems(board, kind, wiring_order)` lists what is wrong, one line each.
"""

from attila_tools.hardware import cable, circuit, frame, geometry as g

HC165_INPUT_PIN = circuit.REGISTER_INPUT_PIN  # the chip's pinout (datasheet)
HC165_QH, HC165_SER, HC165_LOAD, HC165_CLOCK = "9", "10", "1", "2"
LED_DIN, LED_DOUT = "4", "2"  # WS2812B


def firmware_order(kind):
    """(led order, sensor order): the module's local squares in chain order, as
    the firmware wires a module of this kind (attila.sensing.wiring over boards/4x5.json,
    the pico profile's local orders)."""
    import os

    from attila import profile
    from attila.game import layoutfile

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))
    layout, modules, _ = layoutfile.load(os.path.join(root, "boards", "4x5.json"))
    prof = profile.load(os.path.join(root, "boards", "profiles", "pico.json"))
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
    raise ValueError("boards/4x5.json has no %s module" % kind)


def _square_of(kind, xy):
    """Local square index of a module-frame point, or None outside the squares."""
    w, h = g.size(kind)
    c, r = int(xy[0] // g.PITCH), int(xy[1] // g.PITCH)
    if 0 <= c < w and 0 <= r < h:
        return r * w + c
    return None


def problems(board, kind, order=None):
    """What in `board` (a pcbfile.Pcb) disagrees with the firmware; [] when nothing."""
    out = []
    leds_order, sensors_order = order or firmware_order(kind)
    n = g.squares(kind)
    fps = board.footprints

    def kpos(fp):
        return frame.to_module(kind, fp.at)

    def pad_net(ref, pin):
        fp = fps.get(ref)
        return fp.pads[pin].net if fp is not None and pin in fp.pads else None

    x0, y0, x1, y1 = board.outline()
    a, b = frame.to_module(kind, (x0, y1)), frame.to_module(kind, (x1, y0))
    want = g.board_outline(kind)
    if any(abs(u - v) > 0.01 for u, v in zip(a + b, want)):
        out.append("outline %s, geometry says %s" % (a + b, want))
    # The connectors: the cable's signals on the same pins at IN and OUT.
    for pin, net in cable.NETS.items():
        nin, nout = pad_net("J1", str(pin)), pad_net("J2", str(pin))
        if net in ("LED", "SHIFT"):
            continue
        if nin != net or nout != net:
            out.append("cable pin %d: IN has %s, OUT has %s, the cable carries %s"
                       % (pin, nin, nout, net))
    data_pin = str(cable.pin_of("SHIFT")[0])
    led_pin = str(cable.pin_of("LED")[0])
    if pad_net("U1", HC165_QH) != pad_net("J1", data_pin):
        out.append("register QH (pin 9) is not on IN's shift-data pin %s" % data_pin)
    ser = pad_net("U1", HC165_SER)
    if ser != pad_net("J2", data_pin):
        out.append("register SER (pin 10) is not on OUT's shift-data pin %s" % data_pin)
    for pin, sig in ((HC165_LOAD, "LOAD"), (HC165_CLOCK, "CLOCK")):
        if pad_net("U1", pin) != sig:
            out.append("register pin %s is on %s, not %s" % (pin, pad_net("U1", pin), sig))
    pads = board.net_pads()
    by_net = {}
    for net, items in pads.items():
        for ref, pin in items:
            by_net.setdefault(net, []).append((ref, pin))

    def resistor_to(net, other):
        for ref, pin in by_net.get(net, []):
            if ref.startswith("R"):
                nets = set(fps[ref].nets().values())
                if nets == {net, other}:
                    return True
        return False

    if not resistor_to(ser, "GND"):
        out.append("SER has no pull-down to GND")
    # The LED chain, traced from IN.
    leds = {ref: fp for ref, fp in fps.items() if fp.value == "WS2812B"}
    net, seen = pad_net("J1", led_pin), []
    while True:
        nxt = [ref for ref, fp in leds.items() if fp.pads[LED_DIN].net == net and net]
        if len(nxt) != 1:
            break
        ref = nxt[0]
        if ref in seen:
            out.append("the LED chain loops at %s" % ref)
            break
        seen.append(ref)
        net = leds[ref].pads[LED_DOUT].net
    if len(seen) != n or net != pad_net("J2", led_pin):
        out.append("the LED chain from IN reaches %d of %d LEDs%s" % (
            len(seen), n, "" if len(seen) != n else " but does not end on OUT's data pin"))
    for j, ref in enumerate(seen):
        want_sq = leds_order[j] if j < len(leds_order) else None
        pos = kpos(leds[ref])
        centre = g.square_centre(kind, want_sq) if want_sq is not None else None
        if centre is None or abs(pos[0] - centre[0]) > 0.01 or abs(pos[1] - centre[1]) > 0.01:
            out.append("LED %s is link %d of the chain at %s, the firmware expects square %s's "
                       "centre %s" % (ref, j, pos, want_sq, centre))
    # The switches: square k's on the register input the firmware reads for it.
    switches = {ref: fp for ref, fp in fps.items() if fp.value == "reed"}
    under = {}
    for ref, fp in switches.items():
        sq = _square_of(kind, kpos(fp))
        nets = [p.net for p in fp.pads.values() if p.net != "GND"]
        under.setdefault(sq, []).append((ref, nets[0] if nets else None))
    for bit in range(n):
        sq = sensors_order[bit]
        reg_net = pad_net("U1", HC165_INPUT_PIN[bit])
        here = under.get(sq, [])
        if len(here) != 1 or here[0][1] != reg_net:
            out.append("square %d's switch %s is on %s; the firmware reads it as bit %d, "
                       "register input D%d (pin %s, net %s)"
                       % (sq, [r for r, _ in here], [x for _, x in here], bit, bit,
                          HC165_INPUT_PIN[bit], reg_net))
        elif not resistor_to(reg_net, "+3V3"):
            out.append("register input D%d has no pull-up to 3.3 V" % bit)
    for bit in range(n, 8):
        if pad_net("U1", HC165_INPUT_PIN[bit]) != "+3V3":
            out.append("unused register input D%d is not tied to 3.3 V" % bit)
    return out


def profile_pins(path=None):
    """{signal: GPIO} of the reference profile (boards/profiles/pico.json)."""
    import json
    import os

    if path is None:
        path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))))), "boards", "profiles", "pico.json")
    with open(path) as f:
        p = json.load(f)
    s = p["sensors"]
    return {"LED": p["leds"]["pin"], "LOAD": s["load"], "CLOCK": s["clock"], "SHIFT": s["data"],
            "UNDO": p["buttons"]["undo"], "MENU": p["buttons"]["menu"], "BUZZER": p["buzzer"]}


def controller_problems(board, pins=None):
    """What on the controller's copper disagrees with the profile's GPIOs and the cable."""
    pins = pins or profile_pins()
    fps = board.footprints
    gpio_of_pad = {str(pad): gp for gp, pad in circuit.PICO_PIN.items()}
    pico = [r for r, f in fps.items() if f.value == "Pico"]
    if len(pico) != 1:
        return ["expected one Pico, found %s" % pico]
    pico = pico[0]
    on_net = {}
    for fp in fps.values():
        for pad in fp.all_pads:
            if pad.net:
                on_net.setdefault(pad.net, set()).add((fp.ref, pad.number))

    def reach(net):
        """The GPIO a net reaches, through series resistors and the buffer (Y -> A)."""
        seen = set()
        while net and net not in seen:
            seen.add(net)
            nodes = on_net.get(net, set())
            hit = sorted(gpio_of_pad[p] for r, p in nodes if r == pico and p in gpio_of_pad)
            if hit:
                return hit[0] if len(hit) == 1 else hit
            step = None
            for r, p in sorted(nodes):
                f = fps[r]
                if r.startswith("R") and len(f.pads) == 2 and "GND" not in f.nets().values():
                    step = f.pads["2" if p == "1" else "1"].net
                elif f.value == "74AHCT1G125" and p == "4":
                    step = f.pads["2"].net
            net = step
        return None

    out = []
    for pin, net in cable.NETS.items():
        have = fps["J1"].pads[str(pin)].net if "J1" in fps else None
        if net in ("LED", "LOAD", "CLOCK", "SHIFT"):
            got = reach(have)
            if got != pins[net]:
                out.append("cable pin %d (%s) reaches GPIO %s, the profile says %s"
                           % (pin, net, got, pins[net]))
        elif have != net:
            out.append("cable pin %d is on %s, the cable carries %s" % (pin, have, net))
    # CircuitPython's ShiftRegisterKeys sets no pull on the data pin: the board's
    # own keeps a cable-less line at all ones, which the chain check names.
    data_pin = cable.pin_of("SHIFT")[0]
    data = fps["J1"].pads[str(data_pin)].net if "J1" in fps else None
    if data and not any(r.startswith("R") and set(f.nets().values()) == {data, "+3V3"}
                        for r, f in fps.items()):
        out.append("cable pin %d (SHIFT) has no pull-up to 3.3 V" % data_pin)
    for ref, sig in (("SW1", "UNDO"), ("SW2", "MENU"), ("BZ1", "BUZZER")):
        nets = [n for n in fps[ref].nets().values() if n != "GND"] if ref in fps else []
        got = reach(nets[0]) if nets else None
        if got != pins[sig]:
            out.append("%s (%s) is on GPIO %s, the profile says %s" % (ref, sig, got, pins[sig]))
    return out
