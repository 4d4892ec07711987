"""KiCad's 3D models of the parts our boards use, shipped in boards/3dmodels.

    python -m attila_tools.hardware.models3d            # which models the boards want, which are here
    python -m attila_tools.hardware.models3d --fetch    # take the missing ones from Debian's package

KiCad's whole model library (Debian's kicad-packages3d) is a 332 MB download
and 4.7 GB installed; the boards use a few megabytes of it. `--fetch`
downloads the package once with apt-get (the version that matches the
installed KiCad), takes out only the models the boards show, and writes
their licence (CC-BY-SA 4.0 with the KiCad libraries' exception for
designs that use them, from the package's copyright file) beside them.
`make hardware` renders with KICAD9_3DMODEL_DIR pointing here.
"""

import argparse
import fnmatch
import glob
import os
import shutil
import subprocess
import sys
import tempfile

from attila_tools.hardware import pcbfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PCB_DIR = os.path.join(ROOT, "boards", "pcb")
MODELS = os.path.join(ROOT, "boards", "3dmodels")
VAR = "${KICAD9_3DMODEL_DIR}/"
PACKAGE = "kicad-packages3d"
IN_PACKAGE = "./usr/share/kicad/3dmodels/"
COPYRIGHT = "./usr/share/doc/kicad-packages3d/copyright"
GPL3 = "/usr/share/common-licenses/GPL-3"
ABSENT = os.path.join(MODELS, "absent.txt")  # models the boards name that the package lacks


def wanted(folder=PCB_DIR):
    """{model path under the library: [boards]} of the models shown (not hidden)."""
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, "*", "*.kicad_pcb"))):
        board = pcbfile.load(path)
        name = os.path.basename(path)[:-len(".kicad_pcb")]
        for fp in pcbfile.find_all(board.tree, "footprint"):
            for model in pcbfile.find_all(fp, "model"):
                hide = pcbfile.find(model, "hide")
                if hide is not None and str(hide[1]) == "yes":
                    continue
                if not model[1].startswith(VAR):
                    raise pcbfile.PcbError("%s: 3D model %s is not in KiCad's library" % (path, model[1]))
                boards = out.setdefault(model[1][len(VAR):], [])
                if name not in boards:
                    boards.append(name)
    return out


def absent():
    if not os.path.exists(ABSENT):
        return set()
    with open(ABSENT) as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


def missing(folder=PCB_DIR, models=MODELS):
    """Models the boards show that are neither shipped nor known to be absent from KiCad's library."""
    gone = absent()
    return sorted(m for m in wanted(folder) if m not in gone
                  and not os.path.exists(os.path.join(models, m)))


def licences(copyright_text, files):
    """{file: (copyright, licence)} by the Debian copyright file's stanzas (the last
    stanza whose Files pattern matches wins), and the licence texts by name."""
    stanzas, texts = [], {}
    for block in copyright_text.split("\n\n"):
        fields, key = {}, None
        for line in block.splitlines():
            if line.startswith((" ", "\t")) and key:
                fields[key] += "\n" + line[1:]
            elif ":" in line:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        if "Files" in fields:
            stanzas.append((fields["Files"].split(), fields.get("Copyright", ""),
                            fields.get("License", "")))
        elif "License" in fields:
            name, _, text = fields["License"].partition("\n")
            texts[name.strip()] = "\n".join("" if t.strip() == "." else t for t in text.splitlines())
    out = {}
    for f in files:
        for patterns, who, lic in stanzas:
            if any(fnmatch.fnmatchcase(f, p) for p in patterns):
                out[f] = (" ".join(who.split()), lic)
    return out, texts


