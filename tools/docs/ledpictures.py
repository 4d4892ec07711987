#!/usr/bin/env python3
"""Pictures of the board as it looks in play, drawn from real controller frames.

    python tools/docs/ledpictures.py          write docs/pages/play/leds/*.svg (and the
                                              README's board picture)
    python tools/docs/ledpictures.py --check  exit 1 when a committed picture differs

Each picture is a scene: a script of hands (the simulator's script lines)
carried out on the simulator's rig, the firmware's own Board and Controller
under virtual switches and a virtual LED strip; then the clock runs on and
the strip is sampled every SAMPLE_MS. A square's glow is the colour its LED
was given (the frame's overall level undone, as the simulator's window
does); a square whose LED goes dark and lit again between the samples, or changes
its hue, blinks: drawn with a dashed ring, and with both colours when it
alternates between two. Nothing
here picks a colour by hand: change the LED language in the firmware and
`make docs` redraws these pictures.
"""

import argparse
import os
import sys

try:
    from . import drawn  # as tools.docs.ledpictures (the tests)
except ImportError:
    import drawn  # run as a script: its own folder is on the path

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for _p in ("firmware", "sim"):
    sys.path.insert(0, os.path.join(ROOT, _p))

OUT = os.path.join(ROOT, "docs", "pages", "play", "leds")
BOARD = os.path.join(ROOT, "boards", "4x5.json")
SAMPLES = 12
SAMPLE_MS = 100
CELL = 76
FRAME = 26  # wooden rim around the squares

SETUP = ["@e3", "@d4", "@a4", "@b4", "@b2", "@c1"]
GAME = ["@a1", "@b1", "@c1", "@d1", "@e1", "@a2", "a1-c2,a1", "b1-d2,b1", "c1-e2,c1",
        "d1-b2,d1", "e1-d3,e1", "a2-c3,a2", "c2-a3,c2", "b2-a4,b2", "e2-d4,e2", "d2-b3,d2",
        "a3-c4,a3", "c3-e4,c3", "d3-b4,d3"]

# The self-test with two bad sensors: c2 never reads the magnet (dead), b3
# always reads one (stuck); every other square gets a magnet put on and off.
SELFTEST = (["sense b3", "selftest", "wait 2000", "menu", "wait 300"]
            + [line for sq in ("a1", "b1", "c1", "d1", "e1", "a2", "b2", "d2", "e2", "a3",
                               "c3", "d3", "e3", "a4", "b4", "c4", "d4", "e4")
               for line in ("sense b3,%s" % sq, "sense b3")]
            + ["menu", "wait 300"])

# name: (script lines, what the picture shows)
SCENES = {
    "setup": (["wait 100"], "Setup: the Romans place; every square they may use is blue."),
    "move": (SETUP, "The Romans to move: their knights that can move are lit."),
    "lifted": (SETUP + ["a4-c3,a3", "d4-c2,c4", "lift c3"],
               "A Roman knight lifted from c3: the squares it can jump to light up."),
    "scorch": (SETUP + ["a4-c3"], "After the move: every free square lights white; "
               "put a tile on one."),
    "correction": (SETUP + ["lift a4", "put a2"],
                   "a4 to a2 is not a knight's jump: a2 blinks red (take it off), "
                   "a4 blinks blue (put it back)."),
    "hint": (SETUP + ["menu", "wait 4000"], "MENU during play: the hint blinks slowly, "
             "the knight to lift."),
    "selftest": (SELFTEST, "The self-test's report: c2 blinks red slowly (dead sensor), "
                 "b3 fast (stuck sensor); every other square is green."),
    "gameover": (GAME + ["wait 500"], "Game over: the whole board breathes in the winner's "
                 "colour."),
}


def _rig(layout_path=BOARD):
    from attila_sim.rig import Rig

    return Rig.from_file(layout_path)


