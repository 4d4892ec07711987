"""The CircuitPython port on CircuitPython 10.2.1's own RP2040 build, in the emulated Pico.

Each board's CIRCUITPY is what `attila flash --drive` puts in a folder
(code.py, boot.py, the .mpy files from CircuitPython's own mpy-cross, the
profile, the layout and its book), made into a FAT volume on the host
(mtools) behind CircuitPython's UF2. The switches are read by
CircuitPython's own `keypad` in the background (ShiftRegisterKeys,
KeyMatrix, Keys) at pin level, and the LED bytes decoded from the pin must
be, frame for frame, those of the same firmware run on the host (the twin,
tests/pico/twin.py) stepped at code.py's own loop steps: each one is told
by its watchdog feed, with a ticks_ms the chip's timer gave during that
step and the readings of the last keypad scan before it
(twin.cp_catch_up).

A CircuitPython boot takes about 3 s of emulated time (its safe-mode wait
is 1 s at power-up), so these tests boot as few times as they can.
"""

import json
import os

import pytest

from attila.game import notation
from attila.game.rules import OVER
from attila.saves.savetext import restore
from attila_sim import actions

from conftest import LAYOUT, PROFILES, ROOT
from tools.pico import circuitpy
from tools.pico.board import PicoBoard
from tools.pico.chip import CTRL_D
from twin import Mirror, Twin, cp_catch_up

CP_PROFILE = os.path.join(PROFILES, "circuitpython-pico.json")
SETUP = ["@a1", "@e4", "@c2", "lift c2", "put c2", "@b4", "@d1", "@b2"]
BOOT_MS = 8000
# On the chip: each level decides "after setup" (where they think longest)
# with the Planner the port makes (its pace: attila.opponent.levels.pace),
# a slice at a time.
DECISIONS = """
import time
from attila.opponent.levels import BUDGET_MS
from attila.opponent.planner import chooser
from attila.game.notation import parse_position
def us():
    return time.monotonic_ns() // 1000
for level in range(4):
    p = chooser(level, BUDGET_MS, port="circuitpython")
    game = parse_position(".H.../H.R.R/.H.../.R... R")
    now = 1000
    p.start(game, now)
    steps = longest = 0
    while True:
        t = us()
        done = p.step(now)
        if steps:  # (the first slice also sets the search up: about 18 ms)
            longest = max(longest, us() - t)
        steps += 1
        now += 10
        if done:
            break
    print(level, steps, longest, p.nodes)
"""


@pytest.fixture
def cp_board(tmp_path):
    """cp_board(profile_path) -> a PicoBoard on CircuitPython (not started)."""
    why = circuitpy.available()
    if why:
        pytest.skip("no CIRCUITPY volume can be made here: %s" % why)

    def make(path=CP_PROFILE, folder="board"):
        return PicoBoard.flashed(str(tmp_path / folder), LAYOUT, path)

    return make


def derived(tmp_path, name):
    """A MicroPython profile of boards/profiles as a CircuitPython one (pins by number)."""
    with open(os.path.join(PROFILES, name)) as f:
        data = json.load(f)
    data["port"] = "circuitpython"
    data["name"] = "circuitpython-" + data["name"]
    data["sensors"].pop("settle_us", None)
    path = tmp_path / ("cp-" + name)
    path.write_text(json.dumps(data))
    return str(path)


def play(board, lines, folder, since_us=0):
    rig = Mirror(board)
    twin = Twin(board, rig.inputs, folder=folder)
    for _number, _text, steps in actions.parse_lines(rig.layout, lines):
        rig.do(steps)
    board.pico.rest()  # the last step over, its LED frame latched
    cp_catch_up(twin, board.pico, since_us)
    return rig, twin


def nvm_text(board):
    from nvmsave import NvmStore

    with open(board.pico.flash_path, "rb") as f:
        flash = f.read()
    return NvmStore(bytearray(flash[circuitpy.NVM_OFFSET:circuitpy.NVM_OFFSET + 4096])).load()


def volume(board):
    with open(board.pico.flash_path, "rb") as f:
        return f.read()[circuitpy.FS_OFFSET:]


@pytest.fixture(autouse=True, scope="module")
def _port_path():
    import sys

    port = os.path.join(ROOT, "firmware", "ports", "circuitpython")
    sys.path.insert(0, port)
    yield
    sys.path.remove(port)


