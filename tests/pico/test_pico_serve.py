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