def run_scene(lines, layout_path=BOARD):
    """(layout, modules, pieces {square: kind}, [frames of RGB per square]) after the lines."""
    from attila_sim import actions

    rig = _rig(layout_path)
    for _, _, steps in actions.parse_lines(rig.layout, lines, "scene"):
        rig.do(steps)
    frames = []
    for _ in range(SAMPLES):
        frames.append([tuple(c) for c in rig.colours()])
        rig.advance(SAMPLE_MS)
    pieces = {}
    for sq in range(rig.layout.size):
        p = rig.table.on(sq)
        if p is not None:
            pieces[sq] = p.kind
    return rig.layout, rig.modules, pieces, frames


def _level(frames):
    """The frames' overall gain: the brightest channel of any sample."""
    top = max((max(c) for f in frames for c in f), default=0)
    return 255.0 / top if top else 1.0


def looks(frames):
    """Per square: (colours it shows, brightest first; blinks?)."""
    gain = _level(frames)
    out = []
    for sq in range(len(frames[0])):
        seen = [f[sq] for f in frames]
        lit = {}
        for c in seen:
            if any(c):
                # the hue at its brightest sample: breathing and fades are one colour
                key = tuple(round(v / max(c) * 8) for v in c)
                if key not in lit or sum(c) > sum(lit[key]):
                    lit[key] = c
        # Blinking: dark in some samples and lit in others, or two hues in turn
        # (a breathing or fading square keeps its hue and never goes dark).
        blinks = len(lit) > 1 or (bool(lit) and not all(any(c) for c in seen))
        shades = sorted(lit.values(), key=lambda c: -sum(c))[:2]
        shades = [tuple(min(255, int(v * gain)) for v in c) for c in shades]
        out.append((shades, blinks))
    return out


def _hex(c):
    return "#%02x%02x%02x" % c


def _dim(c, k):
    return tuple(int(v * k) for v in c)


def _grooves(layout, modules):
    """Line segments (in cells) between squares of different modules, and the board edge."""
    owner = {}
    for m in modules:
        for f, r in m.places:
            owner[(f, r)] = m.number
    segs = []
    for (f, r), n in owner.items():
        for df, dr, seg in ((1, 0, (f + 1, r, f + 1, r + 1)), (0, 1, (f, r + 1, f + 1, r + 1))):
            other = owner.get((f + df, r + dr))
            if other is not None and other != n:
                segs.append(seg)
    return segs


SHIELD = "M -15 -17 L 15 -17 L 15 0 C 15 10 6 16 0 20 C -6 16 -15 10 -15 0 Z"


