"""The boards' netlists: what the emulated Pico is wired from (no KiCad needed)."""

import os
import types

from attila import profile
from attila.game import layoutfile
from attila_tools.hardware import copper, netlist, pinout

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tools.pico import board as pico_board  # noqa: E402


def test_modules_netlists_give_the_firmwares_order():
    for kind in ("2x2", "2x3"):
        leds, sensors = copper.firmware_order(kind)
        wired = netlist.module_wiring(kind)
        assert wired["leds"] == leds
        # the switch under square k drives input D(bit of square k)
        assert [wired["inputs"][sq] for sq in sensors] == list(range(len(sensors)))


def test_controller_gpios_are_the_profiles():
    # the ordered controller's profile, as the firmware reads it
    gpios = pinout.gpios()
    assert netlist.controller_gpio() == {k: gpios[k] for k in ("LED", "LOAD", "CLOCK", "SHIFT")}


def emulated(monkeypatch=None):
    """An emulated board's own state (no chip): the 4x5 layout, pico.json."""
    prof = profile.load(os.path.join(ROOT, "boards", "profiles", "pico.json"))
    layout, modules, _ = layoutfile.load(os.path.join(ROOT, "boards", "4x5.json"))
    b = types.SimpleNamespace(prof=prof, layout=layout, modules=modules,
                              wiring=prof.wiring(layout, modules))
    b.copper = pico_board.copper(prof, modules)
    return b


def test_the_emulated_boards_registers_come_from_the_copper(monkeypatch):
    b = emulated()
    assert b.copper == {"2x2": netlist.module_wiring("2x2"), "2x3": netlist.module_wiring("2x3")}
    a1 = b.layout.at(0, 0)  # module 1's square 0
    regs = pico_board.PicoBoard._copper_registers(b, 1 << a1)
    assert regs == [0xFE, 0xFF, 0xFF, 0xFF]  # D0 of module 1 reads the magnet (active low)
    # a board whose switches 0 and 1 were crossed: the emulator follows the copper
    crossed = dict(b.copper)
    crossed["2x2"] = {"inputs": [1, 0, 2, 3], "leds": [0, 1, 2, 3]}
    b.copper = crossed
    assert pico_board.PicoBoard._copper_registers(b, 1 << a1) == [0xFD, 0xFF, 0xFF, 0xFF]
    squares = pico_board.PicoBoard.led_squares(b)
    assert squares == list(b.wiring.led_square)
