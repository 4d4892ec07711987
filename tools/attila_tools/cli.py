"""The `attila` command (placeholder until the CLI lands)."""
import sys


def main(argv=None):
    print("attila: not yet", file=sys.stderr)
    return 2
