#!/usr/bin/env python3
"""Schematics of the builds, drawn from the hardware profiles (boards/profiles/).

    python tools/docs/schematics.py            write docs/pages/build/schematics/*.svg
    python tools/docs/schematics.py --check    exit 1 when a committed drawing differs

`make docs` runs it, and tests/tools/test_schematics.py fails when a drawing
in the docs is not what its profile gives: change a pin in a profile and
its schematic is redrawn. Every pin number on a drawing is read from the
profile (GPIO and the Pico's own pin number); what a profile does not say
(the chips' pinouts, the cable's wire order) is the reference build's,
written down once below. Drawn with schemdraw's SVG backend (text as SVG
text, no font files), so the same profile always gives the same bytes.
"""

import argparse
import json
import os
import re
import sys
from xml.etree import ElementTree

import schemdraw
import schemdraw.elements as elm

try:
    from . import drawn  # as tools.docs.schematics (the tests)
except ImportError:
    import drawn  # run as a script: its own folder is on the path
from attila_tools.hardware.cable import CABLE  # the module cable: pin -> wire
from attila_tools.hardware.pinout import PICO_PIN  # GPIO -> the Pico's pin

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROFILES = os.path.join(ROOT, "boards", "profiles")
OUT = os.path.join(ROOT, "docs", "pages", "build", "schematics")

schemdraw.use("svg")
schemdraw.svgconfig.text = "text"

PICO_POWER = ((36, "3V3(OUT)", "3.3 V of the 74HC165s and pull-ups"),
              (38, "GND", "GND of everything"),
              (40, "VBUS", "5 V of the LEDs and the 74AHCT125 (USB only)"))

# 74HC165: inputs A..H (register bits 0..7) on these pins.
HC165_INPUTS = (("A", 11), ("B", 12), ("C", 13), ("D", 14), ("E", 3), ("F", 4), ("G", 5), ("H", 6))


def load(name):
    """A profile's JSON, checked by the firmware's own parser first."""
    path = os.path.join(PROFILES, name)
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    from attila import profile

    profile.load(path)  # ProfileError names the file and the field
    with open(path) as f:
        return json.load(f)


def gpio(pin):
    """'GP22 (pin 29)' for a GPIO number or a CircuitPython 'GP22'."""
    n = int(str(pin)[2:]) if str(pin).startswith("GP") else int(pin)
    return "GP%d (pin %d)" % (n, PICO_PIN[n])


def _svg(d, pad=0.1):
    """The drawing's SVG, its box widened on both sides: schemdraw sizes the
    box from estimated text widths, which fall short for long labels."""
    # schemdraw serialises with ElementTree, whose namespace prefixes are
    # global: a library that registered "svg" (build123d's SVG export does)
    # would turn every tag into <svg:svg ...>. The SVG namespace is the default.
    ElementTree.register_namespace("", "http://www.w3.org/2000/svg")
    text = d.get_imagedata("svg").decode()
    m = re.search(r'height="([\d.]+)pt" width="([\d.]+)pt" viewBox="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"',
                  text)
    h, w, x, y, vw, vh = (float(v) for v in m.groups())
    extra = round(max(40.0, pad * w), 1)
    new = 'height="%gpt" width="%gpt" viewBox="%g %g %g %g"' % (
        h + 10, w + 2 * extra, x - extra, y - 5, vw + 2 * extra, vh + 10)
    return text[:m.start()] + new + text[m.end():]


