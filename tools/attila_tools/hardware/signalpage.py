"""`make hardware-sim`: the signal simulation's pictures and figures for the docs.

    python -m attila_tools.hardware.signalpage

Runs signals.py's cases for CLOCK, LOAD and the LED data without series
resistors, as the boards are built, and with the values `recommend` finds;
draws the edges at the last module (plot.py) into docs/pages/build/signals/
and writes docs/figures/signals.md (edges, verdicts, resistor values, where
every figure comes from) and docs/figures/supply.md (the 5 V left at every
module, supply.py). One line per signal.
"""

import os
import sys

from attila_tools.hardware import boards, plot, signals, spice, supply
from attila_tools.hardware.circuit_controller import FUSE_HOLD_MA
from attila_tools.hardware.edges import verdicts
from attila_tools.hardware.receivers import DRIVERS, RECEIVERS

KINDS = ("CLOCK", "LOAD", "LED")
COLOURS = {"without": "#d62728", "as built": "#ff7f0e", "recommended": "#1f77b4"}
SUPPLY_FIGURES = os.path.join(signals.ROOT, "docs", "figures", "supply.md")


def as_built(kind):
    """The series resistor the boards have now (ohms) for a signal."""
    if kind == "LED":
        module = "module-" + signals.chain_kinds()[-2]
        return signals.series_ohms(boards.BOARDS[module](), "LED_OUT")
    return signals.series_ohms(boards.BOARDS["controller"](), kind)


class Runs:
    """Each (signal, ohms, corner) run once."""

    def __init__(self):
        self.done = {}

    def get(self, kind, ohms, corner):
        key = (kind, ohms, corner)
        if key not in self.done:
            self.done[key] = signals.case(kind, ohms, corner)
        return self.done[key]


def study(runs, kind):
    """{"without": ohms, "as built": ohms, "recommended": ohms or None, "sweep": table}."""
    best, table = signals.recommend(kind, values=signals.E12)
    for ohms in table:
        for corner in signals.CORNERS:
            runs.get(kind, ohms, corner)  # recommend ran them; keep them for the figures
    return {"without": 0.0, "as built": as_built(kind), "recommended": best, "sweep": table}


def last(result):
    return result[sorted(result)[-1]]


def picture(runs, kind, values, path):
    rx = RECEIVERS["WS2812B" if kind == "LED" else "74HC165"]
    levels = [("VIH", rx["vih"]), ("VIL", rx["vil"])]
    if not rx["clamps"]:
        levels += [("abs. max", rx["vmax"]), ("abs. min", rx["vmin"])]
    lo, hi = (-4.5, 9.5) if kind == "LED" else (-1.0, 4.5)
    panels = []
    for title, t0 in (("rising edge", signals.EDGE_AT), ("falling edge", signals.EDGE_AT + signals.HALF)):
        curves = []
        for label in ("without", "as built", "recommended"):
            ohms = values[label]
            if ohms is None or (label == "as built" and ohms in (values["without"],)):
                continue
            w = last(runs.get(kind, ohms, "fast"))["wave"]
            curves.append(("%s (%g Ohm)" % (label, ohms), COLOURS[label], w))
        panels.append({"title": "%s at module %d: %s" % (kind, len(signals.chain_kinds()), title),
                       "t0": t0, "t1": t0 + 60e-9, "curves": curves, "levels": levels,
                       "v": (lo, hi)})
    legend = [("%s %g Ohm" % (label, values[label]), COLOURS[label])
              for label in ("without", "as built", "recommended")
              if values[label] is not None and not (label == "as built" and values[label] == 0)]
    with open(path, "w") as f:
        f.write(plot.svg(panels, legend))


def _ns(x):
    return "-" if x is None else "%.1f" % (x * 1e9)


def edge_rows(runs, kind, values):
    rows = []
    for label in ("without", "as built", "recommended"):
        ohms = values[label]
        if ohms is None:
            continue
        fast, slow = last(runs.get(kind, ohms, "fast")), last(runs.get(kind, ohms, "slow"))
        bad = verdicts(kind, runs.get(kind, ohms, "fast")) + verdicts(kind, runs.get(kind, ohms, "slow"))
        rows.append("| %s | %s %g Ohm | %s / %s | %.2f V | %.2f V | %s | %s |" % (
            kind, label, ohms, _ns(fast["rise"]["rise"]), _ns(slow["rise"]["rise"]),
            max(fast["rise"]["overshoot"], fast["fall"]["overshoot"]),
            max(fast["rise"]["ringing"], fast["fall"]["ringing"]),
            _ns(max(slow["rise"]["valid"] or 0, slow["fall"]["valid"] or 0)),
            summary(bad)))
    return rows


SHORT = (("false edge", "a false edge"), ("undefined band", "rings back into the band"),
         ("not valid", "late"), ("clamp current", "clamp current over its maximum"),
         ("absolute maximum", "past its absolute maximum"), ("clamp diodes", "clamps conduct"))


def summary(bad):
    """The faults of a case in a few words: 'module 3: rings back into the band'."""
    if not bad:
        return "clean"
    by = {}
    for label, what in bad:
        short = next((s for key, s in SHORT if key in what), what)
        by.setdefault(label or "chain", [])
        if short not in by[label or "chain"]:
            by[label or "chain"].append(short)
    return "; ".join("%s: %s" % (label, ", ".join(w)) for label, w in sorted(by.items()))