def test_a_scripted_game_frame_for_frame_then_each_level_and_the_watchdog(cp_board, tmp_path):
    board = cp_board()
    drive = circuitpy.folder_files(str(tmp_path / "board" / "CIRCUITPY"))
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "game.txt")) as f:
        game = f.read().splitlines()
    with board:
        assert board.boot(BOOT_MS) == "attila: 4x5 on circuitpython-pico, 20 squares"
        # tests/pico/game.txt, the MicroPython port's scripted game, whole:
        # placements, a correction, moves and scorches, an UNDO and its
        # take-back, waits with blinking frames, the game-over animation, MENU
        # for a new game and the board being cleared.
        rig, twin = play(board, game, str(tmp_path / "twin"))
        frames = [f.data for f in board.pico.frames]
        assert len(frames) > 40 and frames == twin.writes
        assert not board.pico.led_errors()
        assert twin.controller.status() == rig.status()
        assert twin.controller.game.phase == OVER
        assert rig.mode_name() == "clear", rig.status()
        assert board.pico.events == []
        # Every placement is saved in microcontroller.nvm (once the squares have
        # been still 500 ms); CIRCUITPY keeps its files.
        board.run_ms(700)
        assert notation.log(restore(nvm_text(board), board.layout)) == notation.log(
            twin.controller.game)
        files = board.drive_files()
        assert {k: v for k, v in files.items() if k != "boot_out.txt"} == drive
        assert files["boot_out.txt"].decode().startswith("Adafruit CircuitPython 10.2.1")
        assert "attila boot: the board keeps CIRCUITPY" in files["boot_out.txt"].decode()

        # Each level's decision as the board makes it (the portable kernel, the
        # port's slice and node budget), a slice per step: the decision comes
        # on its node budget within budget_ms, and the watchdog is fed all along.
        board.pico.repl()
        out = board.pico.exec(DECISIONS, max_ms=60000)
        rows = [line.split() for line in out.splitlines() if line.strip()]
        assert len(rows) == 4, out
        for level, steps, longest_us, nodes in ((int(a), int(b), int(c), int(d))
                                                for a, b, c, d in rows):
            # A slice fits the 10 ms loop (3-7 ms), but for the one the garbage
            # collector runs in (up to about 28 ms: make bench): far inside the watchdog.
            assert longest_us < 50000, (level, longest_us)
            # within budget_ms, checked a step at a time
            loop = board.prof.loop_ms
            assert steps * loop <= board.prof.budget_ms + loop, (level, steps)
            assert 0 < nodes <= (400, 500, 500, 500)[level] + 8, (level, nodes)  # + a slice

        # The watchdog: hardware.Watchdog (RESET mode) and a loop that stops feeding it.
        board.pico.write(b"import hardware, time\r\nw = hardware.watchdog(1000); w.feed()\r\n")
        board.pico.write(b"while True: time.sleep(0.01)\r\n\r\n")
        board.pico.mark()
        board.pico.wait_for("attila: 4x5 on circuitpython-pico, 20 squares", max_ms=BOOT_MS)
        assert [why for _us, why in board.pico.resets] == ["watchdog"]
        assert board.pico.boot == 2


@pytest.mark.parametrize("name", ["pico-matrix.json", "pico-direct.json"])
def test_keypad_reads_a_matrix_and_one_pin_per_switch(cp_board, tmp_path, name):
    path = derived(tmp_path, name)
    board = cp_board(path)
    with board:
        assert board.boot(BOOT_MS) == "attila: 4x5 on %s, 20 squares" % board.prof.name
        rig, twin = play(board, SETUP[:4], str(tmp_path / "twin"))
        # The frames once the board has read its squares (a dark frame comes
        # first while it reads them; the reference chain's test compares them all).
        assert board.strip() == twin.writes[-1]
        assert not board.pico.led_errors()
        assert twin.controller.status() == rig.status()
        assert "knight 2 of 3" in rig.status(), rig.status()
        assert board.pico.events == []


