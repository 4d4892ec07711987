"""The boards' silkscreen: every part's reference where it can be read, and
the board's own words (its name and revision, IN and OUT with the chain's
direction, pin 1 of the connectors, the power input's voltage and polarity).

Runs under KiCad's Python (pcbgen), after the tracks: a text goes to the
first free place near where it belongs, free meaning clear of the other
silkscreen, of the pads' and vias' openings in the solder mask, of holes, of
the board's edge and of the other parts' courtyards. KiCad's DRC (silk
overlap, silk over copper, silk to edge as errors: rules.py) is the judge.
"""

import math

import pcbnew

from attila_tools.hardware import circuit, frame, geometry as g

CLEAR = 0.2  # mm from a text to other silk, to a pad or via opening, to a hole
EDGE = 0.6  # mm from a text to the board's edge
SIZE, THICK = 1.0, 0.15  # the references' text (mm)
SMALL, SMALL_THICK = 0.8, 0.12  # where a reference does not fit at SIZE


def nm(v):
    return pcbnew.FromMM(v)


class Silk:
    """The free room on each side of a board, as texts take it."""

    def __init__(self, board):
        self.board = board
        self.obstacles = {"top": [], "bottom": []}  # (bbox, shape)
        self.yards = {"top": [], "bottom": []}  # (ref, bbox) of each courtyard
        box = board.GetBoardEdgesBoundingBox()
        self.inside = (box.GetLeft() + nm(EDGE), box.GetTop() + nm(EDGE),
                       box.GetRight() - nm(EDGE), box.GetBottom() - nm(EDGE))
        layers = {"top": (pcbnew.F_SilkS, pcbnew.F_Mask, pcbnew.F_CrtYd),
                  "bottom": (pcbnew.B_SilkS, pcbnew.B_Mask, pcbnew.B_CrtYd)}
        for fp in board.GetFootprints():
            for side, (silk, mask, yard) in layers.items():
                for item in fp.GraphicalItems():
                    if item.GetLayer() == silk:
                        self._add(side, item.GetBoundingBox(), _shape(item))
                for pad in fp.Pads():
                    if pad.IsOnLayer(mask) or pad.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH:
                        self._add(side, pad.GetBoundingBox(), pad.GetEffectiveShape(
                            pcbnew.F_Cu if pad.IsOnLayer(pcbnew.F_Cu) else pcbnew.B_Cu))
                    if pad.HasHole():
                        self._add(side, pad.GetBoundingBox(), pad.GetEffectiveHoleShape())
                poly = fp.GetCourtyard(yard)
                if poly.OutlineCount():
                    self.yards[side].append((fp.GetReference(), _box(poly.BBox())))
        for item in board.GetTracks():
            if isinstance(item, pcbnew.PCB_VIA):
                for side in self.obstacles:
                    self._add(side, item.GetBoundingBox(), item.GetEffectiveShape(pcbnew.F_Cu))

    def _add(self, side, bbox, shape):
        self.obstacles[side].append((_box(bbox), shape))

    def free(self, text, side, owner=None):
        """Whether a text lies clear of everything on its side."""
        x0, y0, x1, y1 = _box(text.GetBoundingBox())
        ix0, iy0, ix1, iy1 = self.inside
        if x0 < ix0 or y0 < iy0 or x1 > ix1 or y1 > iy1:
            return False
        for ref, (a0, b0, a1, b1) in self.yards[side]:
            if ref != owner and x0 < a1 and a0 < x1 and y0 < b1 and b0 < y1:
                return False
        shape = text.GetEffectiveTextShape()
        c = nm(CLEAR)
        for (a0, b0, a1, b1), other in self.obstacles[side]:
            if x0 - c < a1 and a0 < x1 + c and y0 - c < b1 and b0 < y1 + c:
                if other.Collide(shape, c):
                    return False
        return True

    def take(self, text, side):
        self._add(side, text.GetBoundingBox(), text.GetEffectiveTextShape())

    def put(self, text, side, near, owner=None, angles=(0, 90), reach=8.0):
        """Move a text to the free place nearest `near` (KiCad's page, mm),
        trying each angle; False when none is within `reach` mm."""
        for r, px, py in _rings(near, reach):
            for angle in angles:
                text.SetTextAngleDegrees(angle)
                text.SetPosition(pcbnew.VECTOR2I(nm(px), nm(py)))
                if self.free(text, side, owner):
                    self.take(text, side)
                    return True
        return False


def _box(b):
    return (b.GetLeft(), b.GetTop(), b.GetRight(), b.GetBottom())


def _shape(item):
    if isinstance(item, pcbnew.PCB_TEXT):
        return item.GetEffectiveTextShape()
    return item.GetEffectiveShape()


def _rings(near, reach, step=0.25):
    """Points around `near`, nearest first: the point itself, then rings every
    `step` mm, each ring's points in a fixed order (the output is the same
    from run to run)."""
    x, y = near
    yield 0.0, x, y
    r = step
    while r <= reach + 1e-9:
        n = max(8, int(2 * math.pi * r / step))
        for i in range(n):
            a = 2 * math.pi * i / n
            yield r, round(x + r * math.sin(a), 3), round(y - r * math.cos(a), 3)
        r += step


def _side(fp):
    return "bottom" if fp.GetLayer() == pcbnew.B_Cu else "top"


