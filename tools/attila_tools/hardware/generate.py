"""Write boards' KiCad projects: the committed ones under boards/pcb/, or
others (attila hardware: another pitch, another module size) anywhere.

    python -m attila_tools.hardware.generate [--check] [BOARD ...]

Each board's .kicad_pro (the fab's rules, rules.py), its schematic and the
netlist KiCad exports from it, and its .kicad_pcb, drawn by KiCad's own
`pcbnew` (which imports only in the system's Python, hence the subprocess).
--check regenerates into a scratch folder and exits 1 naming every
committed file that differs.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

from attila_tools.hardware import boards, geometry, rules, schematic

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PCB_DIR = os.path.join(ROOT, "boards", "pcb")
KICAD_PYTHON = os.environ.get("KICAD_PYTHON", "/usr/bin/python3")


def kicad_missing():
    """Why the boards cannot be made here, or '' when KiCad 9 is installed."""
    if shutil.which("kicad-cli") is None:
        return "kicad-cli is not installed (KiCad 9: see .ci/run or docs/pages/build/order.md)"
    r = subprocess.run([KICAD_PYTHON, "-c", "import pcbnew"], capture_output=True)
    if r.returncode:
        return "KiCad's pcbnew does not import in %s" % KICAD_PYTHON
    return ""


def _without_fill(text):
    """A board's text less the pour's filled polygons: KiCad's zone filler
    places their points a few microns differently from run to run."""
    out, i = [], 0
    while True:
        j = text.find("(filled_polygon", i)
        if j < 0:
            return "".join(out) + text[i:]
        out.append(text[i:j])
        depth, k = 0, j
        while True:
            if text[k] == "(":
                depth += 1
            elif text[k] == ")":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        i = k + 1


def same(a, b):
    """Whether two generated files say the same (boards: apart from the fill's microns)."""
    with open(a, encoding="utf-8") as f:
        ta = f.read()
    with open(b, encoding="utf-8") as f:
        tb = f.read()
    if a.endswith(".kicad_pcb"):
        return (_without_fill(ta) == _without_fill(tb)
                and ta.count("(filled_polygon") == tb.count("(filled_polygon"))
    return ta == tb


def files(name):
    return ([name + ext for ext in (".kicad_pro", ".kicad_pcb", ".net")] + schematic.files(name)
            + ["fp-lib-table", "sym-lib-table"])


def write(name, folder):
    """All files of one board into folder, at geometry.PITCH."""
    os.makedirs(folder, exist_ok=True)
    design = boards.Board(name)
    pro = os.path.join(folder, name + ".kicad_pro")
    with open(pro, "w") as f:  # the netlist export reads its net classes
        f.write(rules.project(name))
    for fn, text in (("fp-lib-table", rules.footprint_table(design.parts)),
                     ("sym-lib-table", rules.symbol_table(design.parts))):
        with open(os.path.join(folder, fn), "w") as f:
            f.write(text)
    schematic.write(design, folder)
    schematic.netlist(name, folder)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tools")]))
    r = subprocess.run([KICAD_PYTHON, "-m", "attila_tools.hardware.pcbgen", name,
                        os.path.join(folder, name + ".kicad_pcb"),
                        os.path.join(folder, name + ".net"), "%g" % geometry.PITCH],
                       env=env, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit("%s: pcbgen failed:\n%s" % (name, r.stderr.strip()))
    # pcbnew saves a project file of its own: ours (the fab's rules) goes last.
    with open(pro, "w") as f:
        f.write(rules.project(name))
    for junk in (name + ".kicad_prl", "fp-info-cache"):
        if os.path.exists(os.path.join(folder, junk)):
            os.remove(os.path.join(folder, junk))


def stale(name, folder):
    """The files of a board in folder that are not what the generator writes."""
    with tempfile.TemporaryDirectory() as tmp:
        write(name, tmp)
        out = []
        for fn in files(name):
            have = os.path.join(folder, fn)
            if not os.path.exists(have) or not same(have, os.path.join(tmp, fn)):
                out.append(have)
        return out


def update(name, folder):
    """Regenerate a board into folder, replacing only the files that say something
    new (a board whose only change is the fill's microns is kept as it is)."""
    with tempfile.TemporaryDirectory() as tmp:
        write(name, tmp)
        os.makedirs(folder, exist_ok=True)
        for fn in files(name):
            have = os.path.join(folder, fn)
            if not os.path.exists(have) or not same(have, os.path.join(tmp, fn)):
                shutil.copy(os.path.join(tmp, fn), have)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("boards", nargs="*")
    args = ap.parse_args(argv)
    why = kicad_missing()
    if why:
        print("make hardware: " + why, file=sys.stderr)
        return 2
    found = []
    for name in args.boards or boards.GAME:
        folder = os.path.join(PCB_DIR, name)
        if args.check:
            found += stale(name, folder)
        else:
            update(name, folder)
    for s in found:
        print("%s: not what the generator writes (run make hardware)" % os.path.relpath(s, ROOT))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
