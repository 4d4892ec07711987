"""What the simulated board tells once as a whole: its own action, before the steps.

The rig's Board writes to a Heard as a board writes to its serial port
(attila.board, attila.console): status lines, which the rig reads from the
controller itself (Rig.status), and the lines told once (the Board's
console.tell: the board's own action in notation and in words,
attila.play.words.decision), kept here for text mode to print once and for
the window's panel to show while the hands carry the action out.
"""


class Heard:
    """The console of a simulated Board: keeps the lines it is told."""

    def __init__(self):
        self.last = ""  # the line told last
        self._unread = []  # told since unread() last gave them

    def __call__(self, text):
        pass  # a status line: the rig asks the controller for it (Rig.status)

    def tell(self, text):
        self.last = text
        self._unread.append(text)

    def unread(self):
        """The lines told since the last call, oldest first (printed once)."""
        out = self._unread
        self._unread = []
        return out

    def telling(self, controller):
        """The board's own action as told, while it is the one to carry out ("")."""
        if self.last and controller.own() and controller.plan.ready():
            return self.last
        return ""
