"""The MicroPython port reads and lights each profile's wiring (scenarios of mpy_port.py).

The 74HC165 chain bit-banged (pico.json), by SPI (pico-spi.json) and on an
ESP32, direct pins, a diode matrix, the LEDs by neopixel or bitstream, and a
chain unplugged or buttons not wired at all: every sensor lands on its own
square and the LED bytes are the ones chain_4x5.expect works out by hand.
"""

import machine
import neopixel
import physical

import main
from chain_4x5 import CHAIN, INPUTS, expect
from mpy_start import start


def scenario_hc165():
    clock = physical.Clock()
    chain = physical.HC165Chain(13, 10, 12, 4)
    keys = physical.Switches([16, 17])
    board = start(clock)
    strip = neopixel.strips[0]
    wdt = machine.watchdogs[0]
    assert board.controller.sensed == [0], board.controller.sensed  # empty board, once
    assert strip.writes == 1 and strip.last == bytearray(60)
    assert wdt.timeout == 5000 and wdt.feeds == 5
    assert machine.pins[22].mode == machine.Pin.OUT
    assert strip.n == 20 and strip.bpp == 3
    # QH pulled the way an empty square reads (active low: up), so a chain
    # with its cable unplugged reads empty squares, not phantom ones.
    assert machine.pins[12].pull == machine.Pin.PULL_UP, machine.pins[12].pull

    def run(n):
        main.run(board, 10, wdt, n, clock.now, clock.sleep)

    # A magnet on module 3's input D0 (c4) and module 4's D1 (c1).
    chain.close(2, 0)
    chain.close(3, 1)
    run(5)
    assert strip.last == expect(("c4", "c1"), (200, 100, 50), 160), list(strip.last)
    # GRB: c4 is LED 8 -> bytes 24..26 = G, R, B of (125, 62, 31)
    assert list(strip.last[24:27]) == [62, 125, 31]
    assert list(strip.last[45:48]) == [62, 125, 31]  # c1 is LED 15
    writes = strip.writes

    # A chattering switch (a1) never reaches the controller.
    for k in range(6):
        chain.close(0, 0, k % 2 == 0)
        run(1)
    chain.close(0, 0, False)
    run(5)
    assert strip.writes == writes, (strip.writes, writes)
    assert board.controller.sensed[-1] == (1 << 17 | 1 << 2)

    # Every input of every register lands on its own square.
    for bit, (reg, d) in enumerate(INPUTS):
        chain.clear()
        chain.close(reg, d)
        run(4)
        assert strip.last == expect((CHAIN[bit],), (200, 100, 50), 160), (bit, list(strip.last))

    # Buttons: UNDO pressed once (with chatter), then MENU.
    keys.set(16, True)
    run(1)
    keys.set(16, False)
    run(1)
    keys.set(16, True)
    run(5)
    keys.set(16, False)
    run(5)
    keys.set(17, True)
    run(5)
    assert board.controller.presses == [0, 1], board.controller.presses

    # Full white on every square: the cap holds the LEDs to 400 mA.
    board.controller.colour = (255, 255, 255)
    for reg, d in INPUTS:
        chain.close(reg, d)
    run(5)
    assert strip.last == bytearray(b"\x50" * 60), list(strip.last)  # 80 each
    assert board.leds.current_ma(strip.last) == 396
    assert wdt.feeds == 5 + 5 + 6 + 5 + 4 * 20 + 17 + 5
    print("OK hc165")


def scenario_spi():
    clock = physical.Clock()
    chain = physical.HC165Chain(13, 10, 12, 4)
    physical.Switches([16, 17])
    chain.close(1, 3)  # module 2, D3: b4
    board = start(clock, 6)
    spi = machine.spis[0]
    assert spi.id == 1 and spi.sck.id == 10 and spi.miso.id == 12
    assert spi.miso.pull == machine.Pin.PULL_UP, spi.miso.pull
    assert spi.reads == 6 and chain.latches == 6
    strip = neopixel.strips[0]
    assert strip.last == expect(("b4",), (200, 100, 50), 160), list(strip.last)
    assert board.controller.sensed == [1 << 16]
    print("OK spi")


