"""Every recorded choice of the recursive search, with the portable kernel (CPython).

tests/portable/test_opponent_choices.py runs them on MicroPython: all of
them with the viper kernel (unix), the small budgets on WebAssembly.
"""

from test_opponent_choices import BIG, check_all  # (tests/portable)

from attila.opponent.planner import Planner
from attila.opponent import search


def test_every_recorded_choice_with_the_portable_kernel():
    assert not search.NATIVE  # CPython has no micropython module
    assert check_all(Planner(budget_ms=BIG), 20000) == 629
