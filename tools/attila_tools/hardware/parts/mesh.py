"""A printed part's STL as a closed solid: every edge shared by exactly two
triangles that run it in opposite directions, and a positive volume.

Our own small check on the triangles, so the test needs no mesh library.
"""

import struct

DIGITS = 4  # vertices within 0.1 um are the same point


def read_stl(path):
    """[(a, b, c)]: the triangles of a binary or ASCII STL, corners as tuples."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) >= 84:
        n = struct.unpack_from("<I", data, 80)[0]
        if 84 + 50 * n == len(data):
            tris = []
            for i in range(n):
                v = struct.unpack_from("<9f", data, 84 + 50 * i + 12)
                tris.append((v[0:3], v[3:6], v[6:9]))
            return tris
    words = data.decode("ascii", "replace").split()
    if not words or words[0] != "solid":
        raise ValueError("%s: not an STL file" % path)
    pts = [tuple(float(x) for x in words[i + 1:i + 4])
           for i, word in enumerate(words) if word == "vertex"]
    return [tuple(pts[i:i + 3]) for i in range(0, len(pts) - 2, 3)]


def problems(tris):
    """What keeps a list of triangles from being a closed solid ([] if nothing)."""
    key = {}

    def vid(p):
        return key.setdefault(tuple(round(c, DIGITS) for c in p), len(key))

    edges = {}
    for a, b, c in tris:
        ia, ib, ic = vid(a), vid(b), vid(c)
        if len({ia, ib, ic}) < 3:
            continue  # a sliver that rounds to a line: its edges are its neighbours'
        for e in ((ia, ib), (ib, ic), (ic, ia)):
            edges[e] = edges.get(e, 0) + 1
    out = []
    if not tris:
        out.append("no triangles")
    doubled = sum(1 for n in edges.values() if n > 1)
    opened = sum(1 for (a, b) in edges if (b, a) not in edges)
    if doubled:
        out.append("%d edges run the same way by more than one triangle" % doubled)
    if opened:
        out.append("%d open edges (no triangle on the other side)" % opened)
    enclosed = volume(tris)
    if enclosed <= 0:
        out.append("volume %.1f mm3 (not positive)" % enclosed)
    return out


def volume(tris):
    """The enclosed volume in mm3 (signed tetrahedra from the origin)."""
    return sum((a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6.0 for a, b, c in tris)
