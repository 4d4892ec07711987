"""tools/pico/serve.py's typed lines, without running the chip (no emulator needed)."""

import os

from tools.pico.board import MENU, UNDO
from tools.pico.chip import new_flash
from tools.pico.serve import HELP, Served

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
    assert s.command("put a1,b3") == "magnets on a1 b3, none elsewhere"
    assert s.squares == 1 << s.layout.index("a1") | 1 << s.layout.index("b3")
    assert s.command("put -") == "no magnet on any square" and s.squares == 0
    assert s.command("fly a1") == \
        "? 'fly a1' is not a line serve.py knows (type help for the lines it takes)"


def test_help_and_the_buttons_read_as_a_person_reads_them(tmp_path):
    # help is no error (no "?"); a reply says what changed, never the line
    # typed again (the terminal shows it already: "hold menu" was there twice).
    s = served(tmp_path)
    held = []
    s.hold = lambda button, down: held.append((button, down))
    assert s.command("help") == s.command("?") == HELP
    assert HELP.startswith("What your hands do on the board") and "? " not in HELP
    said = [s.command("hold menu"), s.command("release menu"), s.command("hold undo")]
    assert said == ["MENU is down until you type release menu", "MENU is up",
                    "UNDO is down until you type release undo"]
    assert held == [(MENU, True), (MENU, False), (UNDO, True)]
    for reply, typed in zip(said, ("hold menu", "release menu", "hold undo")):
        assert typed not in reply


def test_after_flashing_another_layout_its_own_square_names_are_used(tmp_path):
    with open(os.path.join(ROOT, "boards", "staircase.json"), "rb") as f:
        stairs = f.read()
    s = served(tmp_path, {"layout.json": stairs})  # the board holds another layout now
    assert s.layout.name == "4x5"
    reply = s.command("put a1").splitlines()
    assert reply[0].startswith("the board's layout is now staircase (")
    assert reply[1] == "magnets on a1, none elsewhere"
    assert s.layout.name == "staircase"
    assert s.wiring.chain(s.squares) != 0
    assert s.command("put a1") == "magnets on a1, none elsewhere"  # the new layout said once


def test_unplug_and_plug_a_module_cable(tmp_path):
    s = served(tmp_path)
    s._started = True  # (as after start(): the chip is told)
    s.pico.unplug = lambda register: s.sent.append(("unplug", register))
    assert s.command("unplug 3") == "the cable into module 3 is out"
    assert s.unplugged == 3 and s.sent == [("unplug", 2)]  # module 3: the third register
    assert s.command("unplug 5") == "? module 5: the chain has modules 1, 2, 3, 4"
    assert s.command("plug") == "every module cable is in"
    assert s.unplugged == 0 and s.sent[-1] == ("unplug", -1)


def test_the_boards_lines_show_without_the_raw_repls_framing(tmp_path):
    # serve.py's terminal shows the board's words, not only its LEDs and squares.
    s = served(tmp_path)
    s.pico.serial += (b"attila: 4x5 on pico, 20 squares\r\nRomans: place a knight on a lit "
                      b"square (knight 1 of 3)\r\nraw REPL; CTRL-B to exit\r\n>OK\x04\x04>"
                      b"\r\nHuns: pla")
    assert s.words() == ["attila: 4x5 on pico, 20 squares",
                         "Romans: place a knight on a lit square (knight 1 of 3)"]
    s.pico.serial += b"ce a knight\r\n"
    assert s.words() == ["Huns: place a knight"]  # a line is shown once it is whole
    assert s.words() == []


def test_a_circuitpython_profile_boots_its_drive_folder_or_says_how(tmp_path, capsys):
    # serve.py --profile circuitpython-pico.json boots CircuitPython, not MicroPython.
    import pytest

    from tools.pico import circuitpy
    from tools.pico.board import drive_folder
    from tools.pico.serve import ServeError, main

    cp = profile("circuitpython-pico.json")
    folder = tmp_path / "cp"
    assert main(["--state", str(folder), "--profile", cp]) == 2
    err = capsys.readouterr().err
    assert err == ("serve.py: %s is a CircuitPython profile: fill a folder named CIRCUITPY "
                   "first (attila flash --drive FOLDER/CIRCUITPY --profile %s), then give "
                   "serve.py --drive FOLDER/CIRCUITPY (default: --state's CIRCUITPY); %s is "
                   "not a folder\n" % (cp, cp, folder / "CIRCUITPY"))
    with pytest.raises(ServeError, match="--drive is for a CircuitPython profile"):
        Served(str(tmp_path / "mp"), LAYOUT, profile("pico.json"), drive=str(folder))
    why = circuitpy.available()
    if why:
        pytest.skip(why)
    drive_folder(str(folder / "CIRCUITPY"), LAYOUT, cp)  # .mpy, as attila flash --drive writes
    flash = folder / "flash.bin"
    s = Served(str(folder), LAYOUT, cp)
    assert s.circuitpython
    image = bytearray(flash.read_bytes())
    assert image[:circuitpy.NVM_OFFSET] == circuitpy.firmware()[:circuitpy.NVM_OFFSET]
    assert "code.py" in circuitpy.read_files(bytes(image))
    # Served again: CIRCUITPY made anew from the folder, the nvm (the saved game) kept.
    image[circuitpy.NVM_OFFSET:circuitpy.NVM_OFFSET + 4] = b"game"
    flash.write_bytes(bytes(image))
    Served(str(folder), LAYOUT, cp)
    assert flash.read_bytes()[circuitpy.NVM_OFFSET:circuitpy.NVM_OFFSET + 4] == b"game"
