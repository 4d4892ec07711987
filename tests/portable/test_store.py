"""The save on flash: a power cut at every byte of a save, damaged saves
(every byte of one flipped, on real files) kept aside, the journal between
whole saves (the text itself: test_savetext.py)."""

import check
from attila.errors import AttilaError
from attila.game.geometry import from_rows
from attila.game.rules import HUNS, Game
from attila.saves.savetext import MAX_NOTES, checksum, dump, restore
from attila.saves.archive import GAMES_KEPT, game_number
from attila.saves.store import DAMAGED, FOREIGN, MISSING, SAVE, MemoryStore, Store, probe
from fakefs import FakeFs, PowerCut, Scratch
from test_savetext import GAME, RECT, flips, full_save, game


def cut_saving(store, text):
    """store.save(text) on a FakeFs set to lose power in it: the cut must come."""
    try:
        store.save(text)
    except PowerCut:
        return
    assert False, "the power cut did not happen"


def test_save_and_load():
    fs = FakeFs()
    store = Store("/game.txt", fs)
    assert store.load() is None
    store.save("hello\n")
    assert fs.files == {"/game.txt": "hello\ngen 1\nend %d\n" % checksum("hello\ngen 1\n")}
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
        cut_saving(Store("/g", fs), new)
        assert len(fs.files["/g.tmp"]) == k
        assert Store("/g", fs).load() == old, k
    # The whole file written, the power goes before the rename: still the old one.
    fs = FakeFs()
    Store("/g", fs).save(old)
    fs.cut_save = 2  # the next save loses power just before its rename
    cut_saving(Store("/g", fs), new)
    assert Store("/g", fs).load() == old
    fs.power_back()
    Store("/g", fs).save(new)
    assert Store("/g", fs).load() == new and "/g.tmp" not in fs.files


def test_on_littlefs_a_save_over_the_one_on_file_is_written_in_place():
    old = dump(game(GAME))
    new = dump(game(GAME + ",c1"))
    fs = FakeFs(littlefs=True)
    store = Store("/g", fs, in_place=True)
    assert store.load() is None
    store.save(old)  # no save on file: PATH.tmp made, written, renamed
    assert fs.commits == 3 and fs.files == {"/g": fs_text(old + "gen 1\n")}
    store.save(new)  # over it: one commit, no PATH.tmp
    assert fs.commits == 4 and fs.files == {"/g": fs_text(new + "gen 2\n")}
    store = Store("/g", fs, in_place=True)
    assert store.load() == new
    store.save(old)
    assert fs.commits == 5 and fs.files == {"/g": fs_text(old + "gen 3\n")}
    store.clear()  # the save removed: the next one is made through PATH.tmp again
    store.save(new)
    assert fs.commits == 6 + 3 and fs.files == {"/g": fs_text(new + "gen 4\n")}
    # Told nothing (FAT, a host's files), the store always renames.
    store = Store("/g", fs)
    assert store.load() == new
    store.save(old)
    assert fs.commits == 9 + 3


def test_on_littlefs_a_power_cut_in_a_save_written_in_place_keeps_the_last_one():
    old = dump(game(GAME))
    new = dump(game(GAME + ",c1"))
    size = len(new) + len("gen 2\nend %d\n" % checksum(new + "gen 2\n"))
    for k in range(size):
        fs = FakeFs(littlefs=True)
        store = Store("/g", fs, in_place=True)
        store.save(old)
        fs.cut_save, fs.cut_byte = 2, k  # the next save loses power after k bytes
        cut_saving(store, new)
        assert fs.files == {"/g": fs_text(old + "gen 1\n")}, k
        fs.power_back()
        assert Store("/g", fs, in_place=True).load() == old, k
    fs = FakeFs(littlefs=True)
    store = Store("/g", fs, in_place=True)
    store.save(old)
    fs.cut_save, fs.cut_byte = 2, size  # the whole text written: closed, committed
    store.save(new)
    assert Store("/g", fs, in_place=True).load() == new


def test_a_torn_save_file_is_never_read_as_a_game():
    # A file system that lost the tail of the file after the rename.
    new = dump(game(GAME))
    full = new + "end %d\n" % checksum(new)
    for k in range(len(full)):
        fs = FakeFs()
        fs.files["/g"] = full[:k]
        store = Store("/g", fs)
        assert store.load() is None, k
        # Kept aside, whole, never deleted.
        assert store.aside == "/g.bad" and fs.files == {"/g.bad": full[:k]}, k
    # One flipped character is caught by the checksum.
    fs = FakeFs()
    fs.files["/g"] = full.replace("a1-c2", "a1-c3")
    assert Store("/g", fs).load() is None
    assert "/g" not in fs.files and "/g.bad" in fs.files
    # A cut between removing the old file and renaming: the complete .tmp counts.
    fs = FakeFs()
    fs.files["/g.tmp"] = full
    assert Store("/g", fs).load() == new


