"""How much the trays' magnets pull on the reed switches, next to a piece's.

Each magnet as a point dipole (a fair model a few diameters away): the field
along a switch's length, at points along it, from every magnet of its tray
and of a neighbour's tray pressed against each edge (the facing magnet points
the same way as ours, a magnet's thickness further out), against the field a
piece's magnet gives there, standing on the square's centre on the plate.
"""

import math

from attila_tools.hardware import catalogue, geometry
from attila_tools.hardware.parts import dims, tray

BR = 1.2  # T, N35 remanence; the ratio below does not depend on it
SAMPLES = 9


def _dipole(moment_dir, volume, at, point):
    """The field (T) at point of a magnet at `at`, magnetised along moment_dir."""
    r = [point[i] - at[i] for i in range(3)]
    d = math.sqrt(sum(c * c for c in r))
    u = [c / d for c in r]
    mu = sum(moment_dir[i] * u[i] for i in range(3))
    k = BR * volume / (4 * math.pi) / d ** 3
    return [k * (3 * mu * u[i] - moment_dir[i]) for i in range(3)]


def _volume():
    return math.pi * (dims.MAGNET_D / 2) ** 2 * dims.MAGNET_T * 1e-9  # m3


def sources(kind):
    """[(position mm, moment direction)]: the tray's magnets and a neighbour's facing ones."""
    out = []
    for x, y, n, pole in tray.magnets(kind):
        m = (n[0] * pole, n[1] * pole, 0.0)
        for out_by in (-dims.MAGNET_T / 2, dims.MAGNET_T * 1.5):
            out.append(((x + n[0] * out_by, y + n[1] * out_by, dims.MAGNET_Z), m))
    return out


def along(field, axis):
    return abs(sum(field[i] * axis[i] for i in range(3)))


def reed_fields(kind, reeds):
    """(worst tray field, weakest piece field) along the switches, in mT.

    reeds: [(square centre (x, y), end a (x, y), end b (x, y))] in the module's frame.
    """
    z = dims.BOARD_Z + geometry.THICKNESS + catalogue.SWITCH.height / 2
    worst, weakest = 0.0, None
    mm = 1e-3
    for centre, a, b in reeds:
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        axis = ((b[0] - a[0]) / length, (b[1] - a[1]) / length, 0.0)
        pts = [(a[0] + (b[0] - a[0]) * i / (SAMPLES - 1),
                a[1] + (b[1] - a[1]) * i / (SAMPLES - 1), z) for i in range(SAMPLES)]
        piece = (centre[0], centre[1], dims.TOP_Z + dims.MAGNET_T / 2)
        best_piece = 0.0
        for p in pts:
            total = [0.0, 0.0, 0.0]
            for at, m in sources(kind):
                f = _dipole(m, _volume(), [c * mm for c in at], [c * mm for c in p])
                total = [total[i] + f[i] for i in range(3)]
            worst = max(worst, along(total, axis))
            f = _dipole((0.0, 0.0, 1.0), _volume(), [c * mm for c in piece], [c * mm for c in p])
            best_piece = max(best_piece, along(f, axis))
        weakest = best_piece if weakest is None else min(weakest, best_piece)
    return worst * 1e3, weakest * 1e3