def svg(layout, modules, pieces, frames, title=""):
    """The board as an SVG: wooden rim, frosted squares glowing, pieces on top."""
    w, h = layout.width, layout.height
    width, height = w * CELL + 2 * FRAME, h * CELL + 2 * FRAME
    look = looks(frames)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d"'
           ' font-family="sans-serif">' % (width, height, width, height)]
    if title:
        out.append("<title>%s</title>" % title.replace("&", "&amp;").replace("<", "&lt;"))
    glows = sorted({c for shades, _ in look for c in shades})
    out.append("<defs>")
    out.append('<linearGradient id="wood" x1="0" y1="0" x2="1" y2="1">'
               '<stop offset="0" stop-color="#7a5230"/><stop offset="0.5" stop-color="#5e3b1f"/>'
               '<stop offset="1" stop-color="#4a2e17"/></linearGradient>')
    out.append('<radialGradient id="off" cx="0.5" cy="0.45" r="0.7">'
               '<stop offset="0" stop-color="#3a3a3c"/><stop offset="1" stop-color="#1c1c1e"/>'
               '</radialGradient>')
    for c in glows:
        out.append('<radialGradient id="g%s" cx="0.5" cy="0.5" r="0.75">'
                   '<stop offset="0" stop-color="#ffffff" stop-opacity="0.85"/>'
                   '<stop offset="0.18" stop-color="%s"/>'
                   '<stop offset="1" stop-color="%s"/></radialGradient>'
                   % (_hex(c)[1:], _hex(c), _hex(_dim(c, 0.45))))
    out.append("</defs>")
    out.append('<rect x="2" y="4" width="%d" height="%d" rx="14" fill="#00000055"/>'
               % (width - 4, height - 4))
    out.append('<rect x="0" y="0" width="%d" height="%d" rx="14" fill="url(#wood)"/>'
               % (width - 4, height - 6))
    for sq in range(layout.size):
        f, r = layout.files[sq], layout.ranks[sq]
        x, y = FRAME + f * CELL, FRAME + (h - 1 - r) * CELL
        shades, blinks = look[sq]
        out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="#111"/>'
                   % (x + 2, y + 2, CELL - 4, CELL - 4))
        if not shades:
            out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="5" fill="url(#off)"/>'
                       % (x + 4, y + 4, CELL - 8, CELL - 8))
        elif len(shades) == 1 or not blinks:
            out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="5" fill="url(#g%s)"/>'
                       % (x + 4, y + 4, CELL - 8, CELL - 8, _hex(shades[0])[1:]))
        else:  # alternates between two colours: one in each half
            a, b = shades
            out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="5" fill="url(#g%s)"/>'
                       % (x + 4, y + 4, CELL - 8, CELL - 8, _hex(a)[1:]))
            out.append('<path d="M %d %d L %d %d L %d %d Z" fill="url(#g%s)"/>'
                       % (x + CELL - 4, y + 4, x + CELL - 4, y + CELL - 4, x + 4, y + CELL - 4,
                          _hex(b)[1:]))
        if blinks and shades:
            out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="7" fill="none" '
                       'stroke="#ffffff" stroke-width="2.5" stroke-dasharray="6 4"/>'
                       % (x + 1, y + 1, CELL - 2, CELL - 2))
        bright = shades and sum(shades[0]) > 300
        out.append('<text x="%d" y="%d" font-size="11" fill="%s">%s</text>'
                   % (x + 7, y + CELL - 8, "#222" if bright else "#bbb", layout.names[sq]))
        kind = pieces.get(sq)
        cx, cy = x + CELL // 2, y + CELL // 2
        if kind == "R":
            out.append('<path transform="translate(%d %d)" d="%s" fill="#1d4fa8" '
                       'stroke="#e8e8f0" stroke-width="2.5"/>' % (cx, cy, SHIELD))
            out.append('<path transform="translate(%d %d)" d="M 0 -12 L 0 13 M -9 -3 L 9 -3" '
                       'stroke="#f2d16b" stroke-width="3"/>' % (cx, cy))
        elif kind == "H":
            out.append('<circle cx="%d" cy="%d" r="18" fill="#c06a00" stroke="#3b2410" '
                       'stroke-width="3"/>' % (cx, cy))
            out.append('<circle cx="%d" cy="%d" r="6" fill="#e0b060" stroke="#3b2410" '
                       'stroke-width="2"/>' % (cx, cy))
        elif kind == "o":  # a magnet of a sensor log: some piece, nobody knows which
            out.append('<circle cx="%d" cy="%d" r="12" fill="#9a9aa0" stroke="#444" '
                       'stroke-width="2"/>' % (cx, cy))
        elif kind == "x":
            out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="4" fill="#2a211c" '
                       'stroke="#5a4638" stroke-width="2"/>' % (cx - 22, cy - 22, 44, 44))
            out.append('<path d="M %d %d l 10 8 l -4 10 l 12 6 M %d %d l -8 12 l 6 8" '
                       'stroke="#8a4a22" stroke-width="2" fill="none"/>'
                       % (cx - 14, cy - 14, cx + 12, cy - 16))
    for f0, r0, f1, r1 in _grooves(layout, modules):
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#c8a878" stroke-width="2"/>'
                   % (FRAME + f0 * CELL, FRAME + (h - r0) * CELL, FRAME + f1 * CELL,
                      FRAME + (h - r1) * CELL))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def pictures():
    """{file name: SVG text} for every scene."""
    out = {}
    for name, (lines, caption) in SCENES.items():
        layout, modules, pieces, frames = run_scene(lines)
        out[name + ".svg"] = svg(layout, modules, pieces, frames, caption)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 naming each picture that differs")
    ap.add_argument("--out", default=OUT, help="folder of the pictures (default: %(default)s)")
    args = ap.parse_args(argv)
    return drawn.refresh({os.path.join(args.out, name): text for name, text in pictures().items()},
                         args.check, "differs from the controller's frames (make docs redraws it)")

if __name__ == "__main__":
    sys.exit(main())
