"""Which boards sit on each side of a room, from their `at` and `off` messages.

Every party has a board id of its own, carried in its `at` and `off`: a
second board on one side is told on both and sends nothing until the
other has gone; two boards on the other side are not compared.

Why it is built this way: docs/pages/inside/design.md (attila/online/seats.py).
"""


class Seats:
    """The boards heard on each side: `twin` (another board on our side),
    `them` (the other side's board), `crowd` (a second one there); '' none."""

    def __init__(self, mine):
        self.mine = mine
        self.twin = ""
        self.them = ""
        self.crowd = ""

    def ours(self, online, board):
        """An `at` (online True) or `off` of our own side; True when the
        twin changed."""
        if board == self.mine or not board:
            return False  # ours (sent back by the broker), or a board without an id
        before = self.twin
        if online:
            self.twin = board
        elif board == self.twin:
            self.twin = ""
        return self.twin != before

    def theirs(self, online, board):
        """An `at` or `off` of the other side; True while the other side is
        online (one of its boards)."""
        board = board or "-"
        if online:
            if not self.them or board == self.them:
                self.them = board
            elif board != self.crowd:
                self.crowd = board
        elif board == self.crowd:
            self.crowd = ""
        elif board == self.them:
            self.them, self.crowd = self.crowd, ""
        return self.them != ""


def new_id():
    """8 hex digits, random: this board's id in the room."""
    try:
        import os

        data = os.urandom(4)
    except (ImportError, AttributeError, OSError, NotImplementedError):
        import random  # (seeded by the port: the rp2's ring oscillator, the host's entropy)

        data = bytes(random.getrandbits(8) for _ in range(4))
    return "%02x%02x%02x%02x" % (data[0], data[1], data[2], data[3])


def is_id(text):
    """True for 8 lowercase hex digits."""
    if not isinstance(text, str) or len(text) != 8:
        return False
    for ch in text:
        if ch not in "0123456789abcdef":
            return False
    return True
