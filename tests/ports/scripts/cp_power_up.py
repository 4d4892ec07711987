"""What boot.py and code.py of the CircuitPython port do before the loop (scenarios of cp_port.py).

Maintenance (both buttons held, the marker file, or a drive boot.py left to
the computer), the self-test (MENU held), a CircuitPython too old, a
watchdog the chip would refuse, boot's garbage collected before the loop,
the setup book, the opening table and the SD card opened (or said once why
not), and the opponent's budgets for a port without viper.
"""

import os
import sys

from cp_start import LAYOUT, ROOT, boot, port, reference, run, start  # first: the fakes' path

import microcontroller
import neopixel_write
import physical
import storage


def scenario_maintenance():
    physical.HC165Chain("GP13", "GP10", "GP12", 4)
    keys = physical.Switches(["GP16", "GP17"])
    keys.set("GP16", True)  # UNDO and MENU held at power-up
    keys.set("GP17", True)
    assert boot() is False and storage.remounts == []  # the computer keeps the drive
    assert start() is None
    assert neopixel_write.writes == [] and microcontroller.watchdog.mode is None
    # The same with a file named `maintenance` and no button held.
    storage.booted = False
    keys.set("GP16", False)
    keys.set("GP17", False)
    open("maintenance", "w").close()
    assert boot() is False and storage.remounts == []
    assert start() is None
    print("OK maintenance")


def scenario_readonly():
    # No boot.py ran since the drive's files came (a new board's first
    # `attila flash --drive`), or boot.py left the drive to the computer:
    # code.py stays in maintenance however often it runs again (a reload at
    # each of the computer's writes), with no button held and no marker file.
    physical.HC165Chain("GP13", "GP10", "GP12", 4)
    physical.Switches(["GP16", "GP17"])
    storage.booted = True
    for _reload in range(3):
        assert start(3) is None
    assert neopixel_write.writes == [] and microcontroller.watchdog.mode is None
    # Reset: boot.py gives the drive to the board, which plays and saves its
    # game in microcontroller.nvm, never on the drive.
    storage.booted = False
    board = start(3) if boot() else None
    c = board.controller
    assert c.store is not None and c.troubles == [], c.troubles
    c.store.save("attila-save 1\nlog @a1\n")
    from nvmsave import NvmStore

    assert NvmStore(microcontroller.nvm).load() == "attila-save 1\nlog @a1\n"
    print("OK readonly")


def scenario_selftest():
    physical.HC165Chain("GP13", "GP10", "GP12", 4)
    keys = physical.Switches(["GP16", "GP17"])
    keys.set("GP17", True)  # MENU held at power-up
    assert boot() is True  # not maintenance: the board keeps saving
    board = start()
    c = board.controller
    # code.py's buttons and sensors each waited 5 ms for the pulls (boot.py
    # waits with time.sleep: not on this clock)
    assert c.tests == [1010], c.tests
    run(board, 10)
    assert c.presses == [], c.presses  # the MENU held since power-up is no press
    keys.set("GP17", False)
    run(board, 10)
    keys.set("GP17", True)
    run(board, 10)
    assert c.presses == [1], c.presses
    print("OK selftest")


def scenario_old():
    # CircuitPython 9.2.0: refused on the console and with every LED red.
    physical.HC165Chain("GP13", "GP10", "GP12", 4)
    physical.Switches(["GP16", "GP17"])

    class Impl:
        name = "circuitpython"
        version = (9, 2, 0)

    assert "9.2.0 is too old: the board needs 9.2.1 or newer" in port.too_old(Impl())
    real = port.too_old
    port.too_old = lambda: real(Impl())
    assert start() is None
    assert neopixel_write.writes == [("GP22", bytes((0, 64, 0)) * 20)], neopixel_write.writes
    print("OK old")


