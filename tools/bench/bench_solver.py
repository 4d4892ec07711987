"""The solver against the plain memoised negamax, side by side (CPython).

Run by tools/bench/run.py (make bench). For each position both solve it from
scratch in a fresh process, which reports the CPU seconds of the solve itself
(interpreter start-up left out; CPU time, as the machine may be shared). The
baseline (tools/bench/baseline_negamax.py) is stopped after BASELINE_CAP_S
seconds of wall-clock time and then shown as "> N s".
ATTILA_BENCH_CAP=seconds changes the cap; ATTILA_BENCH_QUICK=1 runs only
the first pair.
"""

import json
import os
import subprocess
import sys
import time

from benchkit import HERE, ROOT  # (first: the paths)

BASELINE_CAP_S = float(os.environ.get("ATTILA_BENCH_CAP", "150"))  # wall-clock seconds

# 4x5 positions two turns after setup (12 free squares): the baseline ends
# in seconds to a minute or two there, so the ratio is a measured one.
# (name, position, resist): resist = the solver also finds the longest
# resistance when the position is lost (attila solve's default).
SIDE_BY_SIDE = (
    ("12 free a", ".xR.H/..Hx./...H./.RR.. R", False),
    ("12 free b", "x..../RH.../..R.x/.H.RH R", False),
    ("12 free c", "H..../RH..x/.Hx../..RR. R", False),
    # The root's order: the old root loop (every turn in square order) took
    # 12.8 s here, a seventh of the baseline.
    ("root order", "xH.H./..R.H/..RR./x.... R", False),
    # A lost position with its longest resistance (the table says how long
    # the old resistance search and the baseline's plain answer take).
    ("resistance", "RH..x/..H../.x..H/..R.R R", True),
) + tuple(("random %d" % (k + 1), text, False) for k, text in enumerate((
    # The positions on which the solver spends the most time among 70 with
    # 12 free squares from random games (random_positions(1, 30) and
    # random_positions(2, 40)): the won ones first, then the lost ones.
    "x...x/H..R./.RRHH/..... R",
    "....x/xHHR./R.R../....H R",
    ".x.../.R..x/.H..H/.H.RR R",
    ".xHH./R...R/H..x./....R R",
    ".x.../.HRH./..R../xH.R. R",
    "...x./.RH.R/..HH./..Rx. R",
    "..R../..Hx./.HHRR/x.... R",
)))
# Right after setup (14 free): the baseline does not end within the cap (it
# took 1659 s on the development host with ATTILA_BENCH_CAP=2400).
AFTER_SETUP = (
    ("after setup", "HR.R./...../RH.../...H. R", False),
)


def random_positions(seed, count, free_left=12):
    """Positions of random 4x5 games (random setup, random turns) with free_left free squares."""
    import random

    from attila.game.geometry import from_rows
    from attila.game.notation import format_position
    from attila.game.rules import MOVE, Game

    layout = from_rows(["....."] * 4)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = Game(layout)
        while game.phase == 0:
            legal = [i for i in range(20) if game.placements() >> i & 1]
            if not legal:
                break
            game.place(rng.choice(legal))
        if game.phase == 0:
            continue
        while game.phase == MOVE and bin(game.free()).count("1") > free_left:
            a = rng.choice([i for i in range(20) if game.movable() >> i & 1])
            game.move(a, rng.choice([i for i in range(20) if game.destinations(a) >> i & 1]))
            game.scorch(rng.choice([i for i in range(20) if game.scorchable() >> i & 1]))
        if game.phase == MOVE:
            out.append(format_position(game))
    return out


def _run(args, cap):
    """(seconds, stdout) of a command, or (None, "") when it passed the cap."""
    t = time.perf_counter()
    try:
        out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=cap,
                             check=True).stdout
    except subprocess.TimeoutExpired:
        return None, ""
    return time.perf_counter() - t, out


def solver(text, resist):
    """(CPU seconds of the solve, report), measured inside the process."""
    code = ("import json, sys, time; sys.setrecursionlimit(20000)\n"
            "from attila.game.notation import parse_position\n"
            "from attila_tools.solve.game import solve_game\n"
            "game = parse_position(sys.argv[1]); t = time.process_time()\n"
            "report = solve_game(game, resist=sys.argv[2] == '1')\n"
            "report['cpu'] = time.process_time() - t\n"
            "print(json.dumps(report))")
    _, out = _run([sys.executable, "-c", code, text, "1" if resist else "0"], None)
    report = json.loads(out)
    return report["cpu"], report


def baseline(text, cap):
    """(CPU seconds of the solve measured inside the process, output), or (None, "") past the cap."""
    seconds, out = _run([sys.executable, os.path.join(HERE, "baseline_negamax.py"), text], cap)
    if seconds is None:
        return None, ""
    return float(out.split("cpu=")[1]), out


def main():
    quick = os.environ.get("ATTILA_BENCH_QUICK") == "1"
    pairs = SIDE_BY_SIDE[:1] if quick else SIDE_BY_SIDE + AFTER_SETUP
    ratios = []
    for name, text, resist in pairs:
        s_sec, report = solver(text, resist)
        b_sec, out = baseline(text, BASELINE_CAP_S)
        what = "%s, %d nodes%s" % (report["result"], report["nodes"],
                                    ", longest resistance %s" % report["best"]
                                    if resist and report["result"] == "loss" else "")
        print("solver %s (%s): %.2f s (%s)" % (name, text, s_sec, what))
        if b_sec is None:
            print("baseline %s: > %d s" % (name, BASELINE_CAP_S))
            print("speed-up %s: > %.0f x" % (name, BASELINE_CAP_S / s_sec))
        else:
            agree = out.split()[0] == report["result"]
            print("baseline %s: %.2f s (%s)" % (name, b_sec, out.strip()))
            print("speed-up %s: %.1f x" % (name, b_sec / s_sec))
            print("agree %s: %s" % (name, "yes" if agree else "NO"))
            if resist:
                # The longest resistance against the baseline's plain answer.
                print("resistance never slower than the baseline %s: %s"
                      % (name, "yes" if s_sec <= b_sec else "NO"))
            else:
                ratios.append((b_sec / s_sec, name))
        sys.stdout.flush()
    if ratios:
        low = min(ratios)
        print("speed-up smallest measured: %.1f x (%s)" % low)
        below = ["%s %.1f x" % (n, r) for r, n in sorted(ratios) if r < 20]
        print("below 20 x: %s" % (", ".join(below) if below else "none"))


if __name__ == "__main__":
    main()
