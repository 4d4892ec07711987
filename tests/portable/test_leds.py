"""LED rendering: chain order, colour order, brightness and the power cap, byte by byte."""

import check
from attila.leds.strip import Leds
from attila.game.modules import compose, place_module
from attila.sensing.wiring import Wiring


def wiring_4x5(offset=0):
    layout, modules = compose(
        [
            place_module(1, "2x2", 0, 0, 0),
            place_module(2, "2x2", 0, 2, 0),
            place_module(3, "2x3", 2, 2, 90),
            place_module(4, "2x3", 2, 0, 90),
        ],
        "4x5",
    )
    return layout, Wiring(layout, modules, led_offset=offset)


def frame_with(layout, colours):
    frame = bytearray(3 * layout.size)
    for name, rgb in colours.items():
        i = layout.index(name)
        frame[3 * i : 3 * i + 3] = bytes(rgb)
    return frame


def test_grb_order_and_chain_position():
    layout, w = wiring_4x5()
    leds = Leds(w)  # GRB, full brightness, 400 mA
    buf = bytearray(60)
    frame = frame_with(layout, {"a1": (10, 20, 30), "e1": (255, 0, 128), "c4": (1, 2, 3)})
    assert leds.render(frame, buf) == 255
    want = bytearray(60)
    want[0:3] = bytes((20, 10, 30))  # a1 is LED 0
    want[57:60] = bytes((0, 255, 128))  # e1 is LED 19
    want[24:27] = bytes((2, 1, 3))  # c4 is LED 8 (module 3, local 0)
    assert buf == want, list(buf)


def test_brightness_scales_every_channel_down():
    layout, w = wiring_4x5()
    leds = Leds(w, brightness=128)
    buf = bytearray(60)
    leds.render(frame_with(layout, {"a1": (10, 20, 30), "e1": (255, 0, 128)}), buf)
    # v * 128 // 255
    assert list(buf[0:3]) == [10, 5, 15], list(buf[0:3])
    assert list(buf[57:60]) == [0, 128, 64], list(buf[57:60])
    assert sum(buf) == 10 + 5 + 15 + 128 + 64


def test_power_cap_on_full_white():
    layout, w = wiring_4x5()
    leds = Leds(w)  # 400 mA budget, 20 mA per channel, 1 mA idle per LED
    assert leds.limit == (400 - 20) * 255 // 20 == 4845
    buf = bytearray(60)
    white = bytearray(b"\xff" * 60)
    # 20 LEDs full white would be 20 * 3 * 20 mA = 1200 mA (+ 20 mA idle)
    assert leds.current_ma(white) == 1220
    level = leds.render(white, buf)
    assert level == 80, level  # 4845 * 255 // 15300
    assert buf == bytearray(b"\x50" * 60)
    assert leds.current_ma(buf) == 396  # 4800 * 20 // 255 + 20 <= 400


def test_cap_leaves_a_dim_frame_alone():
    layout, w = wiring_4x5()
    leds = Leds(w, brightness=50)
    buf = bytearray(60)
    assert leds.render(bytearray(b"\xff" * 60), buf) == 50
    assert buf == bytearray(b"\x32" * 60)


def test_cap_never_exceeds_budget():
    layout, w = wiring_4x5()
    for budget in (30, 100, 250, 400, 1000):
        leds = Leds(w, budget_ma=budget)
        buf = bytearray(60)
        for fill in (1, 7, 99, 200, 255):
            frame = bytearray(bytes((fill,)) * 60)
            frame[5] = 3
            leds.render(frame, buf)
            assert leds.current_ma(buf) <= budget, (budget, fill, leds.current_ma(buf))


def test_offset_led_and_rgbw():
    layout, w = wiring_4x5(offset=1)
    leds = Leds(w, order="GRBW")
    assert leds.bytes_needed() == 84
    buf = bytearray(84)
    leds.render(frame_with(layout, {"a1": (1, 2, 3), "b1": (4, 5, 6)}), buf)
    want = bytearray(84)
    want[4:8] = bytes((2, 1, 3, 0))  # a1 is LED 1 after the offset LED
    want[8:12] = bytes((5, 4, 6, 0))
    assert buf == want, list(buf)


def test_rgb_order():
    layout, w = wiring_4x5()
    leds = Leds(w, order="RGB")
    buf = bytearray(60)
    leds.render(frame_with(layout, {"b2": (7, 8, 9)}), buf)
    assert list(buf[9:12]) == [7, 8, 9]  # b2 is LED 3


def test_bad_settings():
    layout, w = wiring_4x5()
    assert "XYZ" in check.raises(ValueError, Leds, w, "XYZ")
    assert "idle" in check.raises(ValueError, Leds, w, "GRB", 255, 20)
