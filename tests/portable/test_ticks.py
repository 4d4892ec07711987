"""The one wrap-safe time difference (attila.ticks) on both boards' clocks."""

from attila.ticks import ticks_diff

MICROPYTHON = 1 << 30  # time.ticks_ms() period
CIRCUITPYTHON = 1 << 29  # supervisor.ticks_ms() period


def test_plain_differences():
    assert ticks_diff(1500, 1000) == 500
    assert ticks_diff(1000, 1500) == -500
    assert ticks_diff(7, 7) == 0


def test_across_the_wrap_of_both_clocks():
    for period in (MICROPYTHON, CIRCUITPYTHON):
        before = period - 300
        after = 200  # 500 ms later, wrapped
        assert ticks_diff(after, before) == 500, period
        assert ticks_diff(before, after) == -500, period
        # Days apart still measure right (up to 2**28 ms, 3.1 days).
        later = (before + 3 * 86400000) % period
        assert ticks_diff(later, before) == 3 * 86400000, period


def test_host_clocks_that_never_wrap():
    big = 5 * MICROPYTHON + 12345
    assert ticks_diff(big + 2000, big) == 2000
    assert ticks_diff(big, big + 2000) == -2000
