"""Let pytest import the portable tests' helper module ``check`` (and ``attila``)."""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(_HERE)), "firmware")
for _path in (_HERE, _FIRMWARE):
    if _path not in sys.path:
        sys.path.insert(0, _path)

# runner.py is the on-device runner used by tools/mpytest.py, not a test module.
collect_ignore = ["runner.py"]
