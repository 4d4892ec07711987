"""The save text: a game written down and read back, checksums that catch a
torn or flipped file, and every number bounded by the layout."""

import check
from attila.errors import AttilaError
from attila.game.geometry import from_rows
from attila.game.notation import log, replay
from attila.game.rules import HUNS, Game
from attila.saves.savetext import checksum, current, dump, fold, journal_ops, restore, unpack

RECT = from_rows(["....."] * 4)
GAME = "@a1 @b1 @c1 @d1 @e1 @a2 a1-c2,a1 b1-d2,b1 c1-e2"


def game(text):
    return replay(Game(RECT), text)


def test_dump_and_restore():
    g = game(GAME)
    text = dump(g)
    assert text == (
        "attila-save 1\nrows ...../...../...../.....\nfirst R\ntiles 14\nlog " + GAME + "\n"
    )
    back = restore(text, RECT)
    assert log(back) == GAME
    assert back.knights == g.knights and back.phase == g.phase and back.lifted == g.lifted
    h = Game(RECT, HUNS, 9)
    back = restore(dump(h))
    assert back.first == HUNS and back.supply == 9 and back.layout == RECT


def test_restore_rejects_bad_saves():
    good = dump(game(GAME))
    assert "first line" in check.raises(AttilaError, restore, "attila-save 2\n", RECT)
    other = from_rows(["....", "....", "....", "....", "...."])
    assert "layout" in check.raises(AttilaError, restore, good, other)
    bad = good.replace("a1-c2", "a1-c3")
    assert "log item 7" in check.raises(AttilaError, restore, bad, RECT)
    assert "tiles" in check.raises(AttilaError, restore, good.replace("tiles 14\n", ""), RECT)


def full_save():
    new = dump(game(GAME))
    return (new + "end %d\n" % checksum(new)).encode()


def flips(byte):
    """An ASCII letter, high bytes and NUL that differ from `byte`."""
    return [b for b in (ord("Z"), ord("q"), 0xE9, 0xFF, 0) if b != byte][:4]


def test_restore_bounds_every_number_by_the_layout():
    good = dump(game(GAME))
    for tiles in ("99999999999999999999", "21", "-1", "+3", " 3", "1_0", "3.0", ""):
        bad = good.replace("tiles 14", "tiles " + tiles)
        assert "tiles must be a whole number 0..20" in check.raises(AttilaError, restore, bad), tiles
    assert restore(good.replace("tiles 14", "tiles 20")).supply == 20
    assert restore(dump(Game(RECT, 0, 0)), RECT).supply == 0
    huge = good.replace("...../...../...../.....", "/".join(["-" * 27] * 3))
    assert "rows" in check.raises(AttilaError, restore, huge)
    many = good.replace("...../...../...../.....", "/".join(["."] * 27))
    assert "more than 26 ranks" in check.raises(AttilaError, restore, many)
    odd = good.replace("...../.....", "..Q../.....", 1)
    assert "not a row" in check.raises(AttilaError, restore, odd)


def test_every_byte_of_a_save_body_changed_under_a_good_checksum():
    # What a checksum cannot catch (a save written wrong): restore() gives a
    # game or one clear AttilaError, never another error, never a heap blow-up.
    body = dump(game(GAME)).encode()
    for k in range(len(body)):
        for b in flips(body[k]):
            text = body[:k] + bytes([b]) + body[k + 1:]
            data = text + b"end %d\n" % checksum("".join(chr(c) for c in text))
            try:
                saved = unpack(data)
            except AttilaError:
                assert b < 32 or b > 126 or k == len(body) - 1, (k, b)
                continue
            try:
                restore(saved, RECT)
            except AttilaError:
                pass


def test_check_reads_only_whole_saves():
    good = full_save()
    assert unpack(good) == dump(game(GAME))
    for data, why in (
        (b"", "no checksum line"),
        (good[:-1], "no checksum line"),
        (good.replace(b"a1-c2", b"a1-c3"), "checksum does not match"),
        (good.replace(b"first R", b"first \xc3"), "byte 50 is 195"),
        (good + b"x" * 4096, "longer than 4096 bytes"),
        (good[:-2] + b"99999999999\n", "checksum does not match"),
    ):
        assert why in check.raises(AttilaError, unpack, data), why


def test_fold_ends_the_journal_at_a_line_that_does_not_apply():
    g = game("@a1 @b1")
    assert fold(dump(g), []) == (dump(g), 0)
    assert fold(dump(g), ["@c1", "u", "@c1", "@d1"]) == (dump(game("@a1 @b1 @c1 @d1")), 4)
    # A NEW line that is not one ends the journal there.
    assert fold(dump(g), ["@c1", "nX9", "@d1"]) == (dump(game("@a1 @b1 @c1")), 1)
    assert fold(dump(g), ["n", "nR99"]) == (dump(g), 0)
    fresh = Game(RECT, HUNS, 9)
    fresh.place(RECT.index("e4"))
    assert fold(dump(g), ["nH9", "@e4"]) == (dump(fresh), 2)


def line(gen, op):
    head = "%d %s" % (gen, op)
    return ("%s %d\n" % (head, checksum(head))).encode()


def test_journal_ops_reads_one_generation_up_to_a_torn_line():
    lines = line(3, "@a1") + line(3, "b1-c3") + line(3, "u")
    assert journal_ops(lines, 3) == (["@a1", "b1-c3", "u"], True)
    assert journal_ops(b"", 3) == ([], True)
    # A line of an older save (the journal was not emptied) is skipped.
    assert journal_ops(line(2, "@e4") + lines, 3) == (["@a1", "b1-c3", "u"], False)
    # A torn last line, a wrong checksum, a line not ours: the journal ends there.
    assert journal_ops(lines[:-1], 3) == (["@a1", "b1-c3"], False)
    assert journal_ops(line(3, "@a1") + line(3, "@b1").replace(b"@b1", b"@c1") + line(3, "@d1"),
                       3) == (["@a1"], False)
    assert journal_ops(line(3, "@a1") + b"\xff\n" + line(3, "@d1"), 3) == (["@a1"], False)


def test_current_is_a_fetched_save_with_its_journal_carried_out():
    text = dump(game("@a1 @b1")) + "gen 3\n"
    save = (text + "end %d\n" % checksum(text)).encode()
    assert current(save) == dump(game("@a1 @b1"))
    assert current(save, line(3, "@c1") + line(2, "@d1")) == dump(game("@a1 @b1 @c1"))
    assert "checksum" in check.raises(AttilaError, current, save[:-2] + b"0\n")