def test_every_byte_of_a_real_save_flipped_is_kept_aside():
    # Real files of this interpreter's own file system: MicroPython's text
    # reads of invalid UTF-8 differ from CPython's; Store reads bytes.
    good = full_save()
    disk = Scratch()
    try:
        path = disk.path("game.txt")
        disk.write("game.txt", good)
        assert Store(path).load() == good.decode()[: good.rindex(b"end ")]
        for k in range(len(good)):
            for b in flips(good[k]):
                bad = good[:k] + bytes([b]) + good[k + 1:]
                disk.empty()
                disk.write("game.txt", bad)
                assert probe(path) == (DAMAGED if k >= len("attila-save 1\n") else FOREIGN)
                store = Store(path)
                assert store.load() is None, (k, b)
                assert store.aside == path + ".bad", (k, b)
                assert disk.names() == ["game.txt.bad"], (k, b)
                assert disk.read("game.txt.bad") == bad, (k, b)
    finally:
        disk.clean()


def test_a_second_damaged_save_finds_its_own_name():
    fs = FakeFs()
    fs.files["/g"] = b"attila-save 1\n\xff"
    fs.files["/g.bad"] = "an older one"
    store = Store("/g", fs)
    assert store.load() is None and store.aside == "/g.bad1"
    assert fs.files == {"/g.bad": "an older one", "/g.bad1": b"attila-save 1\n\xff"}
    fs.files["/g"] = "not a save either\n"
    assert Store("/g", fs).load() is None
    assert sorted(fs.files) == ["/g.bad", "/g.bad1", "/g.bad2"]


def test_reject_puts_a_refused_save_aside():
    fs = FakeFs()
    other = dump(Game(from_rows(["....", "....", "....", "....", "...."])))
    Store("/g", fs).save(other)
    store = Store("/g", fs)
    text = store.load()
    assert store.aside is None
    assert "layout" in check.raises(AttilaError, restore, text, RECT)
    assert store.reject() == "/g.bad" and store.aside == "/g.bad"
    assert list(fs.files) == ["/g.bad"] and store.load() is None
    # A save found only as the .tmp of a cut rename became the save: it goes aside.
    fs = FakeFs()
    fs.files["/g.tmp"] = fs_text(other)
    store = Store("/g", fs)
    assert store.load() == other
    assert store.reject() == "/g.bad" and list(fs.files) == ["/g.bad"]
    memory = MemoryStore(other)
    assert memory.reject() == memory.aside and memory.load() is None
    assert memory.rejected == other


def fs_text(body):
    return body + "end %d\n" % checksum(body)


def test_probe_tells_ours_from_foreign_files():
    disk = Scratch()
    try:
        path = disk.path("game.txt")
        assert probe(path) == MISSING
        disk.write("game.txt", full_save())
        assert probe(path) == SAVE
        disk.write("game.txt", full_save()[:40])
        assert probe(path) == DAMAGED
        for foreign in (b"", b"# Attila board\n\nAn electronic board\n", b"\xff\xfe\x00",
                        b"attila-save 2\nrows .\n"):
            disk.write("game.txt", foreign)
            assert probe(path) == FOREIGN, foreign
        assert probe(disk.dir) == FOREIGN
        assert disk.read("game.txt") == b"attila-save 2\nrows .\n"  # untouched
    finally:
        disk.clean()


def test_a_board_with_a_damaged_save_starts_a_new_game():
    from attila.play.controller import Controller

    good = full_save()
    body = dump(game(GAME)).replace("tiles 14", "tiles 99999999999999999999")
    for data in (good.replace(b"@e1", b"@e\xff"), good.replace(b"@e1", b"@e\x00"),
                 good[:50], (body + "end %d\n" % checksum(body)).encode()):
        fs = FakeFs()
        fs.files["/game.txt"] = data
        c = Controller(RECT, store=Store("/game.txt", fs))
        assert c.game.history == [] and c.game.supply == 14, data
        # Nothing of it is lost: kept aside, or (a good checksum) left for
        # the controller to put aside with reject().
        assert data in fs.files.values()


