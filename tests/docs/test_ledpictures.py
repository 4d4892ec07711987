"""The LED pictures in the docs are the controller's own frames (tools/docs/ledpictures.py)."""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools.docs import ledpictures  # noqa: E402


def test_committed_pictures_are_the_controllers_frames():
    stale = []
    for name, text in ledpictures.pictures().items():
        with open(os.path.join(ledpictures.OUT, name)) as f:
            if f.read() != text:
                stale.append(name)
    assert stale == [], "pictures that differ from the frames (run `make docs`): %s" % stale


def test_blinking_and_steady_squares_are_told_apart():
    layout, _, pieces, frames = ledpictures.run_scene(ledpictures.SCENES["correction"][0])
    look = ledpictures.looks(frames)
    a2, a4, e3 = (layout.index(n) for n in ("a2", "a4", "e3"))
    assert look[a2] == ([(255, 0, 0)], True)  # red, blinking: take the piece off
    assert look[a4][1] and look[a4][0][0][2] == 255  # blue, blinking: put it back
    assert look[e3] == ([], False)  # a knight that cannot move now: dark
    assert pieces[a2] == "R" and a4 not in pieces


def test_breathing_is_not_blinking():
    frames = [[(0, 0, 40 + 10 * k)] for k in range(6)]
    assert ledpictures.looks(frames) == [([(0, 0, 255)], False)]
    frames = [[(0, 0, 90 if k % 2 else 0)] for k in range(6)]
    assert ledpictures.looks(frames) == [([(0, 0, 255)], True)]
