"""Saving the game: the text format, and a power cut at every byte of a save."""

import check
from attila.errors import AttilaError
from attila.geometry import from_rows
from attila.notation import log, replay
from attila.rules import HUNS, Game
from attila.store import Store, checksum, dump, restore
from fakefs import FakeFs, PowerCut

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


def test_save_and_load():
    fs = FakeFs()
    store = Store("/game.txt", fs)
    assert store.load() is None
    store.save("hello\n")
    assert fs.files == {"/game.txt": "hello\nend %d\n" % checksum("hello\n")}
    assert Store("/game.txt", fs).load() == "hello\n"
    store.clear()
    assert fs.files == {} and store.load() is None
    store.clear()  # nothing to clear: fine


def test_power_cut_at_every_byte_keeps_the_last_complete_save():
    old = dump(game(GAME))
    new = dump(game(GAME + ",c1"))
    size = len(new) + len("end %d\n" % checksum(new))
    for k in range(size):
        fs = FakeFs()
        Store("/g", fs).save(old)
        fs.cut_save, fs.cut_byte = 2, k  # the next save loses power after k bytes
        try:
            Store("/g", fs).save(new)
            assert False, "the power cut did not happen"
        except PowerCut:
            pass
        assert len(fs.files["/g.tmp"]) == k
        assert Store("/g", fs).load() == old, k
    # The whole file written, the power goes before the rename: still the old one.
    fs = FakeFs()
    Store("/g", fs).save(old)
    fs.cut_save = 2  # the next save loses power just before its rename
    try:
        Store("/g", fs).save(new)
    except PowerCut:
        pass
    assert Store("/g", fs).load() == old
    fs.power_back()
    Store("/g", fs).save(new)
    assert Store("/g", fs).load() == new and "/g.tmp" not in fs.files


def test_a_torn_save_file_is_never_read_as_a_game():
    # A file system that lost the tail of the file after the rename.
    new = dump(game(GAME))
    full = new + "end %d\n" % checksum(new)
    for k in range(len(full)):
        fs = FakeFs()
        fs.files["/g"] = full[:k]
        assert Store("/g", fs).load() is None, k
    # One flipped character is caught by the checksum.
    fs = FakeFs()
    fs.files["/g"] = full.replace("a1-c2", "a1-c3")
    assert Store("/g", fs).load() is None
    # A cut between removing the old file and renaming: the complete .tmp counts.
    fs = FakeFs()
    fs.files["/g.tmp"] = full
    assert Store("/g", fs).load() == new
