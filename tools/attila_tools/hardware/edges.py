"""How an edge looks at a receiver, and whether the receiver takes it cleanly.

    edge(wave, t0, t1, low, high, rx)  -> rise time, overshoot, ringing, when valid, ...
    verdicts(kind, result)             -> [(receiver, what is wrong)]

An edge is clean when, once it has left the undefined band between the
receiver's VIL and VIH, it never comes back into it (a dip back could be
taken as a second edge: the clock counted twice), it is valid soon enough
for the chain's timing, and it stays within the receiver's absolute
maximum ratings (receivers.py says which, and from which datasheet).
"""

from attila_tools.hardware.receivers import RECEIVERS


def edge(wave, t0, t1, low, high, rx):
    """What one edge does at a receiver: the wave between t0 (the driver's edge)
    and t1, going from `low` to `high` volts (a falling edge has low > high)."""
    pts = [(t, v) for t, v in wave if t0 <= t <= t1]
    up = high > low
    sign = 1 if up else -1
    swing = abs(high - low)

    def past(v, level):  # v beyond level in the edge's direction
        return (v - level) * sign >= 0

    def first(level):
        for t, v in pts:
            if past(v, level):
                return t
        return None

    t10, t90 = first(low + 0.1 * (high - low)), first(low + 0.9 * (high - low))
    peak_t, peak = (max if up else min)(pts, key=lambda p: p[1])
    after = [v for t, v in pts if t >= peak_t]
    back = (min(after) if up else max(after)) if after else peak
    enter = rx["vih"] if up else rx["vil"]  # leaving the band into the valid level
    t_in = first(enter)
    reentry = None
    if t_in is not None:
        beyond = [v for t, v in pts if t >= t_in]
        reentry = min(beyond) if up else max(beyond)
    band_margin = ((reentry - enter) * sign) if reentry is not None else None
    settle = None
    for t, v in reversed(pts):
        if abs(v - high) > 0.05 * swing:
            settle = t - t0
            break
    last_cross = None
    for t, v in reversed(pts):
        if not past(v, enter):
            last_cross = t - t0
            break
    return {
        "rise": (t90 - t10) if t10 is not None and t90 is not None else None,
        "overshoot": (peak - high) * sign,
        "ringing": (high - back) * sign if after else 0.0,
        "settle": settle,
        "valid": last_cross,  # when the level is valid for good, after the driver's edge
        "margin": band_margin,  # >= 0: never back into the undefined band
        "false_edge": band_margin is not None and (reentry - (rx["vil"] if up else rx["vih"])) * sign < 0,
        "peak": peak,
    }


def verdicts(kind, result):
    """[(receiver, what is wrong)] of one case: empty when every receiver is fine."""
    rx = RECEIVERS["WS2812B" if kind == "LED" else "74HC165"]
    bad = []
    for label, r in result.items():
        for name in ("rise", "fall"):
            e = r[name]
            if e["false_edge"]:
                bad.append((label, "%s edge crosses back over the far threshold (a false edge)" % name))
            elif e["margin"] is None or e["margin"] < 0:
                bad.append((label, "%s edge rings back into the undefined band" % name))
            if e["valid"] is None or e["valid"] > rx["settle"]:
                bad.append((label, "%s edge not valid within %.0f ns" % (name, rx["settle"] * 1e9)))
        if rx["clamps"] and r["clamp_ma"] > rx["clamp_ma"]:
            bad.append((label, "clamp current %.1f mA over the %.0f mA maximum"
                        % (r["clamp_ma"], rx["clamp_ma"])))
        if not rx["clamps"] and (r["vmax"] > rx["vmax"] or r["vmin"] < rx["vmin"]):
            bad.append((label, "input %.2f .. %.2f V outside %.1f .. %.1f V (absolute maximum)"
                        % (r["vmin"], r["vmax"], rx["vmin"], rx["vmax"])))
    return bad
