"""Wiring: LED chain and sensor chain -> squares, from the layout's modules."""

import check
from attila.errors import LayoutError
from attila.game.modules import compose, place_module
from attila.sensing.wiring import NONE, Wiring


def board_4x5():
    # The modules of boards/4x5.json, in chain order.
    return compose(
        [
            place_module(1, "2x2", 0, 0, 0),  # a1
            place_module(2, "2x2", 0, 2, 0),  # a3
            place_module(3, "2x3", 2, 2, 90),  # c3, turned
            place_module(4, "2x3", 2, 0, 90),  # c1, turned
        ],
        "4x5",
    )


def sq(layout, names):
    return [layout.index(n) for n in names.split()]


# Chain order of the squares of boards/4x5.json, worked out by hand: module 1
# (a1 b1 a2 b2), module 2 (a3 b3 a4 b4), then the two turned 2x3 modules whose
# local index 0 lands on their top-left square.
CHAIN_4X5 = "a1 b1 a2 b2 a3 b3 a4 b4 c4 c3 d4 d3 e4 e3 c2 c1 d2 d1 e2 e1"


def test_4x5_led_chain():
    layout, modules = board_4x5()
    w = Wiring(layout, modules)
    assert w.led_count == 20
    assert list(w.led_square) == sq(layout, CHAIN_4X5), list(w.led_square)
    for k, s in enumerate(w.led_square):
        assert w.square_led[s] == k


def test_4x5_sensor_chain_and_squares():
    layout, modules = board_4x5()
    w = Wiring(layout, modules)
    assert list(w.sensor_square) == sq(layout, CHAIN_4X5)
    assert w.sensor_bits == 20
    assert w.registers == (4, 4, 6, 6)
    # chain bit 8 is c4 (module 3, local 0); bit 15 is c1 (module 4, local 1)
    assert w.squares(1 << 8) == 1 << layout.index("c4")
    assert w.squares(1 << 15) == 1 << layout.index("c1")
    assert w.squares(0) == 0
    assert w.squares((1 << 20) - 1) == layout.all
    # every single bit, and the inverse
    for bit in range(20):
        assert w.squares(1 << bit) == 1 << w.sensor_square[bit]
        assert w.chain(1 << w.sensor_square[bit]) == 1 << bit
    mixed = (1 << 0) | (1 << 9) | (1 << 19)
    assert w.squares(mixed) == sum(1 << layout.index(n) for n in ("a1", "c3", "e1"))


def test_turned_module_changes_the_map():
    # The same first module turned by 180 degrees: its local 0 is now b2.
    layout, modules = compose(
        [
            place_module(1, "2x2", 0, 0, 180),
            place_module(2, "2x2", 0, 2, 0),
            place_module(3, "2x3", 2, 2, 90),
            place_module(4, "2x3", 2, 0, 90),
        ],
        "4x5",
    )
    w = Wiring(layout, modules)
    assert list(w.led_square[:4]) == sq(layout, "b2 a2 b1 a1")
    assert w.squares(1) == 1 << layout.index("b2")


def test_serpentine_local_order_and_offset():
    layout, modules = board_4x5()
    w = Wiring(
        layout,
        modules,
        led_local={"2x2": [0, 1, 3, 2], "2x3": [0, 1, 3, 2, 4, 5]},
        sensor_local={"2x3": [5, 4, 3, 2, 1, 0]},
        led_offset=1,
    )
    assert w.led_count == 21
    assert w.led_square[0] == NONE
    assert list(w.led_square[1:]) == sq(
        layout, "a1 b1 b2 a2 a3 b3 b4 a4 c4 c3 d3 d4 e4 e3 c2 c1 d1 d2 e2 e1"
    )
    assert w.square_led[layout.index("a1")] == 1
    # sensors: 2x2 modules keep their order, 2x3 modules are read backwards
    assert list(w.sensor_square) == sq(
        layout, "a1 b1 a2 b2 a3 b3 a4 b4 e3 e4 d3 d4 c3 c4 e1 e2 d1 d2 c1 c2"
    )


def test_chain_order_follows_module_numbers():
    # Modules listed out of order: the chain still starts at module 1.
    mods = [
        place_module(2, "2x2", 0, 2, 0),
        place_module(1, "2x2", 0, 0, 0),
    ]
    layout, modules = compose(mods, "2x4", custom=True)
    w = Wiring(layout, modules)
    assert list(w.led_square) == sq(layout, "a1 b1 a2 b2 a3 b3 a4 b4")


def test_bad_local_order():
    layout, modules = board_4x5()
    msg = check.raises(LayoutError, Wiring, layout, modules, {"2x3": [0, 1, 2, 3, 4]})
    assert 'leds local_order["2x3"]' in msg, msg
    msg = check.raises(LayoutError, Wiring, layout, modules, None, {"2x2": [0, 0, 1, 2]})
    assert 'sensors local_order["2x2"]' in msg, msg
