"""Online messages: the exact line, its signature, and clear errors for what is not one."""

import check
from attila.online import message as msg
from attila.online.message import ACT, AT, FORGED, MALFORMED, UNSIGNED, Message, MessageError

SECRET = "7fk2m9xq"


def line(m, secret=SECRET):
    return m.text(secret).encode()


def why(data, secret=SECRET):
    try:
        msg.read(data, secret)
    except MessageError as e:
        return e.why, str(e)
    raise AssertionError("read %r" % data)


def test_hmac_sha256_is_rfc_4231s():
    # RFC 4231, test case 2: key "Jefe".
    got = msg._hex(msg._hmac().new(b"Jefe", b"what do ya want for nothing?",
                                   msg.hashlib.sha256).digest())
    assert got == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", got


def test_an_action_line_field_by_field():
    m = Message(ACT, "castle", 0, 1, 7, "3f2a9c0d11e4b7a2", "b1-c3,d4")
    text = m.text(SECRET)
    body = "A1 act castle R 1 7 3f2a9c0d11e4b7a2 b1-c3,d4"
    assert text == body + " " + msg.sign(SECRET, body), text
    assert len(text) == len(body) + 65
    back = msg.read(text.encode(), SECRET)
    assert (back.kind, back.room, back.side, back.game, back.number, back.digest, back.action) \
        == (ACT, "castle", 0, 1, 7, "3f2a9c0d11e4b7a2", "b1-c3,d4")


def test_where_a_board_is():
    m = Message(AT, "castle", 1, 2, 0, "0123456789abcdef")
    assert m.body() == "A1 at castle H 2 0 0123456789abcdef -"
    back = msg.read(line(m), SECRET)
    assert (back.kind, back.side, back.number, back.action) == (AT, 1, 0, "")


def test_the_signature_covers_every_field():
    m = Message(ACT, "castle", 0, 1, 7, "3f2a9c0d11e4b7a2", "b1-c3,d4")
    good = m.text(SECRET)
    for k, ch in enumerate(good[:-65]):
        if ch == " ":
            continue
        swap = "0" if ch != "0" else "1"
        tampered = (good[:k] + swap + good[k + 1:]).encode()
        try:
            msg.read(tampered, SECRET)
        except MessageError:
            continue
        raise AssertionError("a change at %d went through: %s" % (k, tampered))


def test_a_wrong_secret_is_forged():
    m = Message(ACT, "castle", 0, 1, 1, "0123456789abcdef", "@b1")
    assert why(line(m, "another-secret")) == (FORGED, "message: the signature does not match")


def test_unsigned_and_malformed_say_what():
    m = Message(ACT, "castle", 0, 1, 1, "0123456789abcdef", "@b1")
    assert why(m.body().encode()) == (UNSIGNED, "message: not signed")
    assert why(m.body().encode() + b" " + b"z" * 64) == (UNSIGNED, "message: not signed")
    assert why(b"hello") == (MALFORMED, "message: 1 fields, a message has 9")
    assert why(b"A1 act\x00") == (MALFORMED, "message: byte 0 is not plain text")
    assert why(b"x" * 201) == (MALFORMED, "message: longer than 200 bytes")
    signed = lambda body: (body + " " + msg.sign(SECRET, body)).encode()
    assert why(signed("A2 act castle R 1 1 0123456789abcdef @b1")) == (
        MALFORMED, "message: version 'A2', this board speaks A1")
    assert why(signed("A1 act castle X 1 1 0123456789abcdef @b1")) == (
        MALFORMED, "message: side 'X' must be R or H")
    assert why(signed("A1 act castle R 0 1 0123456789abcdef @b1")) == (
        MALFORMED, "message: the game number must be a whole number 1..99999, not '0'")
    assert why(signed("A1 act castle R 1 x 0123456789abcdef @b1")) == (
        MALFORMED, "message: the action number must be a whole number 1..99999, not 'x'")
    assert why(signed("A1 act castle R 1 1 0123 @b1")) == (
        MALFORMED, "message: the position's hash '0123' is not 16 hex digits")
    assert why(signed("A1 act castle R 1 1 0123456789abcdef b1")) == (
        MALFORMED, "message: action 'b1': expected @SQUARE or FROM-TO,SCORCH")
    assert why(signed("A1 act castle R 1 1 0123456789abcdef b1;rm")) == (
        MALFORMED, "message: action 'b1;rm': only squares, @, - and , belong in it")
    assert why(signed("A1 go castle R 1 1 0123456789abcdef @b1")) == (
        MALFORMED, "message: kind 'go' is none of act, at, off")
    assert why(signed("A1 at castle R 1 1 0123456789abcdef @b1")) == (
        MALFORMED, "message: at carries its board's id (8 hex digits) or -, not '@b1'")
    assert why(signed("A1 off castle R 1 1 0123456789abcdef 5e0b77a")) == (
        MALFORMED, "message: off carries its board's id (8 hex digits) or -, not '5e0b77a'")


def test_at_and_off_carry_the_senders_board():
    m = Message(AT, "castle", 1, 1, 6, "0123456789abcdef", board="5e0b77a1")
    assert m.body() == "A1 at castle H 1 6 0123456789abcdef 5e0b77a1"
    got = msg.read(line(m), SECRET)
    assert (got.kind, got.board, got.action) == (AT, "5e0b77a1", "")
    got = msg.read(line(Message(AT, "castle", 1, 1, 6, "0123456789abcdef")), SECRET)
    assert got.board == "" and got.action == ""  # (a board that gives none)


def test_room_codes():
    assert msg.room_code("castle-7fk2m9xq") == ("castle", "7fk2m9xq")
    assert msg.room_code("a_1-with-dash") == ("a_1", "with-dash")
    assert check.raises(msg.AttilaError, msg.room_code, "castle") == \
        "room code 'castle': expected ROOM-SECRET, like castle-7fk2m9xq"
    assert check.raises(msg.AttilaError, msg.room_code, "Castle-7fk2m9xq") == \
        "room code: the room 'Castle' must be 1 to 24 of a-z, 0-9 and _"
    assert check.raises(msg.AttilaError, msg.room_code, "castle-short") == \
        "room code: the secret after 'castle'- must have 8 to 64 characters, not 5"
    assert check.raises(msg.AttilaError, msg.room_code, "castle-with space") == \
        "room code: the secret must be printable characters without spaces"


def test_same_compares_whole_texts():
    assert msg.same("abc", "abc")
    assert not msg.same("abc", "abd")
    assert not msg.same("abc", "ab")
