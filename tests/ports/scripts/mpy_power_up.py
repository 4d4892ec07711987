"""What main.py of the MicroPython port does at power-up (scenarios of mpy_port.py).

Maintenance (both buttons held, or the marker file), the self-test (MENU
held), a saved game resumed or asked about, boot's garbage collected before
the loop, the setup book opened, and a watchdog the chip would refuse.
"""

import sys

import machine
import neopixel
import physical

import main
from mpy_start import reference, start


def scenario_maintenance():
    physical.HC165Chain(13, 10, 12, 4)
    keys = physical.Switches([16, 17])
    keys.set(16, True)  # UNDO and MENU held at power-up
    keys.set(17, True)
    clock = physical.Clock()
    assert start(clock) is None
    assert machine.watchdogs == [] and neopixel.strips == []
    # The same with a file named `maintenance` and no button held.
    keys.set(16, False)
    keys.set(17, False)
    open("maintenance", "w").close()
    assert start(clock) is None
    assert machine.watchdogs == [] and neopixel.strips == []
    print("OK maintenance")


def scenario_selftest():
    physical.HC165Chain(13, 10, 12, 4)
    keys = physical.Switches([16, 17])
    keys.set(17, True)  # MENU held at power-up: the self-test, watchdog and all
    clock = physical.Clock()
    board = start(clock)
    c = board.controller
    assert c.tests == [1005], c.tests  # after the 5 ms the pulls need
    wdt = machine.watchdogs[0]
    assert wdt.timeout == 5000 and wdt.feeds == 5
    main.run(board, 10, wdt, 10, clock.now, clock.sleep)
    assert c.presses == [], c.presses  # the MENU held since power-up is no press
    keys.set(17, False)
    main.run(board, 10, wdt, 10, clock.now, clock.sleep)
    keys.set(17, True)
    main.run(board, 10, wdt, 10, clock.now, clock.sleep)
    assert c.presses == [1], c.presses  # a new press is
    print("OK selftest")


def _saved(actions):
    """A saved game of these actions on file, the reference wiring, the real controller."""
    from attila.game import layoutfile
    from attila.assembly import controller_for
    from attila.game.notation import replay
    from attila.game.rules import Game
    from attila.saves.savetext import dump
    from attila.saves.store import Store

    layout = layoutfile.load("layout.json")[0]
    Store("game.txt").save(dump(replay(Game(layout), actions)))
    physical.HC165Chain(13, 10, 12, 4)
    physical.Switches([16, 17])
    main._controller = controller_for


def scenario_resume():
    # A saved game and no marker: the board asks (RESUME). With the `resume`
    # marker that attila games leaves before its reset: it plays on, and the
    # marker is gone.
    import os

    from attila.play.controller import CORRECT, PLAY, RESUME

    _saved("@a1 @e4")
    clock = physical.Clock()
    board = main.main(ticks=5, clock=clock.now, sleep=clock.sleep)
    assert board.controller.mode == RESUME, board.controller.mode
    assert not board.controller.store.in_place  # (the unix port's files: a host's)
    open("resume", "w").close()
    board = main.main(ticks=5, clock=clock.now, sleep=clock.sleep)
    assert board.controller.mode != RESUME and len(board.controller.game.history) == 2
    assert board.controller.mode in (PLAY, CORRECT)  # CORRECT: the pieces are not on it
    try:
        os.stat("resume")
        raise AssertionError("the resume marker is still there")
    except OSError:
        pass
    print("OK resume")


def scenario_collected():
    # Boot leaves garbage (the files read, a saved game restored): main.py
    # collects it before its loop, else the loop's first allocation that
    # finds no room does, in a loop step (about 20 ms on a Pico).
    import gc

    _saved("@a1 @e4 @b1 @d4 @a4 @e1")
    free = []

    def entered(*_args):
        free.append(gc.mem_free())  # as the loop would start
        gc.collect()
        free.append(gc.mem_free())

    main.run = entered
    clock = physical.Clock()
    main.main(ticks=5, clock=clock.now, sleep=clock.sleep)
    assert len(free) == 2, free
    assert free[1] - free[0] < 1024, "%d bytes of garbage left to the loop" % (free[1] - free[0])
    print("OK collected")


def scenario_book():
    # layout.book next to layout.json (as `attila flash` puts it) reaches the
    # controller opened, not read whole; without it, or damaged, the board runs
    # on without it (the test reads what the console said).
    board, clock = reference(3)
    book = board.controller.book
    if sys.argv[2:] == ["present"]:
        from attila.game.rules import Game

        layout = board.controller.layout
        assert book.count == 1443, book.count
        assert book.placement(Game(layout)) == layout.index("c2")
    else:
        assert book is None
    main.run(board, 10, None, 3, clock.now, clock.sleep)
    print("OK book")


def scenario_watchdog():
    # The fake watchdog refuses what rp2's machine.WDT refuses ...
    try:
        machine.WDT(timeout=9000)
        raise AssertionError("WDT(9000) accepted")
    except ValueError as e:
        assert str(e) == "timeout exceeds 8388", e
    # ... and the profile says so before the board would die at boot.
    from attila.profile import ProfileError

    try:
        start(physical.Clock())
        raise AssertionError("a 9000 ms watchdog was accepted")
    except ProfileError as e:
        assert str(e) == ("profile.json: watchdog_ms 9000 is more than MicroPython on the "
                          "rp2040 accepts (at most 8388)"), e
    assert machine.watchdogs == [] and neopixel.strips == []
    print("OK watchdog")
