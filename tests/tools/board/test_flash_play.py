"""The flashed board plays: from its own flash it reads its switches and saves its game.

After the flash the firmware boots, reads its fake reed switches through
each MicroPython profile's wiring (74HC165 chain bit-banged or by SPI, diode
matrix, direct pins) and plays a scripted game, which it saves to game.txt.
"""

import json
import os

import pytest
from emulated_board import (LAYOUT, ROOT, board_from, boot_line, needs_emulator, play_steps,
                            saved_game, scripted_game)

from tests.helpers import wait_for

from attila_tools.board import settings


@needs_emulator
def test_flashed_board_plays_a_scripted_game(flashed, tmp_path):
    from attila.game import layoutfile
    from attila.game.notation import log
    from attila.game.rules import OVER
    from attila.saves.savetext import restore

    _out, golden, _built = flashed
    layout, _modules, _tiles = layoutfile.load(LAYOUT)
    game, steps = scripted_game(layout)
    assert game.phase == OVER and len(steps) > 20
    dev, hw = board_from(golden, tmp_path)
    with dev:
        # Power-up: main.py starts from the board's flash.
        assert wait_for(lambda: boot_line(dev), "the firmware to start").startswith(
            "attila: 4x5 on pico")
        writes_before, _ = hw.strip()
        play_steps(dev, hw, steps)

        def saved():
            text = saved_game(dev)
            return text if log(game) in text else None

        text = wait_for(saved, "the whole game in game.txt and its journal")
        back = restore(text)
        assert log(back) == log(game) and back.phase == OVER
        writes, buf = hw.strip()
        assert writes > writes_before, "the LEDs were never written during the game"
        assert len(buf) == 3 * layout.size
        assert any(hw.leds()), "the LEDs are all dark at the end of the game"
        assert b"Traceback" not in dev.serial_log()


def _micropython_profiles():
    folder = os.path.join(ROOT, "boards", "profiles")
    out = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name)) as f:
                if json.load(f).get("port", "micropython") == "micropython":
                    out.append(os.path.join(folder, name))
    return out


@needs_emulator
@pytest.mark.parametrize("profile", _micropython_profiles(), ids=os.path.basename)
def test_every_profile_reads_its_switches_on_the_board(flashed, tmp_path, profile):
    """The firmware with each MicroPython profile follows a setup through its own wiring
    (direct pins, diode matrix, 74HC165 bit-banged or by SPI) on the emulated board."""
    from attila.game import layoutfile
    from attila.game.notation import log

    _out, golden, _built = flashed
    layout, _modules, _tiles = layoutfile.load(LAYOUT)
    game, steps = scripted_game(layout)
    dev, hw = board_from(golden, tmp_path, profile=profile)
    with open(profile) as f:
        data = json.load(f)
    name = data["name"]
    # This board has no microSD socket: flashed as `make flash CARD=0` flashes
    # a controller's profile with its socket empty (else its status lines
    # would carry "card not used").
    with open(os.path.join(dev.root, "profile.json"), "w") as f:
        json.dump(settings.apply(data, with_card=False), f)
    with dev:
        line = wait_for(lambda: boot_line(dev), "the firmware to start")
        assert line.startswith("attila: 4x5 on %s" % name), line
        play_steps(dev, hw, steps[:9])  # the six placements and the first turn
        want = " ".join(log(game).split()[:7])
        wait_for(lambda: ("log %s\n" % want) in saved_game(dev),
                 "the first moves in game.txt and its journal")
        assert b"Traceback" not in dev.serial_log()
