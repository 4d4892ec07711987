"""What the core needs from MicroPython, with a CPython fallback.

MicroPython's compiler folds `X = const(n)` by the name `const` alone, so
modules import it from here and still get the folding on the board.
"""

try:
    from micropython import const  # noqa: F401
except ImportError:

    def const(value):  # type: ignore[misc]  # CPython stand-in for the builtin
        """Identity on CPython."""
        return value
