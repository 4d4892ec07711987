"""The chain's wires as transmission lines, and ngspice to run them.

    line = ribbon_line(wire)      # the flat cable's R, L, C per metre for one wire
    z0, delay = track_line(width, gap)   # a board track beside the ground pour
    waves = run(netlist, nodes)   # {node: [(t, v)]} from `ngspice -b`

Every figure says where it comes from (FACTS): a datasheet, a handbook's
formula, or "assumed" where no source gives one (those are chosen on the
side that makes the signals look worse, and the docs say so).
"""

import math
import os
import shutil
import subprocess
import tempfile

MU0 = 4e-7 * math.pi
EPS0 = 8.854e-12
C0 = 299792458.0
RHO_CU = 1.72e-8

# (value, source)
FACTS = {
    "pitch": (1.27e-3, "0.05 in flat cable for 2.54 mm IDC sockets"),
    "strand": (0.127e-3, "28 AWG 7/36 stranded wire: seven 36 AWG (0.127 mm) strands (AWG table)"),
    "wire_r": (0.19e-3, "radius over the seven strands, 0.38 mm across"),
    "eps_cable": (2.2, "velocity of PVC flat ribbon cable, 1.51 ns/ft (0.025 in PVC IDC ribbon "
                  "cable product specification, studylib.net/doc/18884373): eps_eff = "
                  "(1.51 ns/ft / 1.017 ns/ft)^2; taken for the 0.05 in cable's alike PVC"),
    "line_formula": (None, "C. R. Paul, Analysis of Multiconductor Transmission Lines: "
                     "per-unit-length inductance of widely separated wires, one the "
                     "reference; capacitance from L in a homogeneous medium"),
    "eps_fr4": (4.5, "FR-4 relative permittivity, the usual figure for 1.6 mm two-layer boards "
                "(assumed: the fab does not control it)"),
    "cpw": (None, "coplanar waveguide without a back plane: Z0 = 30 pi / sqrt(eps_eff) "
            "K(k')/K(k), k = w/(w+2g) (B. C. Wadell, Transmission Line Design Handbook)"),
}


def fact(key):
    return FACTS[key][0]


def wires(pitch=None):
    """x (m) of the cable's eight wires, pin order (cable.CABLE)."""
    p = pitch or fact("pitch")
    return [i * p for i in range(8)]


def _inverse(m):
    n = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        d = a[c][c]
        a[c] = [v / d for v in a[c]]
        for r in range(n):
            if r != c and a[r][c]:
                f = a[r][c]
                a[r] = [v - f * w for v, w in zip(a[r], a[c])]
    return [row[n:] for row in a]


def ribbon_line(signal, reference=1):
    """(R ohm/m, L H/m, C F/m) of the cable's wire `signal` (0-based) with every
    other wire its return (the ground wires, the supplies through their
    capacitors, the other signals through their drivers)."""
    xs, a = wires(), fact("wire_r")
    others = [i for i in range(8) if i != reference]
    k = MU0 / (2 * math.pi)

    def d(i, j):
        return abs(xs[i] - xs[j])

    lm = [[k * (math.log(d(i, reference) ** 2 / (a * a)) if i == j else
                math.log(d(i, reference) * d(j, reference) / (a * d(i, j))))
           for j in others] for i in others]
    inv = _inverse(lm)
    s = others.index(signal)
    l_eff = 1.0 / inv[s][s]
    c_eff = fact("eps_cable") * EPS0 * MU0 * inv[s][s]
    area = 7 * math.pi * (fact("strand") / 2) ** 2
    r = RHO_CU / area * 1.5  # the return shares the others' copper: half a wire more
    return r, l_eff, c_eff


def line_z0(r_l_c):
    _r, l, c = r_l_c
    return math.sqrt(l / c), math.sqrt(l * c)  # ohm, s/m


def _ellip_k(k):
    """Complete elliptic integral of the first kind K(k) (arithmetic-geometric mean)."""
    a, b = 1.0, math.sqrt(1 - k * k)
    for _ in range(30):
        a, b = (a + b) / 2, math.sqrt(a * b)
    return math.pi / (2 * a)


def track_line(width, gap, height=1.6e-3):
    """(Z0 ohm, delay s/m) of a track with the ground pour `gap` away on both sides."""
    er = fact("eps_fr4")
    k = width / (width + 2 * gap)
    k1 = math.sinh(math.pi * width / (4 * height)) / math.sinh(math.pi * (width + 2 * gap) / (4 * height))
    kk, kp = _ellip_k(k), _ellip_k(math.sqrt(1 - k * k))
    k1k, k1p = _ellip_k(k1), _ellip_k(math.sqrt(1 - k1 * k1))
    eeff = 1 + (er - 1) / 2 * (kp * k1k) / (kk * k1p)
    return 30 * math.pi / math.sqrt(eeff) * kp / kk, math.sqrt(eeff) / C0


def ngspice_missing():
    """Why the simulation cannot run here, or ''."""
    if shutil.which("ngspice") is None:
        return "ngspice is not installed (apt-get install ngspice; .ci/run installs it)"
    return ""


def run(netlist, nodes, stop, step):
    """{node: [(t, v)]}: a transient run of `netlist` (no .tran/.end), `nodes`
    being spice expressions such as 'v(m4u)' or 'i(vclamp4)'."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "waves.txt")
        deck = "\n".join([netlist, ".options noacct", ".control", "set wr_singlescale",
                          "set wr_vecnames", "tran %g %g" % (step, stop),
                          "wrdata %s %s" % (out, " ".join(nodes)), "quit", ".endc", ".end", ""])
        path = os.path.join(tmp, "deck.cir")
        with open(path, "w") as f:
            f.write(deck)
        r = subprocess.run(["ngspice", "-b", path], capture_output=True, text=True, cwd=tmp)
        if r.returncode or not os.path.exists(out):
            raise RuntimeError("ngspice failed:\n%s\n%s" % (r.stdout[-2000:], r.stderr[-2000:]))
        with open(out) as f:
            rows = [line.split() for line in f if line.strip()]
    head, rows = rows[0], rows[1:]
    t = [float(row[0]) for row in rows]
    waves = {}
    for i, name in enumerate(nodes):
        waves[name] = list(zip(t, (float(row[i + 1]) for row in rows)))
    del head
    return waves
