"""argparse for the `attila` commands: a bad option is one line, exit status 2.

argparse's own error() prints the whole usage block before its message; the
docs promise one line naming the command, what is wrong and where to look:

    attila flash: unrecognized arguments: --bogus (see attila flash --help)

Parser raises it as a UsageError, which attila_tools.cli.main prints with
every other error of the tools (attila_tools.errors).
"""

import argparse

from attila_tools.errors import UsageError


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are a one-line UsageError (exit status 2)."""

    def error(self, message):
        raise UsageError("%s (see %s --help)" % (message, self.prog), self.prog)


class PositionParser(Parser):
    """A Parser that takes positions as arguments: a row may start with '-'
    (no square), as in '--..R/..... R'. No option holds '/' or '.', so such
    an argument is positional."""

    def _parse_optional(self, arg_string):
        if "/" in arg_string or "." in arg_string.split("=")[0]:
            return None
        return super()._parse_optional(arg_string)