def test_power_cuts_in_a_save_keep_every_file_and_resume_then_the_power_up_gestures(
        cp_board, tmp_path):
    board = cp_board()
    drive = circuitpy.folder_files(str(tmp_path / "board" / "CIRCUITPY"))
    with board:
        board.boot(BOOT_MS)
        # Until its first debounced reading the board takes every square for
        # occupied ("take every piece off"): it has settled once it asks for a knight.
        board.pico.wait_for("Romans: place a knight", max_ms=2000, since=0)
        lay = board.layout
        sq = lay.index
        board.set_squares(1 << sq("a1"))
        board.run_ms(800)  # saved once the squares are still for 500 ms (CALM_MS)
        board.set_squares(1 << sq("a1") | 1 << sq("e4"))
        board.run_ms(800)
        assert notation.log(restore(nvm_text(board), lay)) == "@a1 @e4"
        fat = volume(board)
        board.pico.flash_ops = []
        # c2 placed: its save is cut half way through its only flash operation.
        board.set_squares(1 << sq("a1") | 1 << sq("e4") | 1 << sq("c2"))
        board.pico.mark()
        board.pico.cut_in_flash_op(0, 0.5, max_ms=1000)
        (op,) = board.pico.flash_ops
        assert op["op"] == "program" and 0xFF000 <= op["addr"] < 0x100000, op
        assert op["cut"] == 0.5
        assert volume(board) == fat
        log = notation.log(restore(nvm_text(board), lay)) if nvm_text(board) else ""
        assert log in ("@a1 @e4", "@a1 @e4 @c2"), log
        board.pico.wait_for("Saved game found", max_ms=BOOT_MS)
        # MENU resumes; if c2's save was lost, the board takes c2 as placed now
        # and saves it again, after the torn bytes. Then a cut at the very end
        # of the next save's operation: the save is whole.
        board.press(1)
        board.run_ms(900)
        assert notation.log(restore(nvm_text(board), lay)) == "@a1 @e4 @c2"
        board.set_squares(1 << sq("a1") | 1 << sq("e4") | 1 << sq("c2") | 1 << sq("b4"))
        board.pico.mark()
        board.pico.cut_in_flash_op(0, 1.0 - 1e-9, max_ms=1000)
        assert volume(board) == fat
        board.pico.wait_for("Saved game found (4 actions", max_ms=BOOT_MS)
        assert notation.log(restore(nvm_text(board), lay)) == "@a1 @e4 @c2 @b4"
        assert [why for _us, why in board.pico.resets] == ["power", "power"]
        # Every flash operation since the first boot was the save journal's, in
        # the nvm sector (the boots wrote nothing: boot_out.txt was unchanged).
        assert all(circuitpy.NVM_OFFSET <= op["addr"] < circuitpy.FS_OFFSET
                   for op in board.pico.flash_ops), board.pico.flash_ops

        # The power-up gestures, on the same board: MENU held, the self-test;
        # UNDO and MENU, maintenance (boot.py leaves the drive to the computer).
        board.hold(1)
        board.pico.mark()
        board.pico.power_cut()
        board.pico.wait_for("attila: MENU held at power-up: self-test", max_ms=BOOT_MS)
        assert {k: v for k, v in board.drive_files().items() if k != "boot_out.txt"} == drive


def test_maintenance_writes_nothing_on_the_drive_and_lasts_while_the_computer_holds_it(
        cp_board):
    """Play, maintenance (UNDO and MENU at power-up), play again: boot.py prints
    the same words each time, so CircuitPython never rewrites boot_out.txt (a
    FAT write); in maintenance, code.py run again by a reload (the computer's
    first write to the drive does that) with the buttons let go stays in
    maintenance: the drive is still the computer's."""
    board = cp_board()
    with board:
        board.boot(BOOT_MS)
        boot_out = board.drive_files()["boot_out.txt"]
        assert boot_out.decode().startswith("Adafruit CircuitPython 10.2.1")
        assert "attila boot: the board keeps CIRCUITPY while it plays" in boot_out.decode()
        board.pico.flash_ops = []
        board.hold(0)
        board.hold(1)
        board.pico.mark()
        board.pico.power_cut()
        board.pico.wait_for("attila: maintenance (UNDO+MENU held at power-up", max_ms=BOOT_MS)
        board.pico.repl()  # code.py is over
        board.hold(0, False)
        board.hold(1, False)
        since = board.pico.mark()
        board.pico.write(CTRL_D)  # a reload: code.py again, boot.py not
        board.pico.wait_for("Code done running.", max_ms=BOOT_MS)
        said = board.pico.output(since)
        assert "attila: maintenance (UNDO+MENU held at power-up, or a file named maintenance): " \
               "not starting; CIRCUITPY is the computer's until the board is reset" in said, said
        assert "attila: 4x5 on" not in said, said
        board.pico.mark()
        board.pico.power_cut()
        board.pico.wait_for("attila: 4x5 on circuitpython-pico, 20 squares", max_ms=BOOT_MS)
        assert board.drive_files()["boot_out.txt"] == boot_out
        assert [why for _us, why in board.pico.resets] == ["power", "power"]
        assert not [op for op in board.pico.flash_ops if op["addr"] >= circuitpy.FS_OFFSET], \
            board.pico.flash_ops


