"""A picture of a layout (SVG, or PNG): its squares, its modules and the chain to wire.

    text = svg(layout, modules)                 # the default chain
    text = svg(layout, modules, wiring=w)       # LED chain of a profile (local orders)
    save(path, layout, modules, wiring=None)    # .svg, or .png (drawn with pygame)

Each module is tinted and outlined and labelled "M<n> <kind>" (its place in
the cable chain) along the top of its first square; each square shows its
name in its bottom-left corner and, in a badge at its centre, its place in
the LED/sensor chain. Arrows run from badge to badge in chain order from the
first LED ("in", where the data wire from the board arrives); they stop at
the badges, and the names and labels sit on a patch of their square's tint,
so no line runs through a number or a name. The SVG is plain SVG 1.1 (no
script, no external font). Both formats are drawn from the same list of
shapes; the PNG at PNG_SCALE times the SVG's size.
"""

import math
from xml.sax.saxutils import escape

CELL = 64
MARGIN = 44
TITLE = 30
BADGE = 11  # radius of the chain number's badge at a square's centre
PNG_SCALE = 3  # a PNG is drawn this many times larger than the SVG's size
TINTS = ("#f6d7a7", "#bfdcf5", "#c9ecc0", "#efc3d8", "#e2d2f4", "#f3efb6", "#c7ece9", "#f1cdb8")
INKS = ("#a05a00", "#1f5f99", "#2e7d32", "#a0285f", "#6a3fa0", "#8a7a00", "#1b7f78", "#a0461b")
GREY = "#999999"
DARK = "#333333"
WHITE = "#ffffff"


def _chain(layout, modules, wiring):
    """Squares in LED chain order."""
    if wiring is not None:
        return [sq for sq in wiring.led_square if sq != 255]
    from attila.game.modules import chain

    return list(chain(layout, modules))


