"""Attila board: the portable core.

Pure Python that runs unchanged on MicroPython and CPython. Nothing in this
package touches hardware; ports hand it sensor readings and a clock and take
LED frames back.
"""

VERSION = "0.1.0"
