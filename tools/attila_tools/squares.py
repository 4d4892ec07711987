"""Sets of squares as the core keeps them: int bitmasks, bit i for square i."""


def bits(mask):
    """Square indices of a bitmask, lowest first."""
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out
