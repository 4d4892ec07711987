"""Hypothesis settings for every test folder.

On CI (CI=true) the property tests run derandomized: the same examples on
every run, so a submission's result does not depend on luck. On a
developer's machine they explore new examples each time.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