def test_a_second_cut_after_a_cut_rename_keeps_the_game():
    # FAT renames over a file by removing it first: a cut between the two
    # leaves the whole save only as .tmp. The next save must not write over it.
    old = dump(game(GAME))
    new = dump(game(GAME + ",c1"))
    for k in range(0, 40, 7):
        fs = FakeFs()
        fs.files["/g.tmp"] = fs_text(old)
        store = Store("/g", fs, journal=True)
        assert store.load() == old
        fs.cut_save, fs.cut_byte = 1, k  # the next save loses power after k bytes
        cut_saving(store, new)
        fs.power_back()
        assert Store("/g", fs, journal=True).load() == old, k


def test_journal_lines_carry_the_game_between_whole_saves():
    fs = FakeFs()
    store = Store("/g", fs, journal=True)
    assert not store.note(["@a1"])  # no whole save yet: the keeper writes one
    store.save(dump(game("@a1 @b1")))
    assert store.note(["@c1"]) and store.note(["@d1", "u", "@e1"])
    assert fs.files["/journal/now/g.jnl"].splitlines()[0] == "1 @c1 %d" % checksum("1 @c1")
    back = Store("/g", fs, journal=True)
    # At power-up the lines become a whole save (its journal made anew).
    assert back.load() == dump(game("@a1 @b1 @c1 @e1")) and back.notes == 0
    assert back.gen == 2 and "/journal/now/g.jnl" not in fs.files and "/journal/now" in fs.dirs
    # Every byte of the next line cut: the game before it, or with it.
    line = "2 @d1 %d\n" % checksum("2 @d1")
    for k in range(len(line) + 1):
        cut = fs.copy()
        board = Store("/g", cut, journal=True)
        board.load()
        if k < len(line):
            cut.cut_save, cut.cut_byte = cut.saves + 1, k
        try:
            assert board.note(["@d1"]) and k == len(line)
        except PowerCut:
            pass
        cut.power_back()
        got = Store("/g", cut, journal=True).load()
        want = "@a1 @b1 @c1 @e1" + (" @d1" if k == len(line) else "")
        assert got == dump(game(want)), (k, got)


def test_a_whole_save_starts_the_journal_afresh_and_old_lines_are_skipped():
    fs = FakeFs()
    store = Store("/g", fs, journal=True)
    store.save(dump(game("@a1")))
    store.note(["@b1", "@c1"])
    stale = fs.files["/journal/now/g.jnl"]
    store.save(dump(game("@a1 @b1 @c1")))
    assert "/journal/now/g.jnl" not in fs.files and store.gen == 2
    # The power went before the old journal was removed: its lines are of gen 1.
    fs.files["/journal/now/g.jnl"] = stale
    back = Store("/g", fs, journal=True)
    assert back.load() == dump(game("@a1 @b1 @c1")) and back.gen == 2
    # Stale lines only: the journal is made anew at power-up, the next keep a line.
    assert back.notes == 0 and "/journal/now/g.jnl" not in fs.files
    assert back.note(["@d1"])
    assert Store("/g", fs, journal=True).load() == dump(game("@a1 @b1 @c1 @d1"))
    # A journal without a whole save is nobody's: removed at power-up.
    fs = FakeFs()
    fs.files["/journal/now/g.jnl"] = stale
    assert Store("/g", fs, journal=True).load() is None and fs.files == {}


def test_a_journal_line_that_does_not_apply_ends_the_journal():
    fs = FakeFs()
    store = Store("/g", fs, journal=True)
    store.save(dump(game("@a1")))
    store.note(["@b1", "@b1", "@c1"])  # the second @b1 is illegal
    back = Store("/g", fs, journal=True)
    # What applies becomes a whole save at power-up; the rest goes with the journal.
    assert back.load() == dump(game("@a1 @b1")) and back.notes == 0 and back.gen == 2
    assert "/journal/now/g.jnl" not in fs.files and back.note(["@c1"])
    assert Store("/g", fs, journal=True).load() == dump(game("@a1 @b1 @c1"))


def test_the_journal_folder_is_made_anew_at_rest_with_room_for_a_generation():
    # littlefs's metadata block takes 16 commits of 256 bytes: the folder's
    # own, the file's creation, then one an append while the file (every
    # line so far, 21 bytes each with gen 1, plus 40 of the commit's own)
    # fits 256 bytes, two beyond; one kept for the file's removal: 11 lines.
    fs = FakeFs()
    store = Store("/g", fs, journal=True)
    assert store.load() is None and "/journal/now" in fs.dirs and store.room() == 11
    store.save(dump(game("@a1")))
    assert store.room() == 11 and not store.renew()  # made at power-up: nothing to do
    assert store.note(["@b1"]) and store.room() == 10
    assert not store.renew()  # a line of this generation in it: never dropped
    store.save(dump(game("@a1 @b1")))
    assert store.room() == 10  # (its removal one commit more, a creation one less)
    assert store.renew() and store.room() == 11 and "/journal/now" in fs.dirs
    assert store.note(["@c1"])
    assert Store("/g", fs, journal=True).load() == dump(game("@a1 @b1 @c1"))