def pico(p):
    """The Pico with every pin the profile uses, and where each goes."""
    uses = []  # (gpio, what)
    leds, s, b = p["leds"], p["sensors"], p.get("buttons") or {}
    uses.append((leds["pin"], "LED data -> 74AHCT125 1A (pin 2)"))
    kind = s["kind"]
    if kind == "74hc165":
        uses.append((s["load"], "LOAD: SH/LD (pin 1) of every 74HC165"))
        uses.append((s["clock"], "CLOCK: CLK (pin 2) of every 74HC165"))
        uses.append((s["data"], "DATA: QH (pin 9) of module 1's 74HC165"))
    elif kind == "matrix":
        for k, r in enumerate(s["rows"]):
            uses.append((r, "matrix row %d (driven low)" % k))
        for k, c in enumerate(s["cols"]):
            uses.append((c, "matrix column %d (pull-up)" % k))
    else:
        for k, g in enumerate(s["pins"]):
            uses.append((g, "reed switch of sensor %d to GND" % k))
    if "undo" in b:
        uses.append((b["undo"], "UNDO button to GND"))
    if "menu" in b:
        uses.append((b["menu"], "MENU button to GND"))
    if p.get("buzzer") is not None:
        uses.append((p["buzzer"], "piezo transducer to GND (a magnetic buzzer via a transistor)"))
    rows = sorted(((PICO_PIN[int(str(g).lstrip("GP"))], "GP%s" % str(g).lstrip("GP"), what)
                   for g, what in uses))
    rows += [(n, name, what) for n, name, what in PICO_POWER
             if kind == "74hc165" or name != "3V3(OUT)"]
    rows.sort(reverse=True)  # schemdraw stacks a side's pins from the bottom up
    pins = [elm.IcPin(name=name, pin=str(n), side="right", anchorname="p%d" % n)
            for n, name, what in rows]
    d = schemdraw.Drawing(show=False, fontsize=11)
    ic = elm.Ic(pins=pins, pinspacing=0.7, edgepadH=0.4, edgepadW=0.3, lsize=12,
                label=p.get("board", "Raspberry Pi Pico"), lblloc="top")
    d += ic
    for n, name, what in rows:
        d += elm.Line().at(getattr(ic, "p%d" % n)).right(1.2).label(what, loc="right",
                                                                   halign="left")
    d += elm.Label().at((0, -0.6)).label("profile: %s.json" % p["name"], halign="left",
                                          fontsize=10)
    return _svg(d)


def level_shifter(p):
    """The 74AHCT125: 3.3 V LED data from the Pico to 5 V for the first LED."""
    d = schemdraw.Drawing(show=False, fontsize=11)
    left = (("1/OE", 1), ("1A", 2), ("2/OE", 4), ("2A", 5), ("GND", 7))
    right = (("VCC", 14), ("1Y", 3), ("4/OE", 13), ("4A", 12), ("3/OE", 10), ("3A", 9))
    pins = [elm.IcPin(name=n, pin=str(k), side="left") for n, k in reversed(left)]
    pins += [elm.IcPin(name=n, pin=str(k), side="right") for n, k in reversed(right)]
    ic = elm.Ic(pins=pins, pinspacing=1.1, edgepadW=1.2, label="74AHCT125", lblloc="top")
    d += ic
    d += elm.Line().at(ic["1A"]).left(3.0).label(
        "LED data: %s" % gpio(p["leds"]["pin"]), loc="left", halign="right")
    for name in ("1/OE", "2/OE", "2A", "GND"):
        d += elm.Line().at(ic[name]).left(0.8)
        d += elm.Ground()
    for name in ("4/OE", "4A", "3/OE", "3A"):
        d += elm.Line().at(ic[name]).right(0.8)
        d += elm.Ground()
    d += elm.Line().at(ic.VCC).right(0.8)
    d += elm.Vdd().label("5 V (VBUS)")
    d += elm.Line().at(ic["1Y"]).right(2.0)
    d += elm.Resistor().right().label("330 Ω")
    d += elm.Line().right(0.5).label("DIN of module 1's first LED", loc="right", halign="left")
    d += elm.Label().at((-3.0, -1.2)).label(
        "1/OE to GND enables buffer 1; buffers 2-4 unused: their /OE and A to GND. "
        "100 nF from VCC to GND.", halign="left", fontsize=10)
    return _svg(d)


def cable(p):
    """The 8-pin connector, IN and OUT of every module, with numbered pins."""
    d = schemdraw.Drawing(show=False, fontsize=11)
    top_down = list(reversed(CABLE))  # schemdraw stacks a side's pins from the bottom up
    pins_in = [elm.IcPin(name=w, pin=str(n), side="right", anchorname="p%d" % n)
               for n, w in top_down]
    pins_out = [elm.IcPin(name=w, pin=str(n), side="left", anchorname="p%d" % n)
                for n, w in top_down]
    a = elm.Ic(pins=pins_in, pinspacing=0.8, edgepadW=0.6, label="IN (towards the Pico)",
               lblloc="top")
    d += a
    b = elm.Ic(pins=pins_out, pinspacing=0.8, edgepadW=0.6, label="OUT (to the next module)",
               lblloc="top").at((a.p1[0] + 9.0, a.p1[1])).anchor("p1")
    d += b
    note = {4: "DIN of the first LED ... DOUT of the last LED", 7: "QH of IN <- 74HC165 <- SER of OUT"}
    for n, w in CABLE:
        start, end = getattr(a, "p%d" % n), getattr(b, "p%d" % n)
        if n in note:
            d += elm.Line().at(start).to(end).color("#1f5f99").label(note[n], fontsize=9)
        else:
            d += elm.Line().at(start).to(end)
    s = p["sensors"]
    d += elm.Label().at((0, -1.0)).label(
        "At the Pico's end: 1 VBUS, 2 GND, 3 3V3(OUT), 4 74AHCT125 1Y through 330 Ω,",
        halign="left", fontsize=10)
    d += elm.Label().at((0, -1.7)).label(
        "5 %s, 6 %s, 7 %s, 8 GND (profile %s.json)."
        % (gpio(s["load"]), gpio(s["clock"]), gpio(s["data"]), p["name"]),
        halign="left", fontsize=10)
    return _svg(d)


