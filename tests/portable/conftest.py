"""The portable tests under pytest (tools/mpytest.py runs them on MicroPython)."""

# runner.py is the on-device runner used by tools/mpytest.py, not a test module.
collect_ignore = ["runner.py"]
