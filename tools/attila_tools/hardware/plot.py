"""Waveform pictures for the docs: SVG drawn from simulated (t, v) samples.

    svg(panels, title)  -> the SVG text of side-by-side panels, each
                           {"title", "t0", "t1", "curves": [(label, colour, [(t, v)])],
                            "levels": [(label, volts)], "v": (lo, hi)}
"""

W, H = 360, 240  # one panel, px
PAD_L, PAD_B, PAD_T, PAD_R = 46, 34, 26, 10


def _ticks(lo, hi, n=5):
    step = (hi - lo) / n
    for nice in (0.5, 1, 2, 5, 10, 20, 50, 100):
        if nice >= step:
            step = nice
            break
    v = (lo // step) * step
    out = []
    while v <= hi + 1e-9:
        if v >= lo - 1e-9:
            out.append(round(v, 6))
        v += step
    return out


def _esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def panel(p, x0):
    """SVG elements of one panel whose left edge is at x0."""
    t0, t1 = p["t0"], p["t1"]
    lo, hi = p["v"]
    iw, ih = W - PAD_L - PAD_R, H - PAD_T - PAD_B

    def sx(t):
        return x0 + PAD_L + (t - t0) / (t1 - t0) * iw

    def sy(v):
        return PAD_T + (hi - min(max(v, lo), hi)) / (hi - lo) * ih

    out = ['<rect x="%.1f" y="%d" width="%d" height="%d" fill="#fff" stroke="#999"/>'
           % (x0 + PAD_L, PAD_T, iw, ih),
           '<text x="%.1f" y="16" font-size="12" text-anchor="middle">%s</text>'
           % (x0 + PAD_L + iw / 2, _esc(p["title"]))]
    for v in _ticks(lo, hi):
        out.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#eee"/>'
                   % (sx(t0), sx(t1), sy(v), sy(v)))
        out.append('<text x="%.1f" y="%.1f" font-size="10" text-anchor="end">%g V</text>'
                   % (x0 + PAD_L - 4, sy(v) + 3, v))
    for t in _ticks(0, (t1 - t0) * 1e9):
        x = sx(t0 + t * 1e-9)
        out.append('<text x="%.1f" y="%d" font-size="10" text-anchor="middle">%g</text>'
                   % (x, H - PAD_B + 13, t))
    out.append('<text x="%.1f" y="%d" font-size="10" text-anchor="middle">ns after the controller&#8217;s edge</text>'
               % (x0 + PAD_L + iw / 2, H - 6))
    for label, v in p["levels"]:
        out.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#888" '
                   'stroke-dasharray="4 3"/>' % (sx(t0), sx(t1), sy(v), sy(v)))
        out.append('<text x="%.1f" y="%.1f" font-size="9" fill="#555" text-anchor="end">%s</text>'
                   % (sx(t1) - 3, sy(v) - 3, _esc(label)))
    for label, colour, wave in p["curves"]:
        pts = [(t, v) for t, v in wave if t0 <= t <= t1]
        step = max(1, len(pts) // 600)
        d = " ".join("%.1f,%.1f" % (sx(t), sy(v)) for t, v in pts[::step])
        out.append('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>'
                   % (colour, d))
    return out


def svg(panels, legend):
    """Panels side by side, a legend line [(label, colour)] under them."""
    width = W * len(panels)
    body = []
    for i, p in enumerate(panels):
        body += panel(p, i * W)
    x = PAD_L
    for label, colour in legend:
        body.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="3"/>'
                    % (x, x + 18, H + 12, H + 12, colour))
        body.append('<text x="%d" y="%d" font-size="11">%s</text>' % (x + 22, H + 16, _esc(label)))
        x += 30 + 7 * len(label)
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="sans-serif">\n%s\n</svg>\n' % (width, H + 24, width, H + 24,
                                                        "\n".join(body)))