def write_licence(copyright_text, models=MODELS):
    files = sorted(os.path.relpath(p, models) for p in glob.glob(os.path.join(models, "*", "*"))
                   if not p.endswith((".txt", ".md")))
    found, texts = licences(copyright_text, files)
    lines = ["# Licence of the 3D models in this folder", "",
             "These models are KiCad's (the kicad-packages3d library, as Debian ships it),",
             "unchanged; `make hardware` renders the boards with them. Each file's",
             "copyright and licence as the package's copyright file records them (KiCad",
             "states CC-BY-SA 4.0 with an exception for designs that use the models; the",
             "copyright file keeps GPL-3+ for some files made by kicad StepUp):", ""]
    used = set()
    for f in files:
        who, lic = found.get(f, ("unknown", "unknown"))
        used.add(lic)
        lines.append("- `%s`: %s; %s" % (f, who, lic))
    for lic in sorted(used):
        if lic in texts:
            lines += ["", "## %s" % lic, "", "```text", texts[lic].rstrip(), "```"]
        if lic.startswith("GPL-3") and os.path.exists(GPL3):
            # the copyright file points at Debian's copy: ship the text itself
            shutil.copy(GPL3, os.path.join(models, "GPL-3.txt"))
            lines += ["", "The GNU General Public License version 3: `GPL-3.txt` beside this file."]
    with open(os.path.join(models, "LICENSE.md"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    return found


def package_version():
    """The version of the model package made for the installed KiCad ('' for any)."""
    r = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "kicad"], capture_output=True, text=True)
    upstream = r.stdout.strip().split("-")[0].split("+")[0]
    r = subprocess.run(["apt-cache", "madison", PACKAGE], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        version = line.split("|")[1].strip() if line.count("|") >= 2 else ""
        if upstream and version.startswith(upstream):
            return version
    return ""


def fetch(models=MODELS, folder=PCB_DIR, deb=None, also=()):
    """Download Debian's model package once (or read `deb`, one already
    downloaded) and take out what the boards show (and the boards of the
    folders `also`, say a branch about to be merged)."""
    want = wanted(folder)
    for other in also:
        want.update(wanted(other))
    with tempfile.TemporaryDirectory() as tmp:
        version = package_version()
        if deb is None:
            spec = "%s=%s" % (PACKAGE, version) if version else PACKAGE
            r = subprocess.run(["apt-get", "download", spec], cwd=tmp, capture_output=True, text=True)
            if r.returncode:
                raise SystemExit("models3d: apt-get download %s failed:\n%s" % (spec, r.stderr.strip()))
            deb = glob.glob(os.path.join(tmp, "*.deb"))[0]
        listing = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True, text=True).stdout
        have = {line.split()[-1][len(IN_PACKAGE):] for line in listing.splitlines()
                if line.split() and line.split()[-1].startswith(IN_PACKAGE)}
        take = [m for m in want if m in have]
        names = [IN_PACKAGE + m for m in take] + [COPYRIGHT]
        with open(os.path.join(tmp, "names.txt"), "w") as f:
            f.write("\n".join(names) + "\n")
        tar = subprocess.run("dpkg-deb --fsys-tarfile '%s' | tar -x -C '%s' -T '%s/names.txt'"
                             % (deb, tmp, tmp), shell=True, text=True, capture_output=True)
        if tar.returncode:
            raise SystemExit("models3d: could not unpack %s:\n%s" % (deb, tar.stderr.strip()))
        for old in glob.glob(os.path.join(models, "*.3dshapes", "*")):
            if os.path.relpath(old, models) not in take:  # a part the boards no longer use
                os.remove(old)
        for m in take:
            os.makedirs(os.path.dirname(os.path.join(models, m)), exist_ok=True)
            shutil.copy(os.path.join(tmp, IN_PACKAGE, m), os.path.join(models, m))
        with open(os.path.join(tmp, COPYRIGHT), encoding="utf-8") as f:
            write_licence(f.read(), models)
        with open(os.path.join(models, "absent.txt"), "w") as f:
            f.write("# models the boards name that %s %s does not have\n" % (PACKAGE, version))
            f.writelines(m + "\n" for m in sorted(set(want) - set(take)))
    return take


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fetch", action="store_true")
    ap.add_argument("--deb", help="a %s .deb already downloaded" % PACKAGE)
    ap.add_argument("--also", action="append", default=[],
                    help="another boards folder whose models to keep too")
    args = ap.parse_args(argv)
    if args.fetch:
        for m in fetch(deb=args.deb, also=args.also):
            print("fetched", m)
    gone = absent()
    for m, boards in sorted(wanted().items()):
        state = ("here" if os.path.exists(os.path.join(MODELS, m)) else
                 "not in KiCad's library" if m in gone else "MISSING (run with --fetch)")
        print("%-75s %-26s %s" % (m, state, " ".join(boards)))
    return 1 if missing() else 0


if __name__ == "__main__":
    sys.exit(main())