def scenario_watchdog():
    wd = microcontroller.watchdog
    try:
        wd.timeout = 9.0
        raise AssertionError("a 9 s watchdog was accepted")
    except ValueError as e:
        assert str(e) == "timeout must be <= 8", e
    from attila.profile import ProfileError

    try:
        start()
        raise AssertionError("a 8500 ms watchdog was accepted")
    except ProfileError as e:
        assert str(e) == ("profile.json: watchdog_ms 8500 is more than CircuitPython on the "
                          "rp2040 accepts (at most 8000)"), e
    print("OK watchdog")


def scenario_collected():
    # Boot's garbage is collected before the loop, not by its first
    # allocation that finds no room (a collection in a loop step).
    done = []

    class Gc:
        def collect(self):
            done.append("collect")

    port.gc = Gc()
    port.run = lambda *_args: done.append("loop")
    reference()
    assert done == ["collect", "loop"], done
    print("OK collected")


def scenario_book():
    # layout.book reaches the controller opened; missing or damaged, the board
    # runs on without it (the test reads what the console said).
    board, _chain = reference(3)
    book = board.controller.book
    if os.path.exists("layout.book") and os.path.getsize("layout.book") == 7323:
        from attila.game.rules import Game

        layout = board.controller.layout
        assert book.placement(Game(layout)) == layout.index("c2")
    else:
        assert book is None
    run(board, 3)
    print("OK book")


def scenario_opening():
    # layout.opening reaches the controller opened (no SD card in the
    # profile); missing or damaged, the board runs on without it (the test
    # reads what the console said).
    board, _chain = reference(3)
    card = board.controller.card
    with open(os.path.join(ROOT, "boards", "solved", "4x5.opening"), "rb") as f:
        solved = f.read()
    have = None
    if os.path.exists("layout.opening"):
        with open("layout.opening", "rb") as f:
            have = f.read()
    if have == solved:
        from attila.game.notation import parse_position
        from attila.opponent.opening import Opening

        assert isinstance(card, Opening) and not card.whole
        game = parse_position("R.H../.H.R./...H./R.... R")
        assert card.ask(game) and card.won(*game.knights, 0) == 1
        # (one square scorched: the reply table's; two: the corrections', and
        # where they have none, as here, the search's in full)
        assert card.ask(parse_position("R.H../.H.R./..xH./R...x R"))
        turn = -2
        while turn == -2:
            turn = card.step(4, 1)
        assert turn == -1 and not card.lost
    else:
        assert card is None
        if have is None:  # not even imported (nor its fold map made): the heap is kept
            assert "attila.opponent.opening" not in sys.modules
    run(board, 3)
    print("OK opening")


def scenario_card():
    # A profile with an sdcard: code.py reads it with busio + sdcardio; a missing
    # or foreign card is said once on the console and shown as trouble.
    board, _chain = reference(3)
    print("troubles: %r" % board.controller.troubles)
    run(board, 3)
    print("OK card")


def scenario_opponent():
    # No viper on CircuitPython: the opponent searches at its port's pace
    # (attila.opponent.levels.pace), a small slice a loop step, and stops at
    # the port's node budget.
    from attila.opponent.levels import CIRCUITPYTHON_NODES, CIRCUITPYTHON_SLICE
    from attila.assembly import controller_for
    from attila.game.notation import parse_position
    from attila import profile

    prof = profile.load("profile.json")
    planner = controller_for(prof, LAYOUT, None).plan.opponent
    planner.start(parse_position("x..../RH.../..R.x/.H.RH R"), 0)
    per_step = []
    while planner.busy:
        before = planner.nodes
        planner.step(0)
        per_step.append(planner.nodes - before)
    assert max(per_step) <= CIRCUITPYTHON_SLICE, per_step
    budget = CIRCUITPYTHON_NODES[prof.level]  # (read every 8 nodes: the search stops past it)
    assert budget <= planner.nodes == sum(per_step) < budget + CIRCUITPYTHON_SLICE, per_step
    print("OK opponent")
