"""The LED-language checker of test_pico_game.py refuses what the LED language
(docs/pages/play/leds.md) forbids (no chip here)."""

import pytest

import led_language as ll

BLUE = (0, 60, 160)  # (0, 96, 255) at the profile's brightness 160
AMBER = (160, 70, 0)
RED = (160, 0, 0)
DARK = (0, 0, 0)


def leds(**lit):
    out = {s: DARK for s in ll.SETUP_ALL}
    out.update(lit)
    return out


def test_colours_are_named_as_the_language_names_them():
    assert ll.colour_of(BLUE) == "blue" and ll.colour_of((0, 15, 40)) == "dim blue"
    assert ll.colour_of(AMBER) == "amber" and ll.colour_of((40, 17, 0)) == "dim amber"
    assert ll.colour_of((115, 115, 115)) == "white" and ll.colour_of(RED) == "red"
    assert ll.colour_of(DARK) == "dark"
    assert ll.colour_of((160, 30, 0)).startswith("no colour of the language")  # too red for amber
    assert ll.colour_of((0, 160, 0)).startswith("no colour of the language")


def test_every_line_of_the_table_names_each_square_once():
    for text, expected in ll.EXPECTED:
        assert len(ll.specs(expected)) == 20, text


def test_a_frame_with_a_wrong_or_extra_colour_fails():
    want = ll.specs({"B": "a1 c1 e1"})
    ll.check_frame(leds(a1=BLUE, c1=BLUE, e1=BLUE), want, "ok")
    with pytest.raises(AssertionError, match="c1 shows amber, the LED language says B"):
        ll.check_frame(leds(a1=BLUE, c1=AMBER, e1=BLUE), want, "x")
    with pytest.raises(AssertionError, match="b2 shows blue, the LED language says dark"):
        ll.check_frame(leds(a1=BLUE, c1=BLUE, e1=BLUE, b2=BLUE), want, "x")


def _blink(square_a, colour_a, square_b, colour_b, on_ms, off_ms, total_ms, together=False):
    frames, t, lit = [], 0, True
    while t <= total_ms:
        a = colour_a if lit else DARK
        b = colour_b if lit == together else DARK
        frames.append((t * 1000, leds(**{square_a: a, square_b: b})))
        t += on_ms if lit else off_ms
        lit = not lit
    return frames


def test_a_correction_must_blink_fast_in_turn():
    want = ll.specs({"R!": "a3", "B!": "a1"})
    ll.check_window(_blink("a3", RED, "a1", BLUE, 200, 200, 1000), want, "ok")
    with pytest.raises(AssertionError, match="was lit for 400 ms, not 200"):
        ll.check_window(_blink("a3", RED, "a1", BLUE, 400, 400, 1300), want, "slow")
    with pytest.raises(AssertionError, match="lit together, not in turn"):
        ll.check_window(_blink("a3", RED, "a1", BLUE, 200, 200, 1000, together=True), want, "x")
    steady = [(0, leds(a3=RED, a1=DARK)), (300000, leds(a3=RED, a1=DARK))]
    with pytest.raises(AssertionError, match="showed only"):
        ll.check_window(steady, want, "no blink")


def test_the_end_must_breathe():
    want = ll.specs({"B~": " ".join(ll.SETUP_ALL)})
    levels = [(0, 15, 40), (0, 30, 80), (0, 60, 160)]
    ll.check_window([(k * 100000, leds(**{s: levels[k] for s in ll.SETUP_ALL}))
                     for k in range(3)], want, "ok")
    with pytest.raises(AssertionError, match="does not breathe"):
        ll.check_window([(k * 100000, leds(**{s: BLUE for s in ll.SETUP_ALL}))
                         for k in range(3)], want, "steady")