def text_box(x, y, size, anchor, text):
    """(left, top, right, bottom) a text is drawn within (its baseline at y),
    sized generously for a sans-serif font: what must stay clear of lines."""
    width = int(len(text) * size * 0.62) + 2
    left = x - width if anchor == "end" else x - width // 2 if anchor == "middle" else x
    return (left - 2, y - size, left + width + 2, y + size // 4 + 1)


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(seg, box):
    """True when the segment (x1, y1, x2, y2) passes through the box (l, t, r, b)."""
    x1, y1, x2, y2 = seg
    left, top, right, bottom = box
    # Liang-Barsky: clip the segment's parameter range to the box.
    lo, hi = 0.0, 1.0
    for p, q in ((x1 - x2, x1 - left), (x2 - x1, right - x1),
                 (y1 - y2, y1 - top), (y2 - y1, bottom - y1)):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                lo = max(lo, t)
            else:
                hi = min(hi, t)
            if lo > hi:
                return False
    return True


def _segments(pts):
    return [pts[k] + pts[k + 1] for k in range(len(pts) - 1)]


def _clear_of(pts, centres, r):
    """True when the polyline keeps farther than r from every centre."""
    for x1, y1, x2, y2 in _segments(pts):
        dx, dy = x2 - x1, y2 - y1
        for cx, cy in centres:
            t = max(0.0, min(1.0, ((cx - x1) * dx + (cy - y1) * dy) / float(dx * dx + dy * dy)))
            if (x1 + t * dx - cx) ** 2 + (y1 + t * dy - cy) ** 2 < r * r:
                return False
    return True


def _bezier(ctrl, a, b, gap):
    """A cubic curve through the control points, sampled, minus its ends within `gap`."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = ctrl
    pts = []
    for k in range(49):
        t = k / 48.0
        u = 1 - t
        x = u * u * u * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x3
        y = u * u * u * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y3
        p = (round(x), round(y))
        if math.hypot(x - a[0], y - a[1]) >= gap and math.hypot(x - b[0], y - b[1]) >= gap \
                and (not pts or pts[-1] != p):
            pts.append(p)
    return pts


def _jump(a, b, points, gap):
    """A polyline from badge a to badge b that passes no other badge: straight
    if it can, else the shortest of a few curves that leave and arrive square
    to the grid (between the rows or columns, where no badge is)."""
    others = [p for p in points if p != a and p != b]
    steps = (0.5 * CELL, 1.0 * CELL)
    ways = [(0, 0)] + [(dx * m, dy * m) for m in steps
                       for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0))]
    best = None
    for va in ways:
        for vb in ways:
            if (va == (0, 0)) != (vb == (0, 0)):
                continue
            ctrl = (a, (a[0] + va[0], a[1] + va[1]), (b[0] + vb[0], b[1] + vb[1]), b)
            pts = _bezier(ctrl, a, b, gap)
            if len(pts) < 2 or not _clear_of(pts, others, BADGE + 2):
                continue
            length = sum(math.hypot(x2 - x1, y2 - y1) for x1, y1, x2, y2 in _segments(pts))
            if best is None or length < best[0]:
                best = (length, pts)
        if va == (0, 0) and best is not None:
            break  # the straight line is clear
    return best[1] if best else _bezier((a, a, b, b), a, b, gap)


def shapes(layout, modules, wiring=None, title=None):
    """(width, height, [shape], chain points, title) of the picture.

    Shapes: ("rect", cls, x, y, w, h, fill, stroke, data), ("line", cls, x1, y1,
    x2, y2, colour, width, arrow), ("text", cls, x, y, size, colour, anchor,
    bold, text, halo), ("circle", cls, x, y, r, fill, stroke), ("curve", cls,
    [(x, y)...], colour, width) with an arrow at its end. A text's halo is the
    colour of the patch it sits on (None: none).
    """
    w, h = layout.width, layout.height
    width = 2 * MARGIN + w * CELL
    height = 2 * MARGIN + h * CELL + TITLE
    top = MARGIN + TITLE

    def x0(f):
        return MARGIN + f * CELL

    def y0(r):
        return top + (h - 1 - r) * CELL

    owner = {}
    for m in modules:
        for f, r in m.places:
            owner[(f, r)] = m.number
    order = _chain(layout, modules, wiring)
    pos = {sq: k for k, sq in enumerate(order)}
    out = []
    name = title or "%s: %d squares, %d module%s" % (
        layout.name or "layout", layout.size, len(modules), "" if len(modules) == 1 else "s")
    out.append(("text", "title", MARGIN, MARGIN - 8, 18, DARK, "start", True, name, None))
    tint = {}
    for i in range(layout.size):
        f, r = layout.files[i], layout.ranks[i]
        n = owner.get((f, r), 0)
        tint[i] = TINTS[(n - 1) % len(TINTS)] if n else "#eeeeee"
        data = {"square": layout.names[i], "module": n}
        out.append(("rect", "square", x0(f), y0(r), CELL, CELL, tint[i], GREY, data))
    for (f, r), n in sorted(owner.items()):
        ink = INKS[(n - 1) % len(INKS)]
        for df, dr, a, b, c, d in (
            (-1, 0, 0, 0, 0, 1), (1, 0, 1, 0, 1, 1), (0, 1, 0, 0, 1, 0), (0, -1, 0, 1, 1, 1),
        ):
            if owner.get((f + df, r + dr)) != n:
                out.append(("line", "outline", x0(f) + a * CELL, y0(r) + b * CELL,
                            x0(f) + c * CELL, y0(r) + d * CELL, ink, 4, False))
    points = [(x0(layout.files[sq]) + CELL // 2, y0(layout.ranks[sq]) + CELL // 2) for sq in order]
    # The chain: from badge edge to badge edge, so no line crosses a number.
    # A link between squares that do not touch (the wire going back along a
    # row) is a dashed grey curve, bent around the badges on its way, so it
    # does not read as one more step.
    gap = BADGE + 2
    for a, b in zip(points, points[1:]):
        d = math.hypot(b[0] - a[0], b[1] - a[1])
        if d <= 1.5 * CELL:
            ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
            out.append(("line", "link", round(a[0] + ux * gap), round(a[1] + uy * gap),
                        round(b[0] - ux * gap), round(b[1] - uy * gap), DARK, 2, True))
        else:
            out.append(("curve", "jump", _jump(a, b, points, gap), GREY, 2))
    links = [(x[2], x[3], x[4], x[5]) for x in out if x[1] == "link"]
    jumps = [seg for x in out if x[1] == "jump" for seg in _segments(x[2])]
    taken = []  # boxes of the badges and labels placed so far

    def place(cls, where, size, colour, bold, text, halo):
        # The first spot whose box no line crosses and no label covers; else
        # one that only a dashed jump passes under (the halo keeps it legible).
        spots = [(x, y, a, text_box(x, y, size, a, text)) for x, y, a in where]
        free = [s for s in spots if not any(_overlap(s[3], other) for other in taken)
                and not any(_crosses(seg, s[3]) for seg in links)]
        clear = [s for s in free if not any(_crosses(seg, s[3]) for seg in jumps)]
        x, y, anchor, box = (clear or free or spots)[0]
        taken.append(box)
        out.append(("text", cls, x, y, size, colour, anchor, bold, text, halo))

    for i in range(layout.size):
        if i in pos:
            f, r = layout.files[i], layout.ranks[i]
            n = owner.get((f, r), 0)
            ink = INKS[(n - 1) % len(INKS)] if n else DARK
            cx, cy = x0(f) + CELL // 2, y0(r) + CELL // 2
            out.append(("circle", "badge", cx, cy, BADGE, WHITE, ink))
            out.append(("text", "chain", cx, cy + 4, 11 if pos[i] < 100 else 9, ink, "middle",
                        True, str(pos[i]), None))
            taken.append((cx - BADGE, cy - BADGE, cx + BADGE, cy + BADGE))
    if points:
        # "in" beside the first badge, on the side its first link does not take.
        sx, sy = points[0]
        place("in", [(sx - BADGE - 3, sy + 4, "end"), (sx + BADGE + 3, sy + 4, "start"),
                     (sx, sy + BADGE + 13, "middle"), (sx, sy - BADGE - 4, "middle")],
              11, DARK, True, "in", tint[order[0]])
    for m in modules:
        if m.places:
            f, r = m.places[0]
            a, b, c, d = x0(f) + 4, y0(r) + 13, x0(f) + CELL - 4, y0(r) + CELL - 5
            place("module", [(a, b, "start"), (c, b, "end"), (a, d, "start"), (c, d, "end")],
                  11, INKS[(m.number - 1) % len(INKS)], True, "M%d %s" % (m.number, m.kind),
                  tint[layout.at(f, r)])
    for i in range(layout.size):
        f, r = layout.files[i], layout.ranks[i]
        a, b, c, d = x0(f) + 5, y0(r) + CELL - 6, x0(f) + CELL - 5, y0(r) + 15
        e = y0(r) + CELL // 2 + 5
        place("name", [(a, b, "start"), (c, b, "end"), (a, d, "start"), (c, d, "end"),
                       (a - 2, e, "start"), (c + 2, e, "end"),
                       (x0(f) + CELL // 2, b, "middle"), (x0(f) + CELL // 2, d, "middle")],
              13, "#555555", False, layout.names[i], tint[i])
    for f in range(w):
        out.append(("text", "file", x0(f) + CELL // 2, top + h * CELL + 20, 14, DARK, "middle",
                    False, chr(97 + f), None))
    for r in range(h):
        out.append(("text", "rank", MARGIN - 16, y0(r) + CELL // 2 + 5, 14, DARK, "middle",
                    False, str(r + 1), None))
    return width, height, out, points, name


_MARKER = ('<marker id="%s" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="5" '
           'markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>')


def svg(layout, modules, wiring=None, title=None):
    """The SVG text of a layout (see module doc)."""
    width, height, items, points, name = shapes(layout, modules, wiring, title)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif">'
           % (width, height, width, height),
           '<title>%s</title>' % escape(name),
           '<defs>%s%s</defs>' % (_MARKER % ("arrow", DARK), _MARKER % ("arrow-grey", GREY)),
           '<rect width="100%" height="100%" fill="white"/>']
    for s in items:
        if s[0] == "rect":
            _, cls, x, y, w, h, fill, stroke, data = s
            attrs = "".join(' data-%s="%s"' % (k, escape(str(v))) for k, v in sorted(data.items()))
            out.append('<rect class="%s"%s x="%d" y="%d" width="%d" height="%d" fill="%s" '
                       'stroke="%s" stroke-width="1"/>' % (cls, attrs, x, y, w, h, fill, stroke))
        elif s[0] == "line":
            _, cls, x1, y1, x2, y2, colour, width_, arrow = s
            out.append('<line class="%s" x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" '
                       'stroke-width="%s" stroke-linecap="square"%s/>'
                       % (cls, x1, y1, x2, y2, colour, width_,
                          ' marker-end="url(#arrow)"' if arrow else ""))
        elif s[0] == "text":
            _, cls, x, y, size, colour, anchor, bold, text, halo = s
            out.append('<text class="%s" x="%d" y="%d" font-size="%d" fill="%s"%s%s%s>%s</text>'
                       % (cls, x, y, size, colour,
                          ' text-anchor="%s"' % anchor if anchor != "start" else "",
                          ' font-weight="bold"' if bold else "",
                          ' stroke="%s" stroke-width="4" stroke-linejoin="round" '
                          'paint-order="stroke"' % halo if halo else "",
                          escape(text)))
        elif s[0] == "curve":
            _, cls, pts, colour, width_ = s
            out.append('<polyline class="%s" fill="none" stroke="%s" stroke-width="%s" '
                       'stroke-dasharray="6 4" marker-end="url(#arrow-grey)" points="%s"/>'
                       % (cls, colour, width_, " ".join("%d,%d" % p for p in pts)))
        else:
            _, cls, x, y, r, fill, stroke = s
            out.append('<circle class="%s" cx="%d" cy="%d" r="%d" fill="%s" stroke="%s" '
                       'stroke-width="2"/>' % (cls, x, y, r, fill, stroke))
    out.append('<polyline class="chain" fill="none" stroke="none" points="%s"/>'
               % " ".join("%d,%d" % p for p in points))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _rgb(hex_colour):
    h = hex_colour.lstrip("#")
    return tuple(int(h[k : k + 2], 16) for k in (0, 2, 4))


def png(path, layout, modules, wiring=None, title=None, scale=PNG_SCALE):
    """Draw the same picture into a PNG file with pygame (no window needed),
    `scale` times the SVG's size."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pygame's own pkg_resources deprecation
        import pygame

    pygame.font.init()
    width, height, items, _points, _name = shapes(layout, modules, wiring, title)
    k = scale
    surface = pygame.Surface((width * k, height * k))
    surface.fill((255, 255, 255))
    fonts = {}

    def font(size, bold):
        key = (size, bold)
        if key not in fonts:
            fonts[key] = pygame.font.Font(None, int(size * 1.35 * k))
            fonts[key].set_bold(bold)
        return fonts[key]

    for s in items:
        if s[0] == "rect":
            _, _cls, x, y, w, h, fill, stroke, _data = s
            pygame.draw.rect(surface, _rgb(fill), (x * k, y * k, w * k, h * k))
            pygame.draw.rect(surface, _rgb(stroke), (x * k, y * k, w * k, h * k), k)
    for s in items:
        if s[0] == "line":
            _, _cls, x1, y1, x2, y2, colour, w, arrow = s
            c = _rgb(colour)
            a, b = (x1 * k, y1 * k), (x2 * k, y2 * k)
            if arrow:
                b = _head(pygame, surface, c, a, b, k)
                pygame.draw.line(surface, c, a, b, w * k)
            else:
                pygame.draw.line(surface, c, a, b, w * k)
                # Square caps at the corners of the module outlines.
                for x, y in (a, b):
                    surface.fill(c, (x - w * k // 2, y - w * k // 2, w * k, w * k))
        elif s[0] == "curve":
            _, _cls, pts, colour, w = s
            c = _rgb(colour)
            pts = [(x * k, y * k) for x, y in pts]
            pts[-1] = _head(pygame, surface, c, pts[-2], pts[-1], k)
            _dashes(pygame, surface, c, pts, w * k, 6 * k, 4 * k)
        elif s[0] == "circle":
            _, _cls, x, y, r, fill, stroke = s
            pygame.draw.circle(surface, _rgb(fill), (x * k, y * k), r * k)
            pygame.draw.circle(surface, _rgb(stroke), (x * k, y * k), r * k, 2 * k)
    for s in items:
        if s[0] == "text":
            _, _cls, x, y, size, colour, anchor, bold, text, halo = s
            img = font(size, bold).render(text, True, _rgb(colour))
            tx = x * k
            tx -= img.get_width() if anchor == "end" else (
                img.get_width() // 2 if anchor == "middle" else 0)
            ty = y * k - img.get_height() + 3 * k
            if halo:
                surface.fill(_rgb(halo), img.get_rect(topleft=(tx, ty)).inflate(3 * k, k))
            surface.blit(img, (tx, ty))
    try:
        pygame.image.save(surface, path)
    except pygame.error as e:
        raise OSError(e)
    return path


def _head(pygame, surface, colour, a, tip, k):
    """An arrowhead at `tip`, coming from `a`; where the shaft should stop."""
    ang = math.atan2(tip[1] - a[1], tip[0] - a[0])
    head = 7 * k
    left = (tip[0] - head * math.cos(ang - 0.45), tip[1] - head * math.sin(ang - 0.45))
    right = (tip[0] - head * math.cos(ang + 0.45), tip[1] - head * math.sin(ang + 0.45))
    pygame.draw.polygon(surface, colour, (tip, left, right))
    return (tip[0] - head * 0.8 * math.cos(ang), tip[1] - head * 0.8 * math.sin(ang))


def _dashes(pygame, surface, colour, pts, width, on, off):
    """A dashed polyline."""
    ink = True
    left = on
    for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
        length = math.hypot(x2 - x1, y2 - y1)
        t = 0.0
        while t < length:
            e = min(t + left, length)
            if ink:
                pygame.draw.line(surface, colour, (x1 + (x2 - x1) * t / length,
                                                   y1 + (y2 - y1) * t / length),
                                 (x1 + (x2 - x1) * e / length, y1 + (y2 - y1) * e / length),
                                 width)
            left -= e - t
            t = e
            if left <= 0:
                ink = not ink
                left = on if ink else off


def save(path, layout, modules, wiring=None, title=None):
    """Write the picture to `path`: PNG for *.png, SVG otherwise (FileError when it cannot)."""
    from attila_tools.files import FileError

    try:
        if path.lower().endswith(".png"):
            return png(path, layout, modules, wiring, title)
        with open(path, "w", encoding="utf-8") as f:
            f.write(svg(layout, modules, wiring, title))
    except OSError as e:
        raise FileError("%s: cannot write (%s)" % (path, getattr(e, "strerror", None) or e))
    return path
