"""tools/pico/serve.py's typed lines, without running the chip (no emulator needed)."""

import os

from pico.chip import new_flash
from pico.serve import Served

from conftest import LAYOUT, ROOT, profile


def served(tmp_path, files=None):
    folder = tmp_path / "board"
    folder.mkdir()
    with open(LAYOUT, "rb") as f:
        layout = f.read()
    new_flash(str(folder / "flash.bin"), files if files is not None else {"layout.json": layout})
    s = Served(str(folder), LAYOUT, profile("pico.json"))
    s.sent = []
    s.pico.set_sensors = lambda closed, regs: s.sent.append((closed, regs))
    return s


def test_a_typo_is_answered_and_the_board_runs_on(tmp_path):
    s = served(tmp_path)
    assert s.command("put a1,z9") == "? z9 is not a square of this layout"
    assert s.sent == []  # nothing half done
    assert s.command("put a1,b3") == "squares: a1,b3"
    assert s.squares == 1 << s.layout.index("a1") | 1 << s.layout.index("b3")
    assert s.command("fly a1").startswith("? put SQ,SQ..")


def test_after_flashing_another_layout_its_own_square_names_are_used(tmp_path):
    with open(os.path.join(ROOT, "boards", "staircase.json"), "rb") as f:
        stairs = f.read()
    s = served(tmp_path, {"layout.json": stairs})  # the board holds another layout now
    assert s.layout.name == "4x5"
    reply = s.command("put a1").splitlines()
    assert reply[0].startswith("the board's layout is now staircase (")
    assert reply[1] == "squares: a1"
    assert s.layout.name == "staircase"
    assert s.wiring.chain(s.squares) != 0
    assert s.command("put a1") == "squares: a1"  # said once


def test_unplug_and_plug_a_module_cable(tmp_path):
    s = served(tmp_path)
    s._started = True  # (as after start(): the chip is told)
    s.pico.unplug = lambda register: s.sent.append(("unplug", register))
    assert s.command("unplug 3") == "the cable into module 3 is out"
    assert s.unplugged == 3 and s.sent == [("unplug", 2)]  # module 3: the third register
    assert s.command("unplug 5") == "? module 5: the chain has modules 1, 2, 3, 4"
    assert s.command("plug") == "every module cable is in"
    assert s.unplugged == 0 and s.sent[-1] == ("unplug", -1)