def references(silk, board):
    """Each part's reference near its part: where the library puts it, or the
    nearest free place (a smaller text where nothing else fits)."""
    fps = sorted(board.GetFootprints(), key=lambda f: (-_area(f), f.GetReference()))
    for fp in fps:
        field = fp.Reference()
        if not field.IsVisible():
            continue
        side = _side(fp)
        pos = field.GetPosition()
        near = (pcbnew.ToMM(pos.x), pcbnew.ToMM(pos.y))
        ref = fp.GetReference()
        if silk.put(field, side, near, ref, reach=3.0):
            continue
        c = fp.GetPosition()
        centre = (pcbnew.ToMM(c.x), pcbnew.ToMM(c.y))
        if silk.put(field, side, centre, ref, reach=7.0):
            continue
        field.SetTextSize(pcbnew.VECTOR2I(nm(SMALL), nm(SMALL)))
        field.SetTextThickness(nm(SMALL_THICK))
        if not silk.put(field, side, centre, ref, reach=9.0):
            raise SystemExit("silkscreen: no room for %s's reference" % ref)


def _area(fp):
    b = fp.GetBoundingBox(False, False)
    return b.GetWidth() * b.GetHeight()


def text(board, silk, words, side, near, size=SIZE, thick=THICK, angles=(0, 90), reach=12.0,
         owner=None):
    """A board text (its words on its side's silkscreen) at the free place
    nearest `near` (inside no courtyard but its owner's)."""
    t = pcbnew.PCB_TEXT(board)
    t.SetText(words)
    t.SetLayer(pcbnew.B_SilkS if side == "bottom" else pcbnew.F_SilkS)
    t.SetTextSize(pcbnew.VECTOR2I(nm(size), nm(size)))
    t.SetTextThickness(nm(thick))
    if side == "bottom":
        t.SetMirrored(True)
    if not silk.put(t, side, near, owner, angles=angles, reach=reach):
        raise SystemExit("silkscreen: no room for %r near %s" % (words, near))
    board.Add(t)
    return t


def title(design):
    return "ATTILA %s  rev %s  %s" % (design.title(), circuit.REVISION, circuit.DATE)


def pad_at(board, ref, number):
    p = board.FindFootprintByReference(ref).FindPadByNumber(number).GetPosition()
    return (pcbnew.ToMM(p.x), pcbnew.ToMM(p.y))


def module(board, design):
    """A module's words: its name on both sides; under it (the connectors'
    side) IN and OUT with the chain's direction, pin 1 and the 5 V input."""
    silk = Silk(board)
    kind, h = design.kind, design.height
    w = g.squares_outline(kind)[0]
    for side in ("top", "bottom"):
        text(board, silk, title(design), side, frame.to_kicad(h, (w / 2, h / 2 + 1.0)),
             angles=(0,), reach=20.0)
    cons = g.connectors(kind)
    for ref, words in (("J1", "IN  from the controller or the module before"),
                       ("J2", "OUT  to the next module")):
        x, y = cons["IN" if ref == "J1" else "OUT"]
        text(board, silk, words, "bottom", frame.to_kicad(h, (x, y + 7.5)), size=0.8,
             thick=0.12, angles=(0,))
        pin1 = pad_at(board, ref, "1")
        text(board, silk, "1 +5V", "bottom", pin1, size=0.8, thick=0.12, angles=(0,), reach=8.0,
             owner=ref)
    text(board, silk, "5V IN on pin 1, GND on pins 2 and 8", "bottom",
         frame.to_kicad(h, (cons["IN"][0] + 10.0, cons["IN"][1] + 11.0)), size=0.8,
         thick=0.12, angles=(0,))
    references(silk, board)


def controller(board, design):
    """The controller's words: its name, the power input's voltage and
    polarity by the USB-C socket, the chain's OUT, pin 1 of the cable and the Pico."""
    silk = Silk(board)
    x0, y0, x1, y1 = design.outline
    text(board, silk, title(design), "top",
         frame.to_kicad(design.height, ((x0 + x1) / 2, (y0 + y1) * 0.7)), angles=(0,),
         reach=20.0)
    usb = board.FindFootprintByReference("J2").GetPosition()
    near = (pcbnew.ToMM(usb.x), pcbnew.ToMM(usb.y) - 12.0)
    text(board, silk, "5V IN  USB-C", "top", near, angles=(0,))
    text(board, silk, "5 V ONLY, 1 A MIN", "top", near, size=0.8, thick=0.12, angles=(0,))
    j1 = board.FindFootprintByReference("J1").GetPosition()
    text(board, silk, "OUT  to module 1", "top", (pcbnew.ToMM(j1.x), pcbnew.ToMM(j1.y) - 7.0),
         angles=(0,))
    text(board, silk, "1 +5V", "top", pad_at(board, "J1", "1"), size=0.8,
         thick=0.12, angles=(0,), reach=8.0, owner="J1")
    text(board, silk, "1", "top", pad_at(board, "U1", "1"), size=0.8,
         thick=0.12, angles=(0,), reach=6.0, owner="U1")
    references(silk, board)


def write(board, design):
    """The silkscreen of a boards.Board drawn into pcbnew's board."""
    if design.kind:
        module(board, design)
    else:
        controller(board, design)