def journal_with_little_room(layout):
    """A save sector as a board leaves it after many games: a game of two
    placements held, too little blank room left for another whole game."""
    from attila.game.rules import Game
    from attila.saves.savetext import dump
    from nvmsave import ALIGN, NvmStore, game_bytes

    game = Game(layout)
    game.place(layout.index("a1"))
    one = dump(game)
    game.place(layout.index("e4"))
    two = dump(game)
    nvm = bytearray(b"\xff" * circuitpy.NVM_SIZE)
    store = NvmStore(nvm)  # (room kept for no game: it fills up)
    while store.room - store.end >= ALIGN + game_bytes(layout):
        store.save(one)
        store.save(two)
    assert store.erases == 0
    return bytes(nvm)


def test_a_cut_in_the_erase_of_the_save_sector_as_a_new_game_begins_comes_back_in_a_new_game(
        cp_board, tmp_path):
    board = cp_board()
    drive = circuitpy.folder_files(str(tmp_path / "board" / "CIRCUITPY"))
    lay = board.layout
    sq = lay.index
    with open(board.pico.flash_path, "r+b") as f:
        f.seek(circuitpy.NVM_OFFSET)
        f.write(journal_with_little_room(lay))
    board.squares = 1 << sq("a1") | 1 << sq("e4")  # (set as the board starts)
    with board:
        board.pico.wait_for("Saved game found (2 actions", max_ms=BOOT_MS, since=0)
        fat = volume(board)
        board.set_squares(0)
        board.pico.flash_ops = []
        # UNDO declines the saved game: a new game, and no room for a whole one
        # left: the seal, then the erase, cut half way.
        board.hold(0)
        board.pico.mark()
        board.pico.cut_in_flash_op(1, 0.5, max_ms=1000)
        board.hold(0, False)
        seal, erase = board.pico.flash_ops
        assert seal["op"] == "program" and seal["addr"] == circuitpy.NVM_OFFSET + 0xF00, seal
        assert erase["op"] == "erase" and erase["addr"] == circuitpy.NVM_OFFSET, erase
        assert erase["cut"] == 0.5
        # It comes back in the new game, says so once, and erases the sector
        # at power-up (no game held: nothing to lose).
        board.pico.wait_for("attila: the power went while the save sector was erased for a "
                            "new game: the new game starts", max_ms=BOOT_MS)
        board.pico.wait_for("Romans: place a knight", max_ms=2000)
        assert nvm_text(board) is None
        assert [op["op"] for op in board.pico.flash_ops[2:]] == ["erase", "program"]
        assert volume(board) == fat
        board.set_squares(1 << sq("c2"))
        board.run_ms(800)
        assert notation.log(restore(nvm_text(board), lay)) == "@c2"
        assert [op["op"] for op in board.pico.flash_ops[4:]] == ["program"]
        assert [why for _us, why in board.pico.resets] == ["power"]
        assert {k: v for k, v in board.drive_files().items() if k != "boot_out.txt"} == drive

        # A host that holds the USB serial open and reads nothing: the loop
        # goes on (CircuitPython's print() would wait for it for ever, so
        # code.py writes the status line only as far as the FIFO takes it), and
        # once the host reads again the newest status line comes, whole.
        board.pico.deaf()
        since = board.pico.us
        board.pico.mark()
        for _ in range(5):  # c2 lifted and put back: two status lines each time
            board.set_squares(0)
            board.run_ms(150)
            board.set_squares(1 << sq("c2"))
            board.run_ms(150)
        assert board.pico.output() == ""
        # A loop step every 10 ms all along (the longest gaps: a garbage
        # collection or a save, some tens of ms).
        fed = [f[0] for f in board.pico.feeds if f[0] >= since]
        assert len(fed) > 120 and max(b - a for a, b in zip(fed, fed[1:])) < 100000, fed
        board.pico.deaf(False)
        board.pico.mark()
        board.run_ms(300)
        lines = board.pico.output().splitlines()
        # (what the FIFO held since the host stopped reading, then the newest line)
        assert len(lines) >= 2 and lines[0].startswith("Romans: place a knight"), lines
        assert lines[-1] == "Huns: place a knight on a lit square (knight 1 of 3)", lines
