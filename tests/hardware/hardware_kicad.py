"""What the hardware tests do where KiCad (or its libraries) is missing: skip
and say why, except under CI=true, where a green run must have checked the
boards: there they fail."""

import os

import pytest


def need(why):
    """Skip (or, under CI=true, fail) with `why` when it is not empty."""
    if not why:
        return
    if os.environ.get("CI") == "true":
        pytest.fail("CI=true and %s: the boards' KiCad checks would not run" % why)
    pytest.skip(why)
