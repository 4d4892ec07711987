"""Every check a generated board must pass, in one call: KiCad's DRC at full
strength (every rule the project sets, zero unconnected items, the board
against its schematic), KiCad's ERC, the copper against the firmware's wiring
(copper.py, copper_ctl.py) and the supply's tracks against their current
(current.py).

    found = board_checks.run("build/x/module-2x4", "module-2x4")
    found.count()          # {"DRC": 0, "ERC": 0, "copper": 0, "current": 0}
    found.lines()          # one line per problem, each naming its check
"""

import json
import os
import subprocess
import tempfile

from attila_tools.hardware import circuit, copper, copper_ctl, current, pcbfile


class Found:
    def __init__(self):
        self.problems = {"DRC": [], "ERC": [], "copper": [], "current": []}

    def count(self):
        return {k: len(v) for k, v in self.problems.items()}

    def lines(self):
        return ["%s: %s" % (k, p) for k, v in self.problems.items() for p in v]

    def clean(self):
        return not any(self.problems.values())


def kicad(*args):
    """A kicad-cli report (JSON) of its checks."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report.json")
        r = subprocess.run(["kicad-cli"] + list(args[:-1]) + ["--format", "json", "-o", out,
                                                                args[-1]],
                           capture_output=True, text=True)
        if not os.path.exists(out):
            raise SystemExit("kicad-cli %s failed: %s" % (args[0], r.stderr.strip()))
        with open(out, encoding="utf-8") as f:
            return json.load(f)


def drc(pcb):
    """DRC's violations, unconnected items and schematic-parity issues, one line each."""
    report = kicad("pcb", "drc", "--schematic-parity", "--severity-all", pcb)
    out = []
    for key in ("violations", "unconnected_items", "schematic_parity"):
        for v in report[key]:
            where = ", ".join(i["description"] for i in v["items"][:2])
            out.append("%s: %s (%s)" % (v["type"], v["description"], where))
    return out


def erc(sch):
    report = kicad("sch", "erc", "--severity-all", sch)
    return ["%s: %s" % (v["type"], v["description"]) for s in report["sheets"]
            for v in s["violations"]]


def run(folder, name, with_kicad=True):
    """Every check of the board `name` written into folder (at geometry.PITCH)."""
    found = Found()
    pcb = os.path.join(folder, name + ".kicad_pcb")
    if with_kicad:
        found.problems["DRC"] = drc(pcb)
        found.problems["ERC"] = erc(os.path.join(folder, name + ".kicad_sch"))
    board = pcbfile.load(pcb)
    kind = circuit.board_kind(name)
    found.problems["copper"] = (copper.problems(board, kind) if kind
                                else copper_ctl.controller_problems(board))
    found.problems["current"] = current.problems(board)
    return found
