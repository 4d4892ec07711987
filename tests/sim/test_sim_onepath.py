"""One code path: the simulator shows exactly the bytes the firmware would send."""

from attila import profile as profiles
from attila.play.presses import BUTTON_UNDO

from attila_sim import actions
from attila_sim.rig import Rig

import simkit

# A serpentine, offset, RGB-ordered build with a scrambled sensor order: the
# decoding back to squares must undo all of it.
ODD_PROFILE = {
    "name": "odd",
    "leds": {"pin": 0, "order": "RGB", "offset": 1, "brightness": 128,
             "local_order": {"2x3": [0, 1, 3, 2, 4, 5], "2x2": [1, 0, 2, 3]}},
    "sensors": {"kind": "gpio", "pins": list(range(1, 21)),
                "local_order": {"2x2": [3, 2, 1, 0], "2x3": [5, 4, 3, 2, 1, 0]}},
}


def events(layout, items):
    """Hand events of a game log: ('lift', sq) ('put', sq, kind), plus an
    illegal placement with its correction and an undo with its take-back."""
    out = []
    side = 0
    for k, item in enumerate(items):
        if item.startswith("@"):
            sq = layout.index(item[1:])
            out.append(("put", sq, "RH"[side]))
            side ^= 1
            continue
        step, _, burn = item.partition(",")
        a, _, b = step.partition("-")
        out += [("lift", layout.index(a)), ("put", layout.index(b), None),
                ("put", layout.index(burn), "x")]
        if k == 7:
            # The scorch taken back with UNDO, the tile lifted, put again.
            out += [("press", BUTTON_UNDO), ("lift", layout.index(burn)),
                    ("put", layout.index(burn), None)]
        if k == 8:
            # A tile on an occupied-looking wrong square: a correction.
            free = [i for i in range(layout.size) if not out_mask(out, layout) >> i & 1]
            out += [("put", free[0], "x"), ("lift", free[0]), ("drop",)]
    return out


def out_mask(evs, layout):
    mask = 0
    for e in evs:
        if e[0] == "put":
            mask |= 1 << e[1]
        elif e[0] == "lift":
            mask &= ~(1 << e[1])
    return mask


def run_both(profile=None):
    layout, modules, tiles = simkit.load()
    items, _ = simkit.legal_game(layout, tiles=tiles)
    rig = Rig(layout, modules, tiles, profile=profile)
    fw = simkit.Firmware(layout, modules, tiles, profile=profile)
    sent = []
    orig = rig.strip.write

    def spy(data=None):
        orig(data)
        sent.append(rig.strip.sent)

    rig.strip.write = spy
    assert rig.shown() == fw.strip.sent
    checked = 0
    modes = set()
    for e in events(layout, items):
        if e[0] == "lift":
            rig.do([("lift", e[1])])
            fw.set(fw.mask & ~(1 << e[1]))
        elif e[0] == "put":
            steps = [("take", e[2])] if e[2] else []
            rig.do(steps + [("put", e[1])])
            fw.set(fw.mask | 1 << e[1])
        elif e[0] == "drop":
            rig.do([("drop",)])
        else:
            rig.do([("press", "undo", 80)])
            fw.press(e[1], 80)
        assert rig.now == fw.now
        assert rig.shown() == fw.strip.sent, e
        assert rig.colours() == fw.colours()
        assert rig.status() == fw.controller.status()
        checked += 1
        modes.add(rig.mode_name())
    assert modes == {"play", "correct", "over"}
    # Every write, in order, is the same.
    assert sent == fw.strip.writes[-len(sent):]
    assert fw.controller.mode == rig.controller.mode
    return rig, fw, checked


def test_frames_equal_the_firmware_frames():
    rig, fw, checked = run_both()
    assert checked > 40
    assert rig.mode_name() == "over"


def test_frames_equal_with_an_odd_wiring_and_colour_order():
    profile = profiles.parse(ODD_PROFILE, "odd")
    rig, fw, _ = run_both(profile)
    # The strip is one LED longer (the offset LED stays dark) and RGB-ordered.
    assert len(rig.shown()) == 3 * (rig.layout.size + 1)
    assert rig.shown()[:3] == b"\0\0\0"


def test_decoded_colours_are_the_controller_frame_at_the_rendered_level():
    layout, modules, tiles = simkit.load()
    profile = profiles.parse(ODD_PROFILE, "odd")
    rig = Rig(layout, modules, tiles, profile=profile)
    for line in ("@a1", "@e4", "lift e4"):  # e4 taken back: a steady frame
        rig.do(actions.parse(layout, line))
    frame = rig.controller.frame
    level = rig.leds.level
    assert level == 128
    want = [tuple(frame[3 * i + c] * level // 255 for c in range(3)) for i in range(layout.size)]
    assert rig.colours() == want
    assert any(any(c) for c in want)


def test_the_sensors_report_in_chain_order():
    layout, modules, tiles = simkit.load()
    profile = profiles.parse(ODD_PROFILE, "odd")
    rig = Rig(layout, modules, tiles, profile=profile)
    rig.do(actions.parse(layout, "put a1 R"))
    raw = rig.switches.scan()
    # Bit k of the raw reading is the sensor at chain place k.
    assert raw == 1 << list(rig.wiring.sensor_square).index(layout.index("a1"))
    assert raw != 1 << layout.index("a1")  # the odd order really moved it
    assert rig.wiring.squares(raw) == 1 << layout.index("a1")


def test_raw_lines_go_through_the_wiring():
    layout, modules, tiles = simkit.load()
    profile = profiles.parse(ODD_PROFILE, "odd")
    rig = Rig(layout, modules, tiles, profile=profile)
    bit = list(rig.wiring.sensor_square).index(layout.index("c2"))
    rig.do(actions.parse(layout, "raw %#x" % (1 << bit)))
    assert rig.position() == "...../...../..R../..... H"
    assert rig.table.text(layout.index("c2")) == "o"  # some piece: the sensors can't say
    import pytest
    from attila_sim.table import TableError

    with pytest.raises(TableError, match="beyond the 20 sensors"):
        rig.do(actions.parse(layout, "raw 0x100000"))