def figures(runs, studies, path):
    n = len(signals.chain_kinds())
    lines = ["| signal | series resistor | rise time at module %d, fast / slow driver (ns) "
             "| overshoot | ringing back | valid after (ns) | verdict |" % n,
             "|---|---|--:|--:|--:|--:|---|"]
    for kind in KINDS:
        lines += edge_rows(runs, kind, studies[kind])
    lines += ["", "Recommended series resistors (the smallest of 0, %s Ohm whose edges are clean "
              "at every module with both drivers, the 74HC165's clamp diodes idle):"
              % ", ".join("%g" % v for v in signals.E12[1:]), ""]
    lines.append("- CLOCK and LOAD, at the controller: **%s Ohm** each (now %g and %g Ohm)" % (
        studies["CLOCK"]["recommended"] if studies["CLOCK"]["recommended"] == studies["LOAD"]
        ["recommended"] else "%s / %s" % (studies["CLOCK"]["recommended"],
                                          studies["LOAD"]["recommended"]),
        studies["CLOCK"]["as built"], studies["LOAD"]["as built"]))
    lines.append("- LED data, where each module's last LED drives its OUT: **%s Ohm** (now %g Ohm)"
                 % (studies["LED"]["recommended"], studies["LED"]["as built"]))
    lines += ["", "Where the model's figures come from:", ""]
    for name, rx in RECEIVERS.items():
        lines.append("- %s inputs: %s." % (name, rx["source"]))
    for name, d in DRIVERS.items():
        lines.append("- %s output: %s." % (name, d["source"]))
    r, l, c = spice.ribbon_line(5)
    z0, delay = spice.line_z0((r, l, c))
    lines.append("- The ribbon (CLOCK's wire, the others its return): %.0f Ohm, %.2f ns/m, "
                 "%.0f pF/m, %.2f Ohm/m; %s; %s; %s." % (
                     z0, delay * 1e9, c * 1e12, r, spice.FACTS["line_formula"][1],
                     spice.FACTS["eps_cable"][1], spice.FACTS["strand"][1]))
    zt = spice.track_line(0.25e-3, 0.3e-3)
    lines.append("- Board tracks: %.0f Ohm (0.25 mm beside the ground pour); %s; FR-4 %s."
                 % (zt[0], spice.FACTS["cpw"][1], spice.FACTS["eps_fr4"][1]))
    lines += ["", "Written by `make hardware-sim` (ngspice, tools/attila_tools/hardware/signals.py)."]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def supply_figures(path):
    lines = ["| LEDs | current | 5 V at the IN of module 1 .. %d | lowest LED, last module |"
             % len(signals.chain_kinds()), "|---|--:|---|--:|"]
    for current, label in (("budget", "full white, at the profile's budget"),
                           ("white", "full white, undimmed")):
        amps, prof = supply.totals(current)
        rows = supply.volts(current)
        lines.append("| %s | %.2f A | %s | **%.2f V** |" % (
            label if current == "white" else "%s (%d mA, brightness %d)"
            % (label, prof.budget_ma, prof.brightness),
            amps, " / ".join("%.2f" % r[2] for r in rows), rows[-1][3]))
    hold = FUSE_HOLD_MA
    white, _prof = supply.totals("white")
    if white * 1000 > hold:
        lines += ["", "Undimmed full white (%.2f A) is past the input fuse's %d mA hold "
                  "current: held long, the fuse trips and the LEDs go dark until it cools."
                  % (white, hold)]
    lines += ["", "From a %.1f V supply at the controller's input, through its fuse and "
              "reverse-polarity MOSFET at their datasheet maximum (%.2f Ohm together)."
              % (supply.SUPPLY_V, supply.input_ohms())]
    lines += ["", "Where the figures come from: %s; "
              "%s; %s; %s. The ground returns through the cable's two ground wires (counted) and "
              "the boards' pours (not counted)." % (supply.FACTS["currents"],
                                                   supply.FACTS["copper"], supply.FACTS["wire"],
                                                   supply.FACTS["contact"]),
              "", "Written by `make hardware-sim` (tools/attila_tools/hardware/supply.py)."]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    why = spice.ngspice_missing()
    if why:
        print("make hardware-sim: " + why, file=sys.stderr)
        return 2
    runs = Runs()
    studies = {}
    os.makedirs(signals.PICTURES, exist_ok=True)
    for kind in KINDS:
        studies[kind] = study(runs, kind)
        values = studies[kind]
        runs.get(kind, values["as built"], "fast")
        runs.get(kind, values["as built"], "slow")
        picture(runs, kind, values, os.path.join(signals.PICTURES, "%s.svg" % kind.lower()))
        print("%-6s recommended %s Ohm (now %g Ohm), %d runs" % (
            kind, values["recommended"], values["as built"], len(runs.done)))
    figures(runs, studies, signals.FIGURES)
    supply_figures(SUPPLY_FIGURES)
    print("supply %s" % os.path.relpath(SUPPLY_FIGURES, signals.ROOT))
    return 0 if all(studies[k]["recommended"] is not None for k in KINDS) else 1


if __name__ == "__main__":
    sys.exit(main())
