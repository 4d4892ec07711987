"""No accepted action lost: a power cut at any moment after the board showed it.

One scripted game runs on the emulated Pico (every flash program recorded
with its bytes). For each kind of action (a placement, a move, a scorch, a
take-back completed on the table, a new game) the loop step that accepted
it is found through the twin (the same firmware on the host, stepped at the
chip's loop times); the moment the board showed it is the first LED frame
of that step. From that moment on, for a second, the flash is rebuilt as it
stood at sampled moments: that moment itself, half-way through and just
after every flash operation of the second (the only moments at which the
flash differs; tools/pico/chip.py: flash_at), and the end of the second. A
new chip boots on each such flash with the pieces as they stood then; its
twin must give the chip's very LED frames, and hold the action: the
actions the board had kept are those it resumes with (a new game: nothing to
resume).
"""

import hashlib
import os

from attila.play.modes import MODE_NAMES
from attila_sim import actions

from tools.pico.board import PicoBoard
from tools.pico.chip import flash_at
from tools.pico.flashimage import read_files
from twin import Mirror, Twin

SETUP = ["@a1", "@b1", "@c1", "@d1", "@e1"]
KINDS = [
    ("placement", ["@a2"]),
    ("move", ["a1-c2"]),
    ("scorch", [",a1"]),
    ("take-back", ["undo", "wait 300", "lift a1"]),
    ("new game", ["hold menu 1600", "clear"]),
]
WINDOW_NS = 1_000_000_000  # cuts from the moment shown to a second later
SAVES = ("game.txt", "game.txt.tmp", "journal/now/game.txt.jnl")


def kept(twin):
    """The actions the twin's keeper last kept (the table's game)."""
    return list(twin.controller.settling.keeper._kept)


def cuts_after(shown_ns, ops):
    """The cut moments of the second after `shown_ns` that leave distinct flash."""
    out = [shown_ns]
    for op in ops:
        if shown_ns <= op["t"] < shown_ns + WINDOW_NS:
            out += [op["t"] + op["ns"] // 2, op["t"] + op["ns"] + 1000]
    return out + [shown_ns + WINDOW_NS - 1000]


def test_a_power_cut_after_each_kind_of_action_resumes_with_it(flashed, tmp_path):
    board = flashed("pico.json", flash_data=True)
    with open(board.pico.flash_path, "rb") as f:
        start = f.read()
    windows = []  # (kind, ns the board showed it, the actions kept then)
    with board:
        board.boot()
        rig = Mirror(board)
        twin = Twin(board, rig.inputs, folder=str(tmp_path / "twin"))
        for line in SETUP:
            rig.do(actions.parse(rig.layout, line) + [("wait", 600)])
        board.pico.run_to_idle()
        twin.catch_up(board.pico.scans)
        for kind, lines in KINDS:
            before = kept(twin)
            for line in lines:
                rig.do(actions.parse(rig.layout, line))
            rig.do([("wait", 1200)])  # nothing happens for more than the window
            board.pico.rest()  # the last step over, its LED frame latched
            scans = board.pico.scans
            accepted = None
            for k in range(twin.done, len(scans)):
                was = kept(twin)
                twin.catch_up(scans[:k + 1])
                if kept(twin) != was:
                    accepted = (scans[k][0], kept(twin))
            assert accepted is not None and accepted[1] != before, kind
            step_us, table = accepted
            frame = next(f for f in board.pico.frames if f.t0 > step_us)
            windows.append((kind, int(frame.t0 * 1000), table))
        assert not board.pico.led_errors()
        ops = list(board.pico.flash_ops)
        inputs = list(rig.inputs)
    assert [w[2] for w in windows][-1] == [] and len(windows[0][2]) == 6
    tried = {}
    for kind, shown_ns, table in windows:
        for cut in cuts_after(shown_ns, ops):
            flash = flash_at(start, ops, cut)
            squares = [s for ns, s, _b in inputs if ns <= cut][-1]
            key = (hashlib.sha256(flash).hexdigest(), squares)
            if key in tried:
                assert tried[key] == table, (kind, cut)
                continue
            tried[key] = table
            k = len(tried)
            path = str(tmp_path / ("cut%d.bin" % k))
            with open(path, "wb") as f:
                f.write(flash)
            files = read_files(flash)
            saves = {n: files[n] for n in SAVES if n in files}
            trial = PicoBoard(path, board.layout_path, board.profile_path)
            trial.squares = squares
            with trial:
                trial.pico.run_ms(700)  # boot (0.4 s), then the debounce sees the pieces
                trial.pico.rest()  # the last step over, its LED frame latched
                back = Twin(trial, [(0, squares, 0)], str(tmp_path / ("t%d" % k)), saves)
                back.catch_up(trial.pico.scans)
                frames = [f.data for f in trial.pico.frames]
            where = "%s, cut %.3f ms after it was shown" % (kind, (cut - shown_ns) / 1e6)
            assert frames == back.writes, where + ": frames differ"
            c = back.controller
            assert kept(back) == table, (where, kept(back), table)
            mode = MODE_NAMES[c.mode]
            if table:
                assert mode == "resume", (where, mode, c.status())
            else:  # a new game: nothing to resume (the first reading may be still to come)
                assert mode in ("play", "clear") and not c.game.history, (where, mode)
    assert len(tried) >= len(KINDS)
