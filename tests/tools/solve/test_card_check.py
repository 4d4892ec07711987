"""`attila card --check`, and the board's FAT reader on the cards it cannot read.

A good card (a FAT32 image made with mtools, attila.tbl copied on) is told
usable; an exFAT card (as cards of 64 GB and more are sold: no partition
table, or an MBR partition of type 0x07) is told to be reformatted, with
the tools that do it, by the board's reader (attila.opponent.fat) and so by the board
and the command alike; a damaged or cut-short copy is caught. mtools:
skipped where it is missing.
"""

import os
import shutil
import subprocess

import pytest

from attila.opponent.card import BLOCK, CardError
from attila.opponent.fat import EXFAT, first_block
from attila_tools import cli

pytestmark = pytest.mark.skipif(shutil.which("mformat") is None,
                                reason="mtools (mformat, mcopy) is not installed")

HERE = os.path.dirname(os.path.abspath(__file__))
CARD = os.path.join(os.path.dirname(os.path.dirname(HERE)), "portable", "card_9.tbl")
NINE_ROWS = ["....", "...-", "..--"]


class Disk:
    def __init__(self, data):
        self.data = data

    def readblocks(self, n, buf):
        got = self.data[n * BLOCK:(n + 1) * BLOCK]
        if len(got) != BLOCK:
            raise OSError(5)
        buf[:] = got


def _exfat_boot():
    """An exFAT volume's boot block (exFAT spec 3.1): jump, "EXFAT   ", zeros, 0x55AA."""
    b = bytearray(BLOCK)
    b[0:3] = b"\xeb\x76\x90"
    b[3:11] = b"EXFAT   "
    b[64:72] = (0).to_bytes(8, "little")  # partition offset
    b[72:80] = (1 << 27).to_bytes(8, "little")  # volume length: 64 GB in blocks
    b[108] = 9  # bytes per sector shift
    b[109] = 8  # sectors per cluster shift
    b[454:458] = b"\x8e\xd1\xbc\xf4"  # boot code, where an MBR keeps its first partition
    b[510:512] = b"\x55\xaa"
    return bytes(b)


def _mbr(kind, start):
    b = bytearray(BLOCK)
    b[446 + 4] = kind
    b[446 + 8:446 + 12] = start.to_bytes(4, "little")
    b[446 + 12:446 + 16] = (1 << 27).to_bytes(4, "little")
    b[510:512] = b"\x55\xaa"
    return bytes(b)


EXFAT_CARDS = {
    "no partition table": _exfat_boot() + bytes(7 * BLOCK),
    "MBR, type 0x07": _mbr(0x07, 8192) + bytes(8191 * BLOCK) + _exfat_boot() + bytes(BLOCK),
}


@pytest.mark.parametrize("case", sorted(EXFAT_CARDS))
def test_an_exfat_card_is_told_to_be_reformatted_as_fat32_with_how(case, tmp_path, capsys):
    with pytest.raises(CardError) as e:
        first_block(Disk(EXFAT_CARDS[case]), "attila.tbl")
    assert str(e.value) == EXFAT
    assert EXFAT.startswith("exFAT: reformat as FAT32 (")
    for tool in ("mkfs.vfat -F 32", "diskutil eraseDisk FAT32", "Rufus", "guiformat"):
        assert tool in EXFAT
    image = tmp_path / "sd.img"
    image.write_bytes(EXFAT_CARDS[case])
    assert cli.main(["card", "--check", str(image), "--quiet"]) == 1
    out = capsys.readouterr()
    assert out.err == "%s: the board cannot use this card: %s\n" % (image, EXFAT)


def test_the_board_says_it_on_its_console():
    from attila.assembly import open_card
    from attila.game.geometry import from_rows

    class Prof:
        sdcard = True

    class Hardware:
        @staticmethod
        def sdcard(prof):
            return Disk(EXFAT_CARDS["no partition table"])

    card, said = open_card(Hardware, Prof, from_rows(NINE_ROWS))
    assert card is None
    assert said == "card not used (%s): the board searches" % EXFAT


def _fat32(path, src=None):
    with open(path, "wb") as f:
        f.truncate(40 << 20)
    subprocess.run(["mformat", "-i", path, "-F", "::"], check=True)
    if src is not None:
        subprocess.run(["mcopy", "-i", path, src, "::attila.tbl"], check=True)


def test_a_good_card_is_usable_and_every_block_is_read(tmp_path, capsys):
    image = str(tmp_path / "sd.img")
    _fat32(image, CARD)
    assert cli.main(["card", "--check", image, "--quiet"]) == 0
    blocks = os.path.getsize(CARD) // BLOCK - 1
    assert capsys.readouterr().out == (
        "%s: the board can use this card: the solved game of nine (%d blocks, every one "
        "checked)\n" % (image, blocks))


def test_a_damaged_a_cut_short_and_a_missing_file_are_told(tmp_path, capsys):
    with open(CARD, "rb") as f:
        data = bytearray(f.read())
    data[20 * BLOCK + 7] ^= 1  # a block in the middle: only reading them all finds it
    damaged = tmp_path / "damaged.tbl"
    damaged.write_bytes(bytes(data))
    image = str(tmp_path / "sd.img")
    _fat32(image, str(damaged))
    assert cli.main(["card", "--check", image, "--quiet"]) == 1
    assert capsys.readouterr().err == ("%s: the board cannot use this card: attila.tbl: "
                                       "block 20 is damaged or out of place\n" % image)
    _fat32(image)
    assert cli.main(["card", "--check", image, "--quiet"]) == 1
    assert capsys.readouterr().err == ("%s: the board cannot use this card: no attila.tbl "
                                       "on the card\n" % image)
    assert cli.main(["card", "--check", str(tmp_path / "nothing"), "--quiet"]) == 2
    assert capsys.readouterr().err == ("attila card: %s: no such card or image\n"
                                       % (tmp_path / "nothing"))


def test_the_tables_of_another_layout_than_the_one_given(tmp_path, capsys):
    layout = tmp_path / "twelve.json"
    layout.write_text('{"name": "twelve", "custom": true, "rows": ["....", "....", "...."]}')
    image = str(tmp_path / "sd.img")
    _fat32(image, CARD)
    assert cli.main(["card", "--check", image, str(layout), "--quiet"]) == 1
    assert capsys.readouterr().err == (
        "%s: the board cannot use this card: attila.tbl: the tables are for another layout "
        "(nine, 9 squares)\n" % image)
