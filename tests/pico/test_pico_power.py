"""Power cuts during a save, on real littlefs and the real os.rename of the chip.

A game is set up through the reed switches; the third placement is kept
(a line appended to the journal, journal/now/game.txt.jnl, after the first
placement's whole save game.txt). The flash erases and programs of that
write are taken from the chip; the power is then cut, in
new runs of the same emulated history, before the save, in the middle of
each flash operation (that sector or page left part written) and after
each one: every state the flash can be left in. Each time the chip boots
again on that flash with the pieces still on the board, and must offer the
last completed action: the twin (the same firmware on the host, on the
files the chip had) gives the very frames the chip shows, is in RESUME and
holds the position before or after the placement, never a damaged save.
"""

import shutil

from attila.game import notation
from attila.play.modes import MODE_NAMES

from tools.pico.board import PicoBoard
from tools.pico.flashimage import read_files
from twin import Mirror, Twin

BEFORE = "@a1 @e4"
AFTER = "@a1 @e4 @c2"


def replay(board, inputs, until_ns):
    """Give the chip the same inputs at the same emulated times, up to until_ns."""
    for ns, squares, buttons in inputs:
        if ns > until_ns:
            break
        board.pico.run_ns(ns - board.pico.ns)
        board.set_squares(squares)
        board.hold(0, buttons & 1)
        board.hold(1, bool(buttons & 2))


def test_power_cut_at_every_flash_state_of_a_save_offers_the_last_completed_action(
        flashed, tmp_path):
    board = flashed("pico.json")
    fresh = str(tmp_path / "fresh.bin")
    shutil.copy(board.pico.flash_path, fresh)
    with board:
        board.boot()
        rig = Mirror(board)
        rig.do([("take", "R"), ("put", rig.layout.index("a1"))])
        rig.do([("take", "H"), ("put", rig.layout.index("e4"))])
        board.pico.run_ms(300)  # the saves are done
        start = board.pico.ns
        board.pico.flash_ops = []
        rig.do([("take", "R"), ("put", rig.layout.index("c2"))])
        board.pico.run_ms(500)
        ops = [op for op in board.pico.flash_ops if op["t"] >= start]
        inputs = list(rig.inputs)
        final = board.pico.ns
    assert ops, "the placement was not saved"
    assert read_files(open(board.pico.flash_path, "rb").read())["game.txt"]
    cuts = [ops[0]["t"] - 1000]
    for op in ops:
        cuts += [op["t"] + op["ns"] // 2, op["t"] + op["ns"] + 1000]
    seen = {}
    for k, cut in enumerate(cuts):
        flash = str(tmp_path / ("cut%d.bin" % k))
        shutil.copy(fresh, flash)
        trial = PicoBoard(flash, board.layout_path, board.profile_path)
        with trial:
            replay(trial, inputs, cut)
            trial.pico.power_cut(at_us=cut / 1000.0)
            assert trial.pico.resets[-1][1] == "power"
            reboot_us = trial.pico.us
            with open(flash, "rb") as f:
                files = read_files(f.read())
            saves = {n: files[n] for n in ("game.txt", "game.txt.tmp", "journal/now/game.txt.jnl")
                     if n in files}
            trial.pico.run_ms(700)  # boot (0.4 s), then the debounce sees the pieces
            trial.pico.rest()  # the last step over, its LED frame latched
            twin = Twin(trial, [(0, trial.squares, 0)], str(tmp_path / ("t%d" % k)), saves)
            twin.catch_up([s for s in trial.pico.scans if s[0] >= reboot_us])
            frames = [f.data for f in trial.pico.frames if f.t0 >= reboot_us]
            assert frames == twin.writes, "cut at %d ns: frames differ" % cut
            c = twin.controller
            assert MODE_NAMES[c.mode] == "resume", (cut, MODE_NAMES[c.mode], c.status())
            log = notation.log(c.game)
            assert log in (BEFORE, AFTER), (cut, log)
            seen[cut] = log
    assert seen[cuts[0]] == BEFORE and seen[cuts[-1]] == AFTER, seen
    assert final > cuts[-1]
