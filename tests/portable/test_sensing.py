"""Debounce: a change is accepted once it has held for the hold time, per square."""

from attila.sensing.debounce import Debouncer

A = 1 << 0
B = 1 << 1
C = 1 << 2


def settled(d, mask, t):
    """Feed an unchanging reading until the debouncer is ready; return the time."""
    while not d.ready:
        d.update(mask, t)
        t += 10
    return t


def test_first_reading_is_accepted_after_the_hold():
    d = Debouncer(3)
    assert d.update(A, 0) == 0 and not d.ready
    assert d.update(A, 29) == 0 and not d.ready
    assert d.update(A, 30) == A and d.ready


def test_empty_board_becomes_ready():
    d = Debouncer(3)
    d.update(0, 100)
    assert not d.ready
    assert d.update(0, 130) == 0 and d.ready


def test_change_accepted_once_stable_for_hold():
    d = Debouncer(3, hold_ms=30)
    t = settled(d, 0, 0)
    assert d.update(B, t) == 0
    assert d.update(B, t + 29) == 0
    assert d.update(B, t + 30) == B


def test_bounce_produces_no_change_until_it_stops():
    d = Debouncer(3, hold_ms=30)
    t = settled(d, A, 0)
    assert d.stable == A
    # a magnet arriving on B chatters for 20 ms (2 ms steps), then holds
    seq = [B, 0, B, B, 0, 0, B, 0, B, B]
    for k, v in enumerate(seq):
        assert d.update(A | v, t + 2 * k) == A
    last_flip = t + 2 * 8  # the last 0 -> B
    assert d.update(A | B, last_flip + 29) == A
    assert d.update(A | B, last_flip + 30) == A | B
    # lifting A with chatter: A stays until its reading holds empty
    t = last_flip + 100
    for k, v in enumerate([0, A, 0, A, 0]):
        assert d.update(B | v, t + 3 * k) == A | B
    assert d.update(B, t + 12 + 29) == A | B
    assert d.update(B, t + 12 + 30) == B


def test_slide_across_squares_is_no_change():
    # A piece slid from A over B to C: 20 ms over B, brushing two squares at
    # the edges, then resting on C.
    d = Debouncer(3, hold_ms=30)
    t = settled(d, A, 0)
    seen = []
    for mask in (A | B, B, B | C, C, C, C, C, C):
        seen.append(d.update(mask, t))
        t += 10
    assert seen[:3] == [A, A, A], seen  # nothing accepted while sliding
    assert all(not m & B for m in seen), seen  # B never showed up
    assert seen[-1] == C, seen  # A emptied and C filled once each held


def test_squares_are_timed_independently():
    d = Debouncer(3, hold_ms=30)
    t = settled(d, 0, 0)
    d.update(A, t)
    d.update(A | B, t + 20)
    assert d.update(A | B, t + 30) == A  # A held 30 ms, B only 10
    assert d.update(A | B, t + 49) == A
    assert d.update(A | B, t + 50) == A | B


def test_configurable_hold():
    d = Debouncer(2, hold_ms=100)
    t = settled(d, 0, 0)
    d.update(A, t)
    assert d.update(A, t + 99) == 0
    assert d.update(A, t + 100) == A
    z = Debouncer(2, hold_ms=0)
    assert z.update(B, 5) == B


def test_clock_wrapping():
    # MicroPython's ticks_ms wraps at 2**30: times keep counting through it.
    d = Debouncer(2, hold_ms=30)
    t0 = (1 << 30) - 20
    d.update(0, t0)
    assert d.update(0, 10) == 0 and d.ready  # 30 ms later, wrapped
    d.update(A, 15)
    assert d.update(A, 44) == 0
    assert d.update(A, 45) == A


def test_reset():
    d = Debouncer(3)
    d.reset(A | C, 500)
    assert d.ready and d.stable == A | C
    assert d.update(A | C, 501) == A | C
    assert d.settling() == 0
    d.update(A, 510)
    assert d.settling() == C


def test_quiet_while_the_reading_is_the_stable_state():
    # quiet: an update() with the same reading would change nothing (Board skips it)
    d = Debouncer(3)
    assert not d.quiet
    d.update(A, 0)
    assert not d.quiet  # not ready yet
    d.update(A, 30)
    assert d.quiet and d.stable == A
    d.update(A | B, 40)
    assert not d.quiet  # B is being timed
    d.update(A | B, 69)
    assert not d.quiet
    d.update(A | B, 70)
    assert d.quiet and d.stable == A | B
    d.update(A, 80)  # B lifted, and put back before the hold
    d.update(A | B, 90)
    assert d.quiet and d.stable == A | B
    d.reset(C, 100)
    assert not d.quiet  # the next reading is compared with C
    assert d.update(A, 100) == C and not d.quiet
