"""Which boards sit on each side of a room, from their `at` and `off` messages.

Every party has a board id of its own (8 hex digits, made once and kept
with the room's game number: attila.online.party), carried in its `at`
and `off`. Each party hears both sides' `at` topics, its own included:

- an `at` on its own side from another id: another board plays this side
  (two boards flashed for the Huns, say). Both are told, since each hears
  the other's `at` (retained, or sent when it joins), and neither sends
  its actions until the other has gone (its `off`, sent by the broker
  when it drops);
- an `at` on the other side from a second id while the first is online:
  two boards play the other side. Their positions are not compared then
  (they may differ; they are not this board's disagreement).

A party that gives no id (its at's last field '-') counts as one board.
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
