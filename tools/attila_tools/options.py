"""argparse for the `attila` commands: a bad option is one line, exit status 2.

argparse's own error() prints the whole usage block before its message; the
docs promise one line naming the command, what is wrong and where to look:

    attila flash: unrecognized arguments: --bogus (see attila flash --help)
"""

import argparse
import sys


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2."""

    def error(self, message):
        sys.stderr.write("%s: %s (see %s --help)\n" % (self.prog, message, self.prog))
        sys.exit(2)
