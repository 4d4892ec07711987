"""A picture of a layout (SVG, or PNG): its squares, its modules and the chain to wire.

    text = svg(layout, modules)                 # the default chain
    text = svg(layout, modules, wiring=w)       # LED chain of a profile (local orders)
    save(path, layout, modules, wiring=None)    # .svg, or .png (drawn with pygame)

Each module is tinted and outlined and labelled "M<n> <kind>" (its place in
the cable chain); each square shows its name and, in its top right corner,
its place in the LED/sensor chain; arrows run through the squares in chain
order from the first LED ("in", where the data wire from the board arrives).
The SVG is plain SVG 1.1 (no script, no external font). Both formats are
drawn from the same list of shapes.
"""

from xml.sax.saxutils import escape

CELL = 64
MARGIN = 44
TITLE = 30
TINTS = ("#f6d7a7", "#bfdcf5", "#c9ecc0", "#efc3d8", "#e2d2f4", "#f3efb6", "#c7ece9", "#f1cdb8")
INKS = ("#a05a00", "#1f5f99", "#2e7d32", "#a0285f", "#6a3fa0", "#8a7a00", "#1b7f78", "#a0461b")
GREY = "#999999"
DARK = "#333333"


def _chain(layout, modules, wiring):
    """Squares in LED chain order."""
    if wiring is not None:
        return [sq for sq in wiring.led_square if sq != 255]
    from attila.modules import chain

    return list(chain(layout, modules))