def scenario_esp32():
    clock = physical.Clock()
    chain = physical.HC165Chain(25, 18, 19, 4)
    physical.Switches([32, 33])
    chain.close(0, 2)  # module 1, D2: a2
    board = start(clock)
    spi = machine.spis[0]
    assert spi.id == 2 and spi.sck.id == 18 and spi.miso.id == 19
    assert spi.miso.pull == machine.Pin.PULL_UP, spi.miso.pull
    assert machine.watchdogs[0].timeout == 5000
    strip = neopixel.strips[0]
    assert strip.pin.id == 27
    assert strip.last == expect(("a2",), (200, 100, 50), 160), list(strip.last)
    assert board.controller.sensed == [1 << 5]
    print("OK esp32")


def scenario_gpio():
    pins = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 18, 19, 20, 21]
    clock = physical.Clock()
    sw = physical.Switches(pins)
    physical.Switches([16, 17])
    sw.set(0, True)  # chain sensor 0: a1
    sw.set(21, True)  # chain sensor 19: e1
    board = start(clock)
    strip = neopixel.strips[0]
    assert strip.last == expect(("a1", "e1"), (200, 100, 50), 160), list(strip.last)
    for k, p in enumerate(pins):
        assert machine.pins[p].pull == machine.Pin.PULL_UP, p
    main.run(board, 10, None, 5, clock.now, clock.sleep)
    print("OK gpio")


def scenario_matrix():
    clock = physical.Clock()
    m = physical.Matrix([0, 1, 2, 3], [4, 5, 6, 7, 8])
    physical.Switches([16, 17])
    m.close(0, 2)  # sensor 2: a2
    m.close(1, 0)  # sensor 5: b3
    m.close(3, 4)  # sensor 19: e1
    board = start(clock)
    strip = neopixel.strips[0]
    # LEDs are serpentine in this profile: module 1 a1 b1 b2 a2 ...
    serp = "a1 b1 b2 a2 a3 b3 b4 a4 c4 c3 d3 d4 e4 e3 c2 c1 d1 d2 e2 e1".split()
    assert strip.last == expect(("a2", "b3", "e1"), (200, 100, 50), 160, serp), list(
        strip.last
    )
    assert list(strip.last[9:12]) == [62, 125, 31]  # a2 is LED 3
    assert m.scans == 5
    # only one row low at a time, all high between scans
    assert list(m.row_level) == [1, 1, 1, 1]
    print("OK matrix")


def scenario_bitstream():
    clock = physical.Clock()
    chain = physical.HC165Chain(13, 10, 12, 4)
    physical.Switches([16, 17])
    chain.close(3, 5)  # module 4, D5: e1
    start(clock)
    bs = machine.bitstream
    assert neopixel.strips == []
    assert bs.pin == 22 and bs.timing == (400, 850, 800, 450)
    assert bs.last == expect(("e1",), (200, 100, 50), 160), list(bs.last)
    assert bs.count == 2  # dark at boot, then e1 once debounced
    print("OK bitstream")


def scenario_unplugged():
    # The chain's cable unplugged: nothing drives QH, which reads by its pull
    # (up: every byte 0xFF, the one past the chain too, which a cabled chain
    # reads 0): no square is read, module 1 is named (attila.sensing.chain).
    clock = physical.Clock()
    physical.Switches([16, 17])
    board = start(clock)
    assert machine.pins[12].pull == machine.Pin.PULL_UP, machine.pins[12].pull
    assert board.controller.sensed == [], board.controller.sensed
    assert board.controller.chained == [1], board.controller.chained
    print("OK unplugged")


def scenario_unwired():
    # No buttons wired at all: the inputs read by their pull-ups, so nothing
    # is held (read without their pulls they would read low: "held").
    physical.HC165Chain(13, 10, 12, 4)
    clock = physical.Clock()
    board = start(clock)
    assert board is not None and board.controller.tests == []
    for p in (16, 17):
        assert machine.pins[p].pull == machine.Pin.PULL_UP, p
    print("OK unwired")
