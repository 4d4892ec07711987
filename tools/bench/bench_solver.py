"""The solver against the plain memoised negamax, side by side (CPython).

Run by tools/bench/run.py (make bench). For each position both solve it from
scratch in a fresh process; the baseline (tools/bench/baseline_negamax.py)
is stopped after BASELINE_CAP_S seconds and then shown as "> N s".
ATTILA_BENCH_CAP=seconds changes the cap; ATTILA_BENCH_QUICK=1 runs only
the first pair.
"""

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BASELINE_CAP_S = float(os.environ.get("ATTILA_BENCH_CAP", "150"))

# 4x5 positions two turns after setup (12 free squares): the baseline ends
# in about a minute or two there, so the ratio is a measured one.
SIDE_BY_SIDE = (
    ("12 free a", ".xR.H/..Hx./...H./.RR.. R"),
    ("12 free b", "x..../RH.../..R.x/.H.RH R"),
    ("12 free c", "H..../RH..x/.Hx../..RR. R"),
)
# Right after setup (14 free): the baseline does not end within the cap (it
# took 1659 s on the development host with ATTILA_BENCH_CAP=2400).
AFTER_SETUP = (
    ("after setup", "HR.R./...../RH.../...H. R"),
)


def _run(args, cap):
    """(seconds, stdout) of a command, or (None, "") when it passed the cap."""
    t = time.perf_counter()
    try:
        out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=cap,
                             check=True).stdout
    except subprocess.TimeoutExpired:
        return None, ""
    return time.perf_counter() - t, out


def solver(text):
    code = ("import json, sys; sys.setrecursionlimit(20000)\n"
            "from attila.notation import parse_position\n"
            "from attila_tools.solver import solve_game\n"
            "print(json.dumps(solve_game(parse_position(sys.argv[1]), resist=False)))")
    seconds, out = _run([sys.executable, "-c", code, text], None)
    return seconds, json.loads(out)


def baseline(text, cap):
    return _run([sys.executable, os.path.join(HERE, "baseline_negamax.py"), text], cap)


def main():
    quick = os.environ.get("ATTILA_BENCH_QUICK") == "1"
    pairs = SIDE_BY_SIDE[:1] if quick else SIDE_BY_SIDE + AFTER_SETUP
    ratios = []
    for name, text in pairs:
        s_sec, report = solver(text)
        b_sec, out = baseline(text, BASELINE_CAP_S)
        print("solver %s: %.2f s (%s, %d nodes)" % (name, s_sec, report["result"],
                                                    report["nodes"]))
        if b_sec is None:
            print("baseline %s: > %d s" % (name, BASELINE_CAP_S))
            print("speed-up %s: > %.0f x" % (name, BASELINE_CAP_S / s_sec))
        else:
            agree = out.split()[0] == report["result"]
            print("baseline %s: %.2f s (%s)" % (name, b_sec, out.strip()))
            print("speed-up %s: %.1f x" % (name, b_sec / s_sec))
            print("agree %s: %s" % (name, "yes" if agree else "NO"))
            ratios.append(b_sec / s_sec)
    if ratios:
        print("speed-up smallest measured: %.1f x" % min(ratios))


if __name__ == "__main__":
    main()
