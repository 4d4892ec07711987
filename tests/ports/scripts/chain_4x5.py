"""boards/4x5.json as the port scripts wire it: its sensor chain and the LED bytes to expect.

Shared by the MicroPython scripts (mpy_*.py, under MicroPython) and the
CircuitPython ones (cp_*.py, under CPython). Worked out by hand from the
module chain of boards/4x5.json, not from the firmware's own tables.
"""

# Squares of boards/4x5.json in chain order (module 1 a1.., module 2 a3..,
# the turned 2x3 modules 3 and 4 from their top-left square).
CHAIN = "a1 b1 a2 b2 a3 b3 a4 b4 c4 c3 d4 d3 e4 e3 c2 c1 d2 d1 e2 e1".split()
# 74HC165 input of each chain sensor: (register, D index).
INPUTS = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)] + [
    (r, d) for r in (2, 3) for d in range(6)
]


def expect(lit, rgb, level=160, chain=CHAIN):
    """Wire bytes (GRB) with the squares named in `lit` at colour rgb * level // 255."""
    out = bytearray(3 * len(chain))
    r, g, b = (v * level // 255 for v in rgb)
    for k, name in enumerate(chain):
        if name in lit:
            out[3 * k: 3 * k + 3] = bytes((g, r, b))
    return out
