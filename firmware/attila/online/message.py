"""What one online message says, signed, and how a received one is read.

One line of plain ASCII, signed with the room's secret (HMAC-SHA256);
read() checks the signature before it believes any field.

Why it is built this way: docs/pages/inside/design.md (attila/online/message.py).
"""

import hashlib

from attila.compat import const
from attila.errors import AttilaError

VERSION = "A1"
ACT = "act"
AT = "at"
OFF = "off"
KINDS = (ACT, AT, OFF)
MAX_BYTES = const(200)  # the longest message ours can be, with room to spare
SIG_HEX = const(64)
DIGEST_HEX = const(16)
MAX_NUMBER = const(99999)
MAX_ROOM = const(24)
MIN_SECRET = const(8)
MAX_SECRET = const(64)
BOARD_HEX = const(8)

# Why a received message was not taken (MessageError.why).
MALFORMED = const(0)
UNSIGNED = const(1)
FORGED = const(2)


class MessageError(AttilaError):
    """A received message that is not taken; `why`: MALFORMED, UNSIGNED or FORGED."""

    def __init__(self, text, why=MALFORMED):
        super().__init__(text)
        self.why = why


def _hmac():
    """The hmac module: CPython's own, or micropython-lib's (firmware/lib)."""
    import hmac

    return hmac


def _hex(data):
    out = ""
    for b in data:
        out += "0123456789abcdef"[b >> 4] + "0123456789abcdef"[b & 15]
    return out


def sign(secret, body):
    """The 64 hex digits of HMAC-SHA256(secret, body); both are text."""
    return _hex(_hmac().new(secret.encode(), body.encode(), hashlib.sha256).digest())


def digest(text):
    """The first 16 hex digits of SHA-256 of a text (a position key)."""
    return _hex(hashlib.sha256(text.encode()).digest()[:DIGEST_HEX // 2])


def same(a, b):
    """True when the two texts are equal, in a time that does not tell where
    they first differ (a forger learns nothing from how fast a check fails)."""
    if len(a) != len(b):
        return False
    d = 0
    for k in range(len(a)):
        d |= ord(a[k]) ^ ord(b[k])
    return d == 0


def _room_chars(room):
    for ch in room:
        if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch == "_"):
            return False
    return True


def room_code(code):
    """(room, secret) of a room code 'ROOM-SECRET'; AttilaError says what is wrong.

    The room (1 to 24 of a-z, 0-9 and _) names the topics; the secret (8 to
    64 printable characters, no space) signs every message and never travels.
    """
    if not isinstance(code, str):
        raise AttilaError("room code must be text like castle-7fk2m9xq")
    room, dash, secret = code.partition("-")
    if not dash or not room or not secret:
        raise AttilaError("room code %r: expected ROOM-SECRET, like castle-7fk2m9xq" % code[:40])
    if len(room) > MAX_ROOM or not _room_chars(room):
        raise AttilaError("room code: the room %r must be 1 to %d of a-z, 0-9 and _"
                          % (room[:40], MAX_ROOM))
    if not MIN_SECRET <= len(secret) <= MAX_SECRET:
        raise AttilaError("room code: the secret after %r- must have %d to %d characters, "
                          "not %d" % (room, MIN_SECRET, MAX_SECRET, len(secret)))
    for ch in secret:
        if not "!" <= ch <= "~":
            raise AttilaError("room code: the secret must be printable characters without "
                              "spaces")
    return room, secret


class Message:
    """One message's fields (see the module's docstring): kind, room, side (0
    Romans, 1 Huns), game, number, digest, action ('' for at and off), board
    (the sender's board id of an at or off; '' when it gave none)."""

    def __init__(self, kind, room, side, game, number, digest, action="", board=""):
        self.kind = kind
        self.room = room
        self.side = side
        self.game = game
        self.number = number
        self.digest = digest
        self.action = action
        self.board = board

    def body(self):
        """The signed part of the line."""
        return "%s %s %s %s %d %d %s %s" % (VERSION, self.kind, self.room, "RH"[self.side],
                                             self.game, self.number, self.digest,
                                             self.action or self.board or "-")

    def text(self, secret):
        """The whole line, signed with the room's secret."""
        body = self.body()
        return body + " " + sign(secret, body)


def _number(field, what, low=0):
    if not field.isdigit() or len(field) > 5 or not low <= int(field) <= MAX_NUMBER:
        raise MessageError("message: %s must be a whole number %d..%d, not %r"
                           % (what, low, MAX_NUMBER, field[:12]))
    return int(field)


def _is_hex(text, n):
    if len(text) != n:
        return False
    for ch in text:
        if ch not in "0123456789abcdef":
            return False
    return True


def _action(field):
    """The action field: '@b1' or 'b1-c3,d4' shapes (squares checked by the game)."""
    if len(field) > 16:
        raise MessageError("message: action %r is too long" % field[:16])
    for ch in field:
        if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch in "@-,"):
            raise MessageError("message: action %r: only squares, @, - and , belong in it"
                               % field)
    if field[:1] == "@" or ("-" in field and "," in field):
        return field
    raise MessageError("message: action %r: expected @SQUARE or FROM-TO,SCORCH" % field)


def read(data, secret):
    """The Message a received line holds, its signature checked first;
    MessageError (with its `why`) says why it is not taken."""
    if len(data) > MAX_BYTES:
        raise MessageError("message: longer than %d bytes" % MAX_BYTES)
    for b in data:
        if b < 32 or b > 126:
            raise MessageError("message: byte %d is not plain text" % b)
    line = bytes(data).decode()
    fields = line.split(" ")
    if len(fields) == 8 or (len(fields) == 9 and not _is_hex(fields[8], SIG_HEX)):
        raise MessageError("message: not signed", UNSIGNED)
    if len(fields) != 9:
        raise MessageError("message: %d fields, a message has 9" % len(fields))
    body = line[:-SIG_HEX - 1]
    if not same(sign(secret, body), fields[8]):
        raise MessageError("message: the signature does not match", FORGED)
    version, kind, room, side = fields[0], fields[1], fields[2], fields[3]
    if version != VERSION:
        raise MessageError("message: version %r, this board speaks %s" % (version[:8], VERSION))
    if kind not in KINDS:
        raise MessageError("message: kind %r is none of act, at, off" % kind[:8])
    if side not in ("R", "H"):
        raise MessageError("message: side %r must be R or H" % side[:4])
    game = _number(fields[4], "the game number", 1)
    number = _number(fields[5], "the action number", 1 if kind == ACT else 0)
    if not _is_hex(fields[6], DIGEST_HEX):
        raise MessageError("message: the position's hash %r is not %d hex digits"
                           % (fields[6][:20], DIGEST_HEX))
    action = _action(fields[7]) if kind == ACT else ""
    board = "" if kind == ACT or fields[7] == "-" else fields[7]
    if board and not _is_hex(board, BOARD_HEX):
        raise MessageError("message: %s carries its board's id (%d hex digits) or -, not %r"
                           % (kind, BOARD_HEX, fields[7][:16]))
    return Message(kind, room, "RH".index(side), game, number, fields[6], action, board)
