"""A board's schematic as pictures: its PDF and SVG for build/hardware, and
the legible views of it that the docs show (schematic.views: a module's
square and register, the controller's blocks), cropped from KiCad's own SVG.
"""

import glob
import os
import re
import subprocess
import tempfile

from attila_tools.hardware import schematic


def run(*args):
    r = subprocess.run(list(args), capture_output=True, text=True)
    if r.returncode:
        raise SystemExit("make hardware: %s failed:\n%s" % (" ".join(args[:4]), r.stderr.strip()))


def crop(svg, box, zoom=2.5):
    """The part `box` (x0, y0, x1, y1 in mm) of a schematic's SVG, drawn `zoom`
    times its paper size so that a page fits it to its width with legible labels."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def outside(xs, ys):
        return not xs or max(xs) < x0 - 2 or min(xs) > x1 + 2 or max(ys) < y0 - 2 or min(ys) > y1 + 2

    def path(m):  # drop what lies wholly outside the view (the file shrinks tenfold)
        nums = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", m.group(1))]
        return "" if outside(nums[0::2], nums[1::2]) else m.group(0)

    def text(m):
        return "" if outside([float(m.group(1))], [float(m.group(2))]) else m.group(0)

    svg = re.sub(r'<path d="([^"]*)"\s*/>\n?', path, svg)
    svg = re.sub(r'<text x="(-?[\d.]+)" y="(-?[\d.]+)"[^>]*>.*?</text>\n?', text, svg, flags=re.S)
    return re.sub(r'width="[^"]*" height="[^"]*" viewBox="[^"]*"',
                  'width="%.1fmm" height="%.1fmm" viewBox="%.2f %.2f %.2f %.2f"'
                  % (w * zoom, h * zoom, x0, y0, w, h), svg, count=1)


def export(name, sch, out):
    """name-schematic.pdf (every sheet), name-schematic.svg (the root sheet) and
    name-VIEW.svg for each of its views, into out; [the views' files]."""
    run("kicad-cli", "sch", "export", "pdf", "-o", os.path.join(out, name + "-schematic.pdf"), sch)
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        run("kicad-cli", "sch", "export", "svg", "-o", tmp, sch)
        pages = {}
        for fn in glob.glob(os.path.join(tmp, "*.svg")):
            with open(fn, encoding="utf-8") as f:
                # its title carries the export's date: the docs' copy must not change
                pages[os.path.basename(fn)] = re.sub(r"<title>[^<]*</title>",
                                                     "<title>%s schematic</title>" % name, f.read())
        with open(os.path.join(out, name + "-schematic.svg"), "w", encoding="utf-8") as f:
            f.write(pages[name + ".svg"])
        for view, page, box in schematic.views(name):
            path = os.path.join(out, "%s-%s.svg" % (name, view))
            with open(path, "w", encoding="utf-8") as f:
                f.write(crop(pages[page], box))
            written.append(os.path.basename(path))
    return written
