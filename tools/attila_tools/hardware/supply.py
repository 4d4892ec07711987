"""The LEDs' 5 V along the chain: what is left at every module, computed from the copper.

    volts(current)  -> [(module, lowest LED volts)] with `current` "budget" or "white"

The currents are the firmware's own estimate (attila.leds.strip.Leds, the
reference profile boards/profiles/pico.json): every square full white,
dimmed by the profile's brightness and LED budget ("budget"), or at full
white undimmed ("white"). The 5 V runs from the controller's input through
its tracks, then through each cable (one wire) and each module's tracks
(traces.Copper: nodal analysis of the track widths and lengths of
boards/pcb), the LEDs drawing at their pads. Ground comes back through the
cable's two ground wires and the boards' pours (taken as no resistance: a
pour of 1 oz copper is 0.5 mOhm a square).
"""

import json
import math
import os

from attila.game import layoutfile
from attila.leds.strip import Leds
from attila.profile import parse
from attila_tools.hardware import boards, pcbfile, spice, traces

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
LAYOUT = os.path.join(ROOT, "boards", "4x5.json")
PROFILE = os.path.join(ROOT, "boards", "profiles", "pico.json")
PCB_DIR = os.path.join(ROOT, "boards", "pcb")
SUPPLY_V = 5.0
CABLE_M = 0.300
CONTACT_OHM = 0.02  # one mated socket-to-header contact (assumed: a typical IDC rating)
FACTS = {
    "contact": "20 mOhm a mated IDC contact, two on each wire of a cable (assumed, a typical "
               "connector rating)",
    "wire": "28 AWG 7/36 copper: %.3f Ohm/m (seven 0.127 mm strands, 1.72e-8 Ohm m)"
            % (spice.RHO_CU / (7 * math.pi * (0.127e-3 / 2) ** 2)),
    "copper": "tracks of 1 oz (35 um) copper, 1.72e-8 Ohm m; widths and lengths from boards/pcb",
    "currents": "the firmware's own estimate (attila/leds/strip.py: 20 mA a channel at 255, "
                "1 mA idle an LED)",
}


def wire_ohms():
    return spice.RHO_CU / (7 * math.pi * (0.127e-3 / 2) ** 2) * CABLE_M


def led_currents(current, layout=LAYOUT, profile=PROFILE):
    """[[amps of each LED of module 1], [module 2], ...] in chain order."""
    with open(profile) as f:
        prof = parse(json.load(f), profile)
    lay, modules, _tiles = layoutfile.load(layout)
    wiring = prof.wiring(lay, modules)
    if current == "white":
        leds = Leds(wiring, prof.led_order, 255, 10 ** 6, prof.ma_per_channel, prof.idle_ma)
    else:
        leds = prof.leds(wiring)
    buf = bytearray(leds.bytes_needed())
    leds.render(bytes([255] * (3 * lay.size)), buf)
    bpp = leds.bpp
    per_led = [sum(buf[i * bpp:(i + 1) * bpp]) * prof.ma_per_channel / 255.0 + prof.idle_ma
               for i in range(leds.count)]
    out, k = [], 0
    for m in sorted(modules, key=lambda m: m.number):
        n = len(m.places)
        out.append([a / 1000.0 for a in per_led[k:k + n]])
        k += n
    return out, prof


def _board(name):
    return pcbfile.load(os.path.join(PCB_DIR, name, name + ".kicad_pcb"))


def _chain_leds(b):
    """The module's LEDs in chain order (from IN along the data pins)."""
    order, net = [], "LED_IN"
    while True:
        nxt = [fp for fp in b.footprints.values() if fp.ref.startswith("D")
               and fp.pads.get("4") is not None and fp.pads["4"].net == net]
        if len(nxt) != 1:
            return order
        order.append(nxt[0].ref)
        net = nxt[0].pads["2"].net
        if net == "LED_OUT" or not net:
            return order


def controller_drop(amps):
    """Volts lost on the controller from its 5 V input to the cable connector."""
    b = _board("controller")
    copper = traces.Copper(b, "+5V")
    inputs = [(p["ref"], pin) for p in boards.BOARDS["controller"]()
              for pin, net in p["pins"].items()
              if net == "+5V" and p["ref"].startswith(("J", "F", "Q")) and p["ref"] != "J1"
              and (p["ref"], pin) in copper.pads]
    if not inputs:
        raise pcbfile.PcbError("controller: no 5 V input connector on the +5V tracks")
    return copper.drops(inputs, {("J1", "1"): amps})[("J1", "1")] + amps * input_ohms()


def input_ohms():
    """Ohms of the parts in series with the controller's 5 V input (a fuse, a
    reverse-polarity MOSFET), at their datasheet maximum (sourcing.py)."""
    from attila_tools.hardware import sourcing

    return sum(sourcing.lookup(p["mpn"]).get("ohms", 0.0)
               for p in boards.BOARDS["controller"]() if p["mpn"] in sourcing.PARTS)


def volts(current, layout=LAYOUT):
    """[(module number, kind, volts at its IN, lowest volts at an LED)] along the chain."""
    per_module, _prof = led_currents(current, layout)
    _lay, modules, _tiles = layoutfile.load(layout)
    kinds = [m.kind for m in sorted(modules, key=lambda m: m.number)]
    totals = [sum(sum(m) for m in per_module[i:]) for i in range(len(per_module))]
    v = SUPPLY_V - controller_drop(totals[0])
    out = []
    cable = wire_ohms() + 2 * CONTACT_OHM  # the 5 V wire
    ground = (wire_ohms() + 2 * CONTACT_OHM) / 2  # two ground wires
    for i, kind in enumerate(kinds):
        v -= totals[i] * (cable + ground)
        b = _board("module-" + kind)
        copper = traces.Copper(b, "+5V")
        leds = _chain_leds(b)
        sinks = {(ref, "1"): a for ref, a in zip(leds, per_module[i])}
        downstream = totals[i + 1] if i + 1 < len(totals) else 0.0
        if downstream:
            sinks[("J2", "1")] = downstream
        drops = copper.drops([("J1", "1")], sinks)
        low = max(d for (ref, _pin), d in drops.items() if ref != "J2")
        out.append((i + 1, kind, v, v - low))
        if downstream:
            v -= drops[("J2", "1")]
    return out


def totals(current, layout=LAYOUT):
    per_module, prof = led_currents(current, layout)
    return sum(sum(m) for m in per_module), prof
