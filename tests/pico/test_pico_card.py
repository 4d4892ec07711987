"""The solved game on a microSD card in the emulated Pico (tools/pico/sdcard.mjs).

A 12-square layout's card (`attila card`, 0.15 MB) copied onto a FAT32
image with mtools, as a user copies it onto a card; the firmware reads it
over SPI0 with its own driver (sdspi.py) and attila.opponent.fat / attila.opponent.card: its
answers are the retrograde tables'. A missing, damaged or foreign card is
said once on the console, with the trouble sign, and the board plays on;
an exFAT card is told to be reformatted as FAT32, with how.
Skipped where mtools is not installed (the CI script installs it).
"""

import json
import os
import shutil
import subprocess

import pytest
from conftest import ROOT, profile

from tools.pico.board import PicoBoard

pytestmark = pytest.mark.skipif(shutil.which("mformat") is None,
                                reason="mtools (mformat, mcopy) is not installed")

TWELVE = {"name": "twelve", "custom": True, "rows": ["....", "....", "...."]}
SIX = {"name": "six-by-two", "custom": True, "rows": ["......", "......"]}
SD = {"spi": 0, "sck": 2, "mosi": 3, "miso": 4, "cs": 5}


def _solve(folder, data):
    """(layout file, tables, card file) of a custom layout."""
    from attila.game.layoutfile import load
    from attila_tools.solve import retro
    from attila_tools.solve.card_cmd import write_card

    path = os.path.join(folder, data["name"] + ".json")
    with open(path, "w") as f:
        json.dump(data, f)
    layout, _, _ = load(path)
    tables = retro.solve(layout, threads=1)
    card = os.path.join(folder, data["name"] + ".tbl")
    write_card(tables, card)
    return path, tables, card


def _image(path, card, damage_block=-1):
    with open(path, "wb") as f:
        f.truncate(40 << 20)
    subprocess.run(["mformat", "-i", path, "-F", "::"], check=True)
    src = card
    if damage_block >= 0:
        with open(card, "rb") as f:
            data = bytearray(f.read())
        data[damage_block * 512 + 3] ^= 0x40
        src = path + ".tbl"
        with open(src, "wb") as f:
            f.write(data)
    subprocess.run(["mcopy", "-i", path, src, "::attila.tbl"], check=True)
    return path


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("card"))
    layout, tables, card = _solve(folder, TWELVE)
    _six_layout, _six_tables, six_card = _solve(folder, SIX)
    with open(profile("pico.json")) as f:
        prof = json.load(f)
    prof["sdcard"] = SD
    prof_path = os.path.join(folder, "profile.json")
    with open(prof_path, "w") as f:
        json.dump(prof, f)
    return {"folder": folder, "layout": layout, "tables": tables, "card": card,
            "six": six_card, "profile": prof_path}


def _board(world, tmp_path, mpy_dir, image, extra=None):
    return PicoBoard.flashed(str(tmp_path / "board"), world["layout"], world["profile"],
                             extra=extra, out_dir=mpy_dir, sd_image=image)


def test_the_board_reads_the_tables_from_its_card(world, tmp_path, mpy_dir):
    import random

    tables = world["tables"]
    rng = random.Random(4)
    asked = []
    for _ in range(60):
        squares = rng.sample(range(12), 12)
        mover = sum(1 << i for i in squares[:3])
        other = sum(1 << i for i in squares[3:6])
        scorched = sum(1 << i for i in squares[6:6 + rng.randrange(7)])
        asked.append((mover, other, scorched))
    image = _image(str(tmp_path / "sd.img"), world["card"])
    with _board(world, tmp_path, mpy_dir, image, {"maintenance": b""}) as board:
        out = board.pico.exec(
            "import hardware\n"
            "from attila import profile\nfrom attila.game import layoutfile\n"
            "from attila.assembly import open_card\n"
            "p = profile.load('profile.json')\n"
            "lay, _m, _t = layoutfile.load('layout.json')\n"
            "card, said = open_card(hardware, p, lay)\n"
            "print(said)\n"
            "print(''.join(str(card.won(*q)) for q in %r))\n" % (asked,), max_ms=120000)
    said, got = out.strip().splitlines()
    assert said == "card: the solved game of twelve (294 blocks): the board plays it"
    assert got == "".join(str(int(tables.won(*q))) for q in asked)
    assert got.count("1") > 10 and got.count("0") > 10


