"""On-device runner for the portable tests (used by tools/mpytest.py).

``runner.main(["test_smoke", ...], "unix")`` imports each module, runs its
``test_*`` functions in name order and prints one marker line per outcome,
which the host parses:

    @@mpytest FILE <module>
    @@mpytest PASS <test>
    @@mpytest FAIL <test>        then the traceback, then  @@mpytest END
    @@mpytest SKIP <reason>      the module's PORTS marker excludes this port
    @@mpytest DONE <passed> <failed>

Anything else a test prints goes to the output as it is. Runs on
MicroPython (any port) and CPython.
"""

import gc
import sys

_MARK = "@@mpytest"


def _print_exception(e):
    try:
        sys.print_exception(e)  # MicroPython
    except AttributeError:
        import traceback

        traceback.print_exception(type(e), e, e.__traceback__)


def _fail(name, e):
    print(_MARK, "FAIL", name)
    _print_exception(e)
    print(_MARK, "END")


def run(name, port):
    """Run one test module; return (passed, failed)."""
    print(_MARK, "FILE", name)
    gc.collect()
    try:
        mod = __import__(name)
    except (Exception, SystemExit) as e:
        _fail("<import>", e)
        return 0, 1
    ports = getattr(mod, "PORTS", None)
    if ports is not None and port not in ports:
        print(_MARK, "SKIP", "PORTS = %r" % (ports,))
        return 0, 0
    passed = failed = 0
    names = sorted(n for n in dir(mod) if n.startswith("test_"))
    for n in names:
        fn = getattr(mod, n)
        if not callable(fn):
            continue
        gc.collect()
        try:
            fn()
        except (Exception, SystemExit) as e:
            failed += 1
            _fail(n, e)
        else:
            passed += 1
            print(_MARK, "PASS", n)
    return passed, failed


def main(names, port):
    """Run the modules named; print the DONE marker with the totals."""
    passed = failed = 0
    for name in names:
        p, f = run(name, port)
        passed += p
        failed += f
    print(_MARK, "DONE", passed, failed)