def test_a_finished_game_is_archived_once():
    fs = FakeFs()
    store = Store("/g", fs, games="/games", journal=True)
    text = dump(game(GAME))
    path = store.archive(text)
    assert path == "/games/game-00001-%08x.txt" % checksum(text)
    assert fs.files[path] == fs_text(text) and "/games" in fs.dirs
    assert store.archive(text) == path and len(fs.files) == 1
    assert Store("/g", fs, journal=True).archive(text) is None  # no games folder: nothing kept


def test_the_newest_finished_games_are_kept_and_the_oldest_goes():
    """The newest GAMES_KEPT stay (fewer where the flash has less room:
    test_archive_room), and a file that is not an archived game is left alone."""
    fs = FakeFs()
    fs.files["/games/notes.txt"] = "a maker's"
    store = Store("/g", fs, games="/games", journal=True)
    texts = ["game %03d\n" % k for k in range(GAMES_KEPT + 1)]  # (small: MicroPython's heap)
    assert len(set(checksum(text) for text in texts)) == len(texts)
    paths = [store.archive(text) for text in texts]
    assert paths[0] == "/games/game-00001-%08x.txt" % checksum(texts[0])
    assert paths[-1] == "/games/game-%05d-%08x.txt" % (GAMES_KEPT + 1, checksum(texts[-1]))
    names = fs.listdir("/games")
    assert len(names) == GAMES_KEPT + 1 and "notes.txt" in names
    assert paths[0] not in fs.files
    assert all(p in fs.files for p in paths[1:])
    assert store.archive(texts[5]) == paths[5] and len(fs.files) == GAMES_KEPT + 1


def test_two_games_that_share_a_checksum_are_both_kept():
    fs = FakeFs()
    store = Store("/g", fs, games="/games", journal=True)
    one, other = "game 120\n", "game 201\n"  # Adler-32: the same sum
    assert checksum(one) == checksum(other)
    first = store.archive(one)
    second = store.archive(other)
    assert first == "/games/game-00001-%08x.txt" % checksum(one)
    assert second == "/games/game-00002-%08x.txt" % checksum(one)
    assert store.archive(one) == first and store.archive(other) == second
    assert len(fs.files) == 2


def test_the_names_of_archived_games():
    assert game_number("game-00012-0000abcd.txt") == 12
    for name in ("game-0000abcd.txt", "game-x.txt", "game-0012-abc.txt", "notes.txt", "game-00012-0000abcd.log",
                 "saved-20261201-101010.txt"):
        assert game_number(name) == -1, name


def test_after_a_new_game_the_first_action_is_a_whole_save():
    fs = FakeFs()
    store = Store("/g", fs, journal=True)
    store.save(dump(game("@a1")))
    assert store.note(["@b1"])
    store.clear()  # a new game: no save, no journal
    assert fs.files == {} and not store.note(["@c1"])
    store.save(dump(game("@c1")))
    assert store.gen == 2 and store.note(["@d1"])
    assert Store("/g", fs, journal=True).load() == dump(game("@c1 @d1"))


def test_a_new_game_is_one_journal_line_and_the_next_actions_follow_it():
    from attila.saves.keeper import Keeper

    fs = FakeFs()
    keeper = Keeper(Store("/g", fs, journal=True))
    assert keeper.load(RECT) == (None, "")
    g = game("@a1 @b1")
    keeper.save(g)
    assert keeper.keep(game("@a1 @b1 @c1")) == ""
    gen = keeper.store.gen
    fresh = Game(RECT, HUNS, 9)  # MENU: a new game, the Huns first this time
    assert keeper.keep(fresh) == ""
    # One line, no file of the root folder touched: the save is still there.
    head = "%d nH9" % gen
    assert fs.files["/journal/now/g.jnl"].splitlines()[-1] == "%s %d" % (head, checksum(head))
    assert "/g" in fs.files
    back = Keeper(Store("/g", fs.copy(), journal=True))
    assert back.load(RECT) == (None, "")  # nothing to resume
    fresh.place(RECT.index("e4"))
    assert keeper.keep(fresh) == ""
    again = Keeper(Store("/g", fs, journal=True))
    resumed, why = again.load(RECT)
    assert why == "" and dump(resumed) == dump(fresh) and resumed.first == HUNS
