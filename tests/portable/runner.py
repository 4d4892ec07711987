"""On-device runner for the portable tests (used by tools/mpytest.py).

``runner.main(["test_smoke", ...], "unix")`` imports each module, runs its
``test_*`` functions in name order and prints one marker line per outcome,
which the host parses:

    @@mpytest FILE <module>
    @@mpytest PASS <test>
    @@mpytest FAIL <test>        then the traceback, then  @@mpytest END
    @@mpytest SKIPPED <test> <reason>   the test called check.skip(reason)
    @@mpytest SKIP <reason>      the module's PORTS marker excludes this port
                                 (then a SKIPPED line for each of its tests)
    @@mpytest DONE <passed> <failed> <skipped>

Anything else a test prints goes to the output as it is. Runs on
MicroPython (any port) and CPython.
"""

import gc
import sys

from check import Skipped

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
    """Run one test module; return (passed, failed, skipped)."""
    print(_MARK, "FILE", name)
    gc.collect()
    try:
        mod = __import__(name)
    except (Exception, SystemExit) as e:
        _fail("<import>", e)
        return 0, 1, 0
    names = sorted(n for n in dir(mod) if n.startswith("test_") and callable(getattr(mod, n)))
    ports = getattr(mod, "PORTS", None)
    if ports is not None and port not in ports:
        reason = "PORTS = %r" % (ports,)
        print(_MARK, "SKIP", reason)
        for n in names:
            print(_MARK, "SKIPPED", n, reason)
        return 0, 0, len(names)
    passed = failed = skipped = 0
    for n in names:
        gc.collect()
        try:
            getattr(mod, n)()
        except Skipped as e:
            skipped += 1
            print(_MARK, "SKIPPED", n, e.args[0] if e.args else "")
        except (Exception, SystemExit) as e:
            failed += 1
            _fail(n, e)
        else:
            passed += 1
            print(_MARK, "PASS", n)
    return passed, failed, skipped


def main(names, port):
    """Run the modules named; print the DONE marker with the totals."""
    passed = failed = skipped = 0
    for name in names:
        p, f, s = run(name, port)
        passed += p
        failed += f
        skipped += s
    print(_MARK, "DONE", passed, failed, skipped)