def shapes(layout, modules, wiring=None, title=None):
    """(width, height, [shape]) of the picture.

    Shapes: ("rect", cls, x, y, w, h, fill, stroke, data), ("line", cls, x1, y1,
    x2, y2, colour, width, arrow), ("text", cls, x, y, size, colour, anchor,
    bold, text), ("circle", x, y, r, colour).
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
    out.append(("text", "title", MARGIN, MARGIN - 8, 18, DARK, "start", True, name))
    for i in range(layout.size):
        f, r = layout.files[i], layout.ranks[i]
        n = owner.get((f, r), 0)
        tint = TINTS[(n - 1) % len(TINTS)] if n else "#eeeeee"
        data = {"square": layout.names[i], "module": n}
        out.append(("rect", "square", x0(f), y0(r), CELL, CELL, tint, GREY, data))
        out.append(("text", "name", x0(f) + 5, y0(r) + CELL - 6, 13, "#555555", "start", False,
                    layout.names[i]))
        if i in pos:
            ink = INKS[(n - 1) % len(INKS)] if n else DARK
            out.append(("text", "chain", x0(f) + CELL - 5, y0(r) + 15, 12, ink, "end", True,
                        str(pos[i])))
    for (f, r), n in sorted(owner.items()):
        ink = INKS[(n - 1) % len(INKS)]
        for df, dr, a, b, c, d in (
            (-1, 0, 0, 0, 0, 1), (1, 0, 1, 0, 1, 1), (0, 1, 0, 0, 1, 0), (0, -1, 0, 1, 1, 1),
        ):
            if owner.get((f + df, r + dr)) != n:
                out.append(("line", "outline", x0(f) + a * CELL, y0(r) + b * CELL,
                            x0(f) + c * CELL, y0(r) + d * CELL, ink, 4, False))
    for m in modules:
        if m.places:
            f, r = m.places[0]
            out.append(("text", "module", x0(f) + 5, y0(r) + 15, 11,
                        INKS[(m.number - 1) % len(INKS)], "start", False,
                        "M%d %s" % (m.number, m.kind)))
    points = [(x0(layout.files[sq]) + CELL // 2, y0(layout.ranks[sq]) + CELL // 2) for sq in order]
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        out.append(("line", "link", ax, ay, bx, by, DARK, 2, True))
    if points:
        sx, sy = points[0]
        out.append(("circle", sx, sy, 5, DARK))
        out.append(("text", "in", sx, sy + 19, 11, DARK, "middle", True, "in"))
    for f in range(w):
        out.append(("text", "file", x0(f) + CELL // 2, top + h * CELL + 20, 14, DARK, "middle",
                    False, chr(97 + f)))
    for r in range(h):
        out.append(("text", "rank", MARGIN - 16, y0(r) + CELL // 2 + 5, 14, DARK, "middle",
                    False, str(r + 1)))
    return width, height, out, points, name


def svg(layout, modules, wiring=None, title=None):
    """The SVG text of a layout (see module doc)."""
    width, height, items, points, name = shapes(layout, modules, wiring, title)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif">'
           % (width, height, width, height),
           '<title>%s</title>' % escape(name),
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>'
           '</defs>' % DARK,
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
                          ' stroke-opacity="0.75" marker-end="url(#arrow)"' if arrow else ""))
        elif s[0] == "text":
            _, cls, x, y, size, colour, anchor, bold, text = s
            out.append('<text class="%s" x="%d" y="%d" font-size="%d" fill="%s"%s%s>%s</text>'
                       % (cls, x, y, size, colour,
                          ' text-anchor="%s"' % anchor if anchor != "start" else "",
                          ' font-weight="bold"' if bold else "", escape(text)))
        else:
            _, x, y, r, colour = s
            out.append('<circle cx="%d" cy="%d" r="%d" fill="%s"/>' % (x, y, r, colour))
    out.append('<polyline class="chain" fill="none" stroke="none" points="%s"/>'
               % " ".join("%d,%d" % p for p in points))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _rgb(hex_colour):
    h = hex_colour.lstrip("#")
    return tuple(int(h[k : k + 2], 16) for k in (0, 2, 4))


def png(path, layout, modules, wiring=None, title=None):
    """Draw the same picture into a PNG file with pygame (no window needed)."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import math
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pygame's own pkg_resources deprecation
        import pygame

    pygame.font.init()
    width, height, items, _points, _name = shapes(layout, modules, wiring, title)
    surface = pygame.Surface((width, height))
    surface.fill((255, 255, 255))
    fonts = {}

    def font(size, bold):
        key = (size, bold)
        if key not in fonts:
            fonts[key] = pygame.font.Font(None, int(size * 1.35))
            fonts[key].set_bold(bold)
        return fonts[key]

    for s in items:
        if s[0] == "rect":
            _, _cls, x, y, w, h, fill, stroke, _data = s
            pygame.draw.rect(surface, _rgb(fill), (x, y, w, h))
            pygame.draw.rect(surface, _rgb(stroke), (x, y, w, h), 1)
    for s in items:
        if s[0] == "line":
            _, _cls, x1, y1, x2, y2, colour, w, arrow = s
            c = _rgb(colour)
            pygame.draw.line(surface, c, (x1, y1), (x2, y2), w)
            if arrow:
                a = math.atan2(y2 - y1, x2 - x1)
                tip = (x2 - 4 * math.cos(a), y2 - 4 * math.sin(a))
                left = (tip[0] - 9 * math.cos(a - 0.45), tip[1] - 9 * math.sin(a - 0.45))
                right = (tip[0] - 9 * math.cos(a + 0.45), tip[1] - 9 * math.sin(a + 0.45))
                pygame.draw.polygon(surface, c, (tip, left, right))
        elif s[0] == "circle":
            _, x, y, r, colour = s
            pygame.draw.circle(surface, _rgb(colour), (x, y), r)
    for s in items:
        if s[0] == "text":
            _, _cls, x, y, size, colour, anchor, bold, text = s
            img = font(size, bold).render(text, True, _rgb(colour))
            tx = x - img.get_width() if anchor == "end" else (
                x - img.get_width() // 2 if anchor == "middle" else x)
            surface.blit(img, (tx, y - img.get_height() + 3))
    try:
        pygame.image.save(surface, path)
    except pygame.error as e:
        raise OSError(e)
    return path


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
