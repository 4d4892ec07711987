"""Helpers for the portable tests (CPython and MicroPython alike).

Portable test convention (tests/portable/test_*.py):
- a module with plain ``def test_*():`` functions that use ``assert``;
- it imports only ``attila.*`` and ``check`` (no pytest, no host modules);
- pytest collects it on CPython, ``tools/mpytest.py unix|wasm`` runs it under
  real MicroPython (functions in name order, one interpreter per file);
- a module-level ``PORTS = ("unix",)`` limits a file to the MicroPython ports
  named (``"unix"``, ``"wasm"``); CPython always runs it;
- a test that does not apply on this interpreter calls ``check.skip(reason)``
  (never a bare ``return``): pytest and tools/mpytest.py count it as skipped
  and print the reason, so it is never taken for a pass.

MicroPython prints a bare ``AssertionError`` for ``assert a == b``; give the
values as the message (``assert a == b, (a, b)``) when they help.
"""

import sys


class Skipped(Exception):
    """Raised by skip() outside pytest; tests/portable/runner.py counts it."""


def skip(reason):
    """Stop this test: it does not apply here (the reason says why)."""
    pytest = sys.modules.get("pytest")
    if pytest is not None:  # CPython under pytest: a pytest skip, with its reason
        try:  # reported at the test's line, not here
            exc = pytest.skip.Exception(reason, _use_item_location=True)
        except TypeError:  # a pytest without that option
            exc = pytest.skip.Exception(reason)
        raise exc
    raise Skipped(reason)


def raises(exc_type, fn, *args, **kw):
    """Call ``fn(*args, **kw)``; return the message of the ``exc_type`` it raises.

    Raises AssertionError when nothing is raised or when an exception of
    another type escapes (its type and message are named).
    """
    try:
        fn(*args, **kw)
    except exc_type as e:
        return str(e)
    except Exception as e:
        raise AssertionError(
            "expected %s, got %s: %s" % (exc_type.__name__, type(e).__name__, e)
        )
    raise AssertionError("expected %s, nothing was raised" % exc_type.__name__)
