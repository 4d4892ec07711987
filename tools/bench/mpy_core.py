"""Core benchmark under MicroPython (unix port): speed, and the heap the core uses.

Run by tools/bench/run.py as  MICROPYPATH=firmware:tools/bench micropython mpy_core.py
Prints one line per figure. The heap figures come from gc.mem_alloc() after a
gc.collect(), so they count live objects only; modules are imported from
source here (a board running .mpy files keeps its bytecode smaller).
"""

import gc
import sys

gc.collect()
_base = gc.mem_alloc()
import attila.game.geometry  # noqa: E402,F401
import attila.game.rules  # noqa: E402,F401

gc.collect()
_rules = gc.mem_alloc()
import attila.game.notation  # noqa: E402,F401
import attila.game.perft  # noqa: E402,F401

gc.collect()
_more = gc.mem_alloc()
try:
    import attila.game.layoutfile  # noqa: E402,F401  (with attila.game.modules and json)
except ImportError:
    pass
gc.collect()
_file = gc.mem_alloc()

import corebench  # noqa: E402

LAYOUT = "boards/4x5.json"


def main():
    print("interpreter: %s %s" % (sys.implementation.name,
                                  ".".join(str(v) for v in sys.implementation.version[:3])))
    print("heap modules geometry+rules+errors+compat: %d bytes" % (_rules - _base))
    print("heap modules notation+perft: %d bytes" % (_more - _rules))
    print("heap modules layoutfile+modules+json: %d bytes" % (_file - _more))
    try:
        open(LAYOUT).close()
        path = LAYOUT
    except OSError:
        path = None
    total = corebench.heap_figures(path)
    print("heap core state peak (layout + Game + game peak): %d bytes" % total)
    core = total + _rules - _base
    print("heap core peak (geometry+rules code + layout + Game + game peak): %d bytes "
          "(target < 24576: %s)" % (core, "OK" if core < 24576 else "OVER"))
    print("heap core peak with notation+perft code too: %d bytes" % (core + _more - _rules))
    corebench.bench_movegen()
    ok = corebench.bench_perft()
    corebench.bench_random_game()
    if not ok:
        raise SystemExit(1)


main()
