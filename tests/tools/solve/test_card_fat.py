"""The card file found on real FAT images (made with mtools), read a block at a time.

attila.opponent.fat finds attila.tbl in the root folder of FAT12, FAT16 and FAT32
images, with or without a partition table; a fragmented copy is caught by
the numbers of the card's blocks. Skipped where mtools is not installed
(the Makefile's CI script installs it).
"""

import os
import shutil
import subprocess

import pytest

from attila.opponent.card import BLOCK, Card, CardError
from attila.opponent.fat import first_block, short_name
from attila.game.geometry import from_rows

pytestmark = pytest.mark.skipif(shutil.which("mformat") is None,
                                reason="mtools (mformat, mcopy) is not installed")

HERE = os.path.dirname(os.path.abspath(__file__))
CARD = os.path.join(os.path.dirname(os.path.dirname(HERE)), "portable", "card_9.tbl")
NINE = from_rows(["....", "...-", "..--"])
ANSWERS = CARD[:-4] + ".txt"


class Disk:
    """An image file as a block device (readblocks, as the SD card drivers)."""

    def __init__(self, path):
        self.f = open(path, "rb")
        self.reads = 0

    def readblocks(self, n, buf):
        self.f.seek(n * BLOCK)
        got = self.f.readinto(buf)
        if got != len(buf):
            raise OSError(5, "EIO")
        self.reads += 1

    def close(self):
        self.f.close()


def _image(path, mb, *fmt):
    with open(path, "wb") as f:
        f.truncate(mb << 20)
    subprocess.run(["mformat", "-i", path] + list(fmt) + ["::"], check=True)


def _copy(image, src, name):
    subprocess.run(["mcopy", "-i", image, src, "::" + name], check=True,
                   env=dict(os.environ, MTOOLS_NO_VFAT="0"))


def _check(disk):
    card = Card(disk, NINE, first_block(disk, "attila.tbl"))
    with open(ANSWERS) as f:
        for line in f:
            if not line.startswith("#"):
                m, o, s, won = (int(w) for w in line.split())
                assert card.won(m, o, s) == won
    return card


def test_short_names():
    assert short_name("attila.tbl") == b"ATTILA  TBL"
    assert short_name("a") == b"A          "


@pytest.mark.parametrize("fmt,mb", [(("-F",), 40), ((), 20), ((), 2)],
                         ids=["FAT32", "FAT16", "FAT12"])
def test_the_card_file_is_found_and_read_on_fat(tmp_path, fmt, mb):
    image = str(tmp_path / "sd.img")
    _image(image, mb, *fmt)
    for k in range(3):  # files before it in the root folder
        other = tmp_path / ("note%d.txt" % k)
        other.write_text("x" * 3000)
        _copy(image, str(other), other.name)
    _copy(image, CARD, "attila.tbl")
    disk = Disk(image)
    _check(disk)
    disk.close()


def test_a_partitioned_card(tmp_path):
    part = str(tmp_path / "part.img")
    _image(part, 40, "-F")
    _copy(part, CARD, "ATTILA.TBL")
    mbr = bytearray(BLOCK)
    mbr[446 + 4] = 0x0C  # FAT32 (LBA)
    mbr[446 + 8:446 + 12] = (2048).to_bytes(4, "little")
    mbr[446 + 12:446 + 16] = ((40 << 20) // BLOCK).to_bytes(4, "little")
    mbr[510:512] = b"\x55\xaa"
    image = str(tmp_path / "sd.img")
    with open(image, "wb") as f, open(part, "rb") as g:
        f.write(bytes(mbr) + bytes(2047 * BLOCK) + g.read())
    disk = Disk(image)
    _check(disk)
    disk.close()


def test_missing_unformatted_and_fragmented_cards_say_why(tmp_path):
    image = str(tmp_path / "sd.img")
    _image(image, 40, "-F", "-c", "1")
    disk = Disk(image)
    with pytest.raises(CardError, match=r"^no attila.tbl on the card$"):
        first_block(disk, "attila.tbl")
    disk.close()
    blank = tmp_path / "blank.img"
    blank.write_bytes(bytes(4 * BLOCK))
    disk = Disk(str(blank))
    with pytest.raises(CardError, match=r"^the card is not formatted \(FAT32\)$"):
        first_block(disk, "attila.tbl")
    disk.close()
    # A hole of 16 clusters, and 12 more free at the end: the copy is split.
    for k, size in enumerate((400, 16 * BLOCK, 400)):
        f = tmp_path / ("f%d" % k)
        f.write_bytes(b"y" * size)
        _copy(image, str(f), f.name)
    subprocess.run(["mdel", "-i", image, "::f1"], check=True)
    filler = tmp_path / "filler"
    with open(str(filler), "wb") as f:
        f.truncate(_free(image) - 28 * BLOCK)
    _copy(image, str(filler), "filler")
    assert _free(image) == 28 * BLOCK
    _copy(image, CARD, "attila.tbl")
    disk = Disk(image)
    with pytest.raises(CardError, match=r"block \d+ (is damaged or out of place|unreadable)"):
        _check(disk)
    disk.close()


def _free(image):
    out = subprocess.run(["mdir", "-i", image, "::"], check=True, capture_output=True,
                         text=True).stdout
    line = [x for x in out.splitlines() if "bytes free" in x][0]
    return int("".join(c for c in line.split("bytes free")[0] if c.isdigit()))