def matrix(p):
    """The diode matrix: a reed switch and a 1N4148 at every row and column."""
    s = p["sensors"]
    rows, cols = s["rows"], s["cols"]
    d = schemdraw.Drawing(show=False, fontsize=10)
    dx, dy = 3.2, 2.6
    for r, rp in enumerate(rows):
        y = -r * dy
        d += elm.Line().at((0, y)).to((len(cols) * dx + 0.5, y)).label(
            "row %d: %s" % (r, gpio(rp)), loc="left", halign="right")
    for c, cp in enumerate(cols):
        x = 1.0 + c * dx
        d += elm.Line().at((x, 1.5)).to((x, -(len(rows) - 1) * dy - 1.6))
        d += elm.Label().at((x, 1.9)).label("col %d: %s" % (c, gpio(cp)), fontsize=10)
        for r in range(len(rows)):
            y = -r * dy
            d += elm.Dot().at((x, y - 1.6))
            d += elm.Line().at((x, y - 1.6)).right(0.4)
            d += elm.SwitchReed().up(0.8).scale(0.6)
            d += elm.Diode().up(0.8).scale(0.6).label("%d" % (r * len(cols) + c), loc="bottom",
                                                       fontsize=9)
            d += elm.Line().toy(y)
            d += elm.Dot()
    bottom = -(len(rows) - 1) * dy - 2.6
    d += elm.Label().at((0, bottom)).label(
        "sensor k at row k // %d, column k %% %d; a 1N4148 in series with every switch, "
        "cathode towards the row;" % (len(cols), len(cols)), halign="left")
    d += elm.Label().at((0, bottom - 0.7)).label(
        "rows driven low one at a time, columns pulled up, read %d µs after driving each row but the first "
        "(profile %s.json)" % (s.get("settle_us", 100), p["name"]), halign="left")
    return _svg(d)


def direct(p):
    """Direct GPIO: one reed switch from each pin to GND."""
    pins = p["sensors"]["pins"]
    d = schemdraw.Drawing(show=False, fontsize=10)
    per_row = 10
    for k, g in enumerate(pins):
        x, y = (k % per_row) * 2.2, -(k // per_row) * 4.2
        d += elm.Line().at((x, y)).down(0.4)
        d += elm.SwitchReed().down(1.4).label("%d" % k, loc="bottom", fontsize=9)
        d += elm.Ground()
        d += elm.Label().at((x, y + 0.35)).label("%s" % gpio(g), fontsize=8)
    d += elm.Label().at((0, -((len(pins) - 1) // per_row) * 4.2 - 3.0)).label(
        "sensor k of the chain: a reed switch from pins[k] to GND, internal pull-up "
        "(profile %s.json)" % p["name"], halign="left")
    return _svg(d)


def drawings():
    """{file name: SVG text} for every drawing in the docs."""
    ref = load("pico.json")
    out = {
        "pico.svg": pico(ref),
        "pico-spi.svg": pico(load("pico-spi.json")),
        "pico-direct.svg": pico(load("pico-direct.json")),
        "pico-matrix.svg": pico(load("pico-matrix.json")),
        "level-shifter.svg": level_shifter(ref),
        "cable.svg": cable(ref),
        "matrix.svg": matrix(load("pico-matrix.json")),
        "direct.svg": direct(load("pico-direct.json")),
    }
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 naming each drawing that differs")
    ap.add_argument("--out", default=OUT, help="folder of the drawings (default: %(default)s)")
    args = ap.parse_args(argv)
    return drawn.refresh({os.path.join(args.out, name): text for name, text in drawings().items()},
                         args.check, "differs from its profile (make docs redraws it)")

if __name__ == "__main__":
    sys.exit(main())
