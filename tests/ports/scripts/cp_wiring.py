"""The CircuitPython port reads and lights its wiring (scenarios of cp_port.py).

The 74HC165 chain scanned by keypad.ShiftRegisterKeys, direct pins by
keypad.Keys, a diode matrix by keypad.KeyMatrix, and a chattering switch
that overflows keypad's event queue: every sensor lands on its own square
and the LED bytes are the ones chain_4x5.expect works out by hand.
"""

from cp_start import boot, clock, reference, run, squares, start  # first: the fakes' path

import keypad
import microcontroller
import neopixel_write
import physical
import storage

from chain_4x5 import CHAIN, INPUTS, expect

DIRECT = ["GP%d" % n for n in list(range(16)) + [19, 20, 21, 26]]


def scenario_hc165():
    chain = physical.HC165Chain("GP13", "GP10", "GP12", 4)
    keys = physical.Switches(["GP16", "GP17"])
    chain.close(2, 0)  # module 3 D0: c4
    chain.close(3, 1)  # module 4 D1: c1
    assert boot() is True and storage.root.readonly is False
    board = start()
    c = board.controller
    assert type(board.inputs.scanner.keys) is keypad.ShiftRegisterKeys  # scanned in C, not bit-banged
    assert c.store is not None and c.troubles == []  # saves go to microcontroller.nvm
    writes = neopixel_write.writes
    assert writes[0] == ("GP22", bytes(60)), writes[0]  # dark at boot
    assert writes[-1] == ("GP22", expect(("c4", "c1"), (200, 100, 50))), writes[-1]
    assert list(writes[-1][1][24:27]) == [62, 125, 31]  # c4, LED 8: G R B
    assert c.sensed == [squares("c4", "c1")], c.sensed  # once, the truth at once
    wd = microcontroller.watchdog
    assert wd.timeout == 5.0 and wd.mode == "reset" and wd.feeds == 5

    # A chattering switch (a1) never reaches the controller.
    n = len(writes)
    for k in range(6):
        chain.close(0, 0, k % 2 == 0)
        run(board, 1)
    chain.close(0, 0, False)
    run(board, 5)
    assert len(writes) == n and c.sensed[-1] == squares("c4", "c1")

    # Every input of every register lands on its own square.
    for bit, (reg, d) in enumerate(INPUTS):
        chain.clear()
        chain.close(reg, d)
        run(board, 5)
        assert writes[-1] == ("GP22", expect((CHAIN[bit],), (200, 100, 50))), (bit, reg, d)

    # Full white everywhere: the cap holds it to 80 per channel (396 mA).
    c.colour = (255, 255, 255)
    for reg, d in INPUTS:
        chain.close(reg, d)
    run(board, 5)
    assert writes[-1] == ("GP22", b"\x50" * 60), writes[-1]

    # UNDO pressed
    keys.set("GP16", True)
    run(board, 5)
    assert c.presses == [0], c.presses
    print("OK hc165")


def scenario_gpio():
    sw = physical.Switches(DIRECT)
    physical.Switches(["GP16", "GP17"])
    sw.set("GP0", True)  # chain sensor 0: a1
    sw.set("GP26", True)  # chain sensor 19: e1
    boot()
    board = start()
    assert type(board.inputs.scanner.keys) is keypad.Keys
    assert neopixel_write.writes[-1] == ("GP22", expect(("a1", "e1"), (200, 100, 50)))
    sw.set("GP0", False)
    sw.set("GP5", True)  # chain sensor 5: b3
    run(board, 5)
    assert board.controller.sensed == [squares("a1", "e1"), squares("b3", "e1")], (
        board.controller.sensed)
    print("OK gpio")


def scenario_matrix():
    m = physical.Matrix(["GP0", "GP1", "GP2", "GP3"], ["GP4", "GP5", "GP6", "GP7", "GP8"])
    physical.Switches(["GP16", "GP17"])
    m.close(0, 2)  # sensor 2: a2
    m.close(1, 0)  # sensor 5: b3
    m.close(3, 4)  # sensor 19: e1
    boot()
    board = start()
    assert type(board.inputs.scanner.keys) is keypad.KeyMatrix
    assert neopixel_write.writes[-1] == ("GP22", expect(("a2", "b3", "e1"), (200, 100, 50)))
    assert list(m.row_level) == [1, 1, 1, 1]  # no row left low between scans
    print("OK matrix")


def scenario_overflow():
    # The loop stalls while a switch chatters: the event queue overflows, and
    # the scanner starts afresh from what is pressed now.
    board, chain = reference(1)
    events = board.inputs.scanner.keys.events
    for k in range(80):
        chain.close(0, 0, k % 2 == 0)
        clock.sleep(5)
        len(events)  # the background scans that fell due
    assert events.overflowed
    chain.close(1, 0)  # a3 down too, then everything holds still
    run(board, 5)
    assert not events.overflowed
    assert board.controller.sensed[-1] == squares("a3"), board.controller.sensed
    print("OK overflow")
