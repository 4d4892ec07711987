"""A whole scripted game through the emulated reed switches: the Pico and the simulator agree.

The script (tests/pico/game.txt) is carried out by the simulator's own Rig
(`attila sim --script`); the emulated Pico, flashed as `make flash` does it,
gets the same reed switches and buttons at the same moments (tests/pico/
twin.py). What "frame for frame" means here:

1. Every LED frame the Pico clocked out on its LED pin (decoded from the
   pin's edges) equals, in order and byte for byte, the strip write of the
   same firmware run on the host (the twin) stepped at the Pico's own loop
   times with the readings the Pico's pins had. None missing, none extra.
2. After every script line, the Pico's game (its twin's mode, status line
   and position) is the simulator's for that line, and the bytes on the pin
   are the simulator's `strip`, once the animation phase is accounted for:
   the blink patterns are periodic in 8 s (palette: 400, 1000 and 1600 ms),
   and the Pico's loop clock started at its own boot and steps every
   10.1-10.2 ms, not on the simulator's 10 ms grid. So the Pico's state is
   rendered at the simulator's time (plus whole 8 s periods) and must give
   the simulator's bytes; lines whose frame does not blink match as they are.
3. The chip's frames also say what the LED language (docs/pages/play/leds.md)
   says, written out square by square in tests/pico/led_language.py apart
   from the firmware and the simulator: after every line the last frame,
   and during every wait each frame (blinks in both phases, in turn,
   breathing).
"""

import os

from attila.game.notation import log
from attila.game.rules import OVER
from attila.saves.savetext import restore, unpack
from attila_sim import actions, script

import led_language
from tools.pico.flashimage import read_files
from twin import Mirror, Twin

HERE = os.path.dirname(os.path.abspath(__file__))
ANIMATION_PERIOD_MS = 8000  # lcm of the palette's periods (400, 1000, 1600)


def test_game_frame_for_frame_with_the_simulator(flashed, tmp_path):
    with open(os.path.join(HERE, "game.txt")) as f:
        lines = f.read().splitlines()
    board = flashed("pico.json")
    with board:
        assert board.boot() == "attila: 4x5 on pico, 20 squares"
        rig = Mirror(board)
        twin = Twin(board, rig.inputs, folder=str(tmp_path))
        todo = actions.parse_lines(rig.layout, lines, "game.txt")
        assert [t for _n, t, _s in todo] == [t for t, _w in led_language.EXPECTED]
        static = animated = 0
        for (number, text, steps), (_, expected) in zip(todo, led_language.EXPECTED):
            before = len(board.pico.frames)
            rig.do(steps)
            sim = script.record(rig, number, text)
            # The last step over and its LED frame latched: the next step has
            # begun (it sleeps inside a step too, so "asleep" is not "over"),
            # and the frame's 280 us of low are past (a step that overran,
            # a save erasing a sector, has the next scan 0.1 ms after it).
            board.pico.to_next_scan()
            twin.catch_up(board.pico.scans[:-1])
            assert board.pico.frames[-1].t0 < board.pico.scans[-1][0]
            pico_frames = [f.data for f in board.pico.frames]
            assert not board.pico.led_errors()
            _check_language(board, number, text, expected, before)
            assert pico_frames == twin.writes, "line %d %s: frames differ" % (number, text)
            c = twin.controller
            assert (c.status(), rig.mode_name()) == (sim["status"], sim["mode"]), text
            shown = board.strip()
            want = bytes.fromhex(sim["strip"])
            if shown == want:
                static += 1
                continue
            # The same state rendered when the simulator rendered its last
            # frame, moved on by whole animation periods past the Pico's clock.
            t = rig.written_at + ANIMATION_PERIOD_MS * (1 + c.now // ANIMATION_PERIOD_MS)
            assert twin.rendered_at(t) == want, "line %d %s: state differs" % (number, text)
            animated += 1
        assert sim["mode"] == "clear"  # the game over, MENU: a new game, the board cleared
        assert board.pico.resets == []
        assert static > 20 and animated >= 3, (static, animated)
        assert len(board.pico.frames) > 40
        rig.do([("wait", 800)])  # the squares settle: the finished game is archived
        board.pico.run_to_idle()
    with open(board.pico.flash_path, "rb") as f:
        files = read_files(f.read())
    archived = [name for name in files if name.startswith("games/")]
    assert len(archived) == 1 and archived[0].startswith("games/game-"), archived
    game = restore(unpack(files[archived[0]]))
    assert game.phase == OVER and log(game).endswith(" c3-e4,c3 d3-b4,d3"), log(game)


def _check_language(board, number, text, expected, before):
    """The chip's frames of one script line against the LED language (led_language.py)."""
    names = board.layout.names
    want = led_language.specs(expected)
    where = "line %d %s" % (number, text)

    def squares(frame):
        return {names[i]: rgb for i, rgb in enumerate(board.leds(frame.data))}

    frames = board.pico.frames
    led_language.check_frame(squares(frames[-1]), want, where)
    if text.startswith("wait "):
        # The frame shown when the wait began, then every frame of the wait.
        window = frames[max(before - 1, 0):]
        led_language.check_window([(f.t0, squares(f)) for f in window], want, where)