def _exfat(path):
    """A card as 64 GB ones are sold: exFAT, no partition table (its boot block)."""
    b = bytearray(1 << 20)
    b[0:11] = b"\xeb\x76\x90EXFAT   "
    b[454:458] = b"\x8e\xd1\xbc\xf4"  # boot code, where an MBR keeps its first partition
    b[510:512] = b"\x55\xaa"
    with open(path, "wb") as f:
        f.write(b)
    return path


CASES = {
    "exfat": "card not used (exFAT: reformat as FAT32 (Linux: mkfs.vfat -F 32; macOS: diskutil "
             "eraseDisk FAT32 ATTILA MBRFormat; Windows: Rufus or guiformat)): the board searches",
    "missing": "card not used (no SD card): the board searches",
    "damaged": "card not used (attila.tbl: block 1 is damaged or out of place): "
               "the board searches",
    "foreign": "card not used (attila.tbl: the tables are for another layout (six-by-two, "
               "12 squares)): the board searches",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_without_a_good_card_the_board_says_why_once_and_plays_on(world, tmp_path, mpy_dir, case):
    image = None
    if case == "damaged":
        image = _image(str(tmp_path / "sd.img"), world["card"], damage_block=1)
    elif case == "foreign":
        image = _image(str(tmp_path / "sd.img"), world["six"])
    elif case == "exfat":
        image = _exfat(str(tmp_path / "sd.img"))
    with _board(world, tmp_path, mpy_dir, image) as board:
        assert board.boot() == "attila: twelve on pico, 12 squares"
        board.pico.wait_for(b"(knight 1 of 3) [" + CASES[case].encode() + b"]", 8000)
        board.pico.wait_for(b"\n", 1000, since=len(board.pico.serial) - 2)
        text = board.pico.output(0)
    lines = [x for x in text.splitlines() if "card" in x]
    assert [x for x in lines if x.startswith("attila:")] == ["attila: " + CASES[case]]
    # The status line carries it, as every trouble: the player sees it too.
    assert lines[-1] == ("Romans: place a knight on a lit square (knight 1 of 3) [%s]"
                         % CASES[case]), lines


def _setup_and_turn(tables):
    """Six placements after which the Romans (to move) win, and a turn that throws it away."""
    import random

    from attila.game.rules import MOVE, Game

    lay = tables.layout
    rng = random.Random(7)
    while True:
        game = Game(lay)
        while game.phase != MOVE:
            legal = [i for i in range(lay.size) if game.placements() >> i & 1]
            if not legal:
                break
            game.place(rng.choice(legal))
        if game.phase != MOVE or game.side != 0:
            continue
        me, opp = game.knights
        if not tables.won(me, opp, 0):
            continue
        free = game.free()
        for a in range(lay.size):
            for b in range(lay.size):
                if me >> a & 1 and lay.knight[a] >> b & 1 and free >> b & 1:
                    for c in range(lay.size):
                        if (free ^ (1 << a | 1 << b)) >> c & 1 and \
                                tables.won(opp, me ^ (1 << a | 1 << b), 1 << c):
                            places = ["@" + lay.names[e >> 8 & 0xFF] for e in game.history]
                            return places, "%s-%s,%s" % (lay.names[a], lay.names[b],
                                                         lay.names[c])


def test_the_coach_and_a_hint_from_the_card_in_the_boards_loop(world, tmp_path, mpy_dir):
    """The board's own loop with the card and the coach on (the profile's game.coach):
    the hint is the card's (a winning turn), a turn that throws the win is said."""
    from attila_sim import actions

    from attila_tools.files import open_card
    from twin import Mirror

    tables = world["tables"]
    places, throw = _setup_and_turn(tables)
    with open(world["profile"]) as f:
        prof = json.load(f)
    prof["game"] = {"coach": True}
    coach_profile = os.path.join(str(tmp_path), "coach.json")
    with open(coach_profile, "w") as f:
        json.dump(prof, f)
    image = _image(str(tmp_path / "sd.img"), world["card"])
    board = PicoBoard.flashed(str(tmp_path / "board"), world["layout"], coach_profile,
                              out_dir=mpy_dir, sd_image=image)
    with board:
        board.boot()
        rig = Mirror(board, card=open_card(world["card"], tables.layout), coach=True)
        lines = places + ["menu", "wait 1500", throw, "wait 600"]
        for _number, _text, steps in actions.parse_lines(rig.layout, lines, "card"):
            rig.do(steps)
        board.pico.run_to_idle()
        said = board.pico.output(0)
    status = [x for x in said.splitlines() if x.startswith("Romans:") or x.startswith("Huns:")]
    hints = [x for x in status if "(hint: " in x and "thinking" not in x]
    assert hints, status
    assert "(coach: that turn threw the win away)" in status[-1], status
    assert rig.controller.status() == status[-1]
