"""Where a file starts on a FAT card: read it a block at a time, without the file system.

Why it is built this way: docs/pages/inside/design.md (attila/opponent/fat.py).
"""

from attila.opponent.card import CardError

_BLOCK = 512


def _u16(b, i):
    return b[i] | b[i + 1] << 8


def _u32(b, i):
    return _u16(b, i) | _u16(b, i + 2) << 16


def short_name(name):
    """The 11-byte directory name (8.3, upper case) of a file name."""
    base, _, ext = name.upper().partition(".")
    return (base[:8] + " " * 8)[:8].encode() + (ext[:3] + "   ")[:3].encode()


# Cards of 64 GB and more come as exFAT, and the SD Association's formatter
# keeps them so; the tools named make FAT32 at any size.
REFORMAT = ("reformat as FAT32 (Linux: mkfs.vfat -F 32; macOS: diskutil eraseDisk FAT32 "
            "ATTILA MBRFormat; Windows: Rufus or guiformat)")
EXFAT = "exFAT: " + REFORMAT


def _boot(b):
    return b[510] == 0x55 and b[511] == 0xAA and b[0] in (0xEB, 0xE9) and _u16(b, 11) == _BLOCK


def _foreign(b):
    """Why a boot block that is not FAT cannot be read ("" when it is no boot block)."""
    oem = bytes(b[3:11])
    if oem == b"EXFAT   ":
        return EXFAT
    if oem == b"NTFS    ":
        return "NTFS: " + REFORMAT
    return ""


def first_block(dev, name):
    """The card block where the file `name` (in the root folder) starts."""
    buf = bytearray(_BLOCK)
    dev.readblocks(0, buf)
    base = 0
    if not _boot(buf):
        if buf[510] != 0x55 or buf[511] != 0xAA:
            raise CardError("the card is not formatted (FAT32)")
        why = _foreign(buf)  # a file system without a partition table
        if why:
            raise CardError(why)
        kind = buf[446 + 4]  # the first partition's type
        if kind == 0xEE:
            raise CardError("a GPT partition table: " + REFORMAT + " with an MBR table")
        if kind == 0:
            raise CardError("the card's first partition is empty: " + REFORMAT)
        base = _u32(buf, 446 + 8)  # the first partition's first block
        dev.readblocks(base, buf)
        if not _boot(buf):
            raise CardError(_foreign(buf) or "the card's first partition is not FAT: " + REFORMAT)
    per = buf[13]  # blocks per cluster
    fats = buf[16]
    entries = _u16(buf, 17)  # root folder entries (FAT12/16); 0 on FAT32
    size = _u16(buf, 22) or _u32(buf, 36)  # blocks per FAT
    fat = base + _u16(buf, 14)
    root = fat + fats * size
    data = root + (entries * 32 + _BLOCK - 1) // _BLOCK
    want = short_name(name)
    if entries:
        blocks = [root + i for i in range((entries * 32 + _BLOCK - 1) // _BLOCK)]
        cluster = -1
    else:
        cluster = _u32(buf, 44)
        blocks = []
    for _ in range(4096):  # a root folder of at most this many blocks
        if not blocks:
            if cluster < 2 or cluster >= 0x0FFFFFF8:
                break
            blocks = [data + (cluster - 2) * per + i for i in range(per)]
            dev.readblocks(fat + cluster * 4 // _BLOCK, buf)
            cluster = _u32(buf, cluster * 4 % _BLOCK) & 0x0FFFFFFF
        dev.readblocks(blocks.pop(0), buf)
        for at in range(0, _BLOCK, 32):
            first = buf[at]
            if first == 0:
                blocks = []
                cluster = -1
                break
            if first == 0xE5 or buf[at + 11] & 0x18 or buf[at + 11] == 0x0F:
                continue  # deleted, a folder or the volume's name, a long name's part
            if bytes(buf[at:at + 11]) == want:
                start = _u16(buf, at + 26) | (_u16(buf, at + 20) if not entries else 0) << 16
                return data + (start - 2) * per
    raise CardError("no %s on the card" % name)
