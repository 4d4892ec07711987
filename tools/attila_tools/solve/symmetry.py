"""The layout's symmetries and the bit tables that apply them to packed keys.

A rotation or reflection of the grid that maps the layout's squares onto
themselves preserves knight jumps, so positions that are images of each
other have the same value: the solver's keys fold them (Solver.canon), the
retrograde tables and the setup book canonicalise with the same permutations.
"""

# The eight rotations/reflections of the grid as maps of (file, rank).
_TRANSFORMS = (
    lambda f, r: (f, r),
    lambda f, r: (-f, r),
    lambda f, r: (f, -r),
    lambda f, r: (-f, -r),
    lambda f, r: (r, f),
    lambda f, r: (-r, f),
    lambda f, r: (r, -f),
    lambda f, r: (-r, -f),
)


def automorphisms(layout):
    """Square permutations (tuples, perm[i] = image of square i) of the layout's symmetries.

    A rotation or reflection of the grid is a symmetry when, after moving the
    result back to the origin, it maps the set of squares onto itself. Knight
    jumps are preserved by all eight, so each one is an automorphism of the
    knight graph. The identity comes first.
    """
    cells = [(layout.files[i], layout.ranks[i]) for i in range(layout.size)]
    index = {c: i for i, c in enumerate(cells)}
    perms = []
    for t in _TRANSFORMS:
        pts = [t(f, r) for f, r in cells]
        mf = min(p[0] for p in pts)
        mr = min(p[1] for p in pts)
        pts = [(f - mf, r - mr) for f, r in pts]
        if all(p in index for p in pts):
            perm = tuple(index[p] for p in pts)
            if perm not in perms:
                perms.append(perm)
    return perms


def single_bits(mask):
    """Single-bit masks of a mask, lowest first."""
    while mask:
        b = mask & -mask
        yield b
        mask ^= b


def byte_map(width, image):
    """A function OR-ing image(bit) over the set bits of an int of `width` bits.

    Built from one 256-entry table per byte, so a knight-neighbour union or a
    symmetry of a whole packed key costs a few lookups.
    """
    names = {}
    terms = []
    for k in range((width + 7) // 8):
        tab = []
        for byte in range(256):
            out = 0
            for j in range(8):
                bit = 8 * k + j
                if byte >> j & 1 and bit < width:
                    out |= image(bit)
            tab.append(out)
        names["t%d" % k] = tuple(tab)
        terms.append("t%d[m >> %d & 255]" % (k, 8 * k) if k else "t0[m & 255]")
    return eval("lambda m: " + " | ".join(terms), names)
