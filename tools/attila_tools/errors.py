"""The tools' errors: one base, one line, one place that prints it.

A command raises a ToolError (or the core's AttilaError: a bad layout,
position or save) for anything the user must fix; attila_tools.cli.main
catches both, prints one line, `attila COMMAND: what is wrong and where`,
and exits with the error's status: 2 for bad input, 1 for a board that
failed on the way (DeviceError). No command prints its own errors.

A file the user named that cannot be used (attila_tools.files.FileError)
is the core's kind, an AttilaError like a bad layout: the simulator and the
board page, which runs files.py on MicroPython, catch it with the core's
errors, and MicroPython's classes take one exception base, not two.
"""


class ToolError(Exception):
    """A failure the user can act on; the message is the line shown after
    the command's name (`prog` names another command when it is not the one
    run, as `attila perft` inside `attila`)."""

    status = 2

    def __init__(self, message, prog=None):
        Exception.__init__(self, message)
        self.prog = prog


class UsageError(ToolError):
    """Arguments that do not make a command (missing, contradictory, out of range)."""
