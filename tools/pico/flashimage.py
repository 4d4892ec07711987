"""The emulated Pico's 2 MiB flash: MicroPython's UF2 plus a littlefs v2 file system.

    image = flash_image({"main.py": b"...", "attila/game/rules.mpy": b"..."})
    files = read_files(image)          # what the board's file system holds

The layout is the one MicroPython's build for the board uses: the firmware
from the start of the flash, the file system at its end, littlefs v2 with
256-byte programs as its _boot.py mounts it. RPI_PICO: the last 1408 KB
(352 blocks of 4 KB from offset 0xA0000); RPI_PICO_W, whose firmware holds
the radio's own firmware and the network stack: the last 848 KB (212
blocks from 0x12C000; MICROPY_HW_FLASH_STORAGE_BYTES in its
mpconfigboard.h). A prepared image saves copying files over the emulated
USB (about 3 KB/s); the board reads it exactly as a file system it wrote.
"""

import os
import struct

from littlefs import LittleFS

HERE = os.path.dirname(os.path.abspath(__file__))
UF2 = os.path.join(HERE, "micropython-v1.27.0-RPI_PICO.uf2")
UF2_W = os.path.join(HERE, "micropython-v1.27.0-RPI_PICO_W.uf2")
BOOTROM = os.path.join(HERE, "rp2040-bootrom-B1.bin")

FLASH_SIZE = 2 * 1024 * 1024
XIP_BASE = 0x10000000
BLOCK_SIZE = 4096
PROG_SIZE = 256
READ_SIZE = 32


class Build:
    """One MicroPython build for the chip: its UF2 and where its file system lies."""

    def __init__(self, name, uf2, fs_offset):
        self.name = name
        self.uf2 = uf2
        self.fs_offset = fs_offset
        self.block_count = (FLASH_SIZE - fs_offset) // BLOCK_SIZE


PICO = Build("RPI_PICO", UF2, 0xA0000)
PICO_W = Build("RPI_PICO_W", UF2_W, 0x12C000)
BUILDS = (PICO, PICO_W)
# The RPI_PICO build's, what the emulated Pico runs unless a profile names a Pico W.
FS_OFFSET = PICO.fs_offset
BLOCK_COUNT = PICO.block_count


def build_for(board):
    """The build a profile's board runs: the Pico W's for a "Pico W", else the Pico's."""
    name = board.lower().replace(" ", "")
    return PICO_W if "picow" in name else PICO


def build_of(uf2_path):
    """The build of a UF2 file (an unknown one is taken as laid out like RPI_PICO)."""
    path = os.path.abspath(uf2_path)
    for b in BUILDS:
        if os.path.abspath(b.uf2) == path:
            return b
    return PICO

_UF2_MAGIC = (0x0A324655, 0x9E5D5157)
_UF2_NOT_MAIN_FLASH = 0x1


class FlashError(ValueError):
    """A UF2 or a file system image that does not fit the Pico's flash."""


def firmware(uf2_path=UF2, limit=FS_OFFSET):
    """The flash bytes of a UF2 file (2 MiB, 0xff where it writes nothing;
    nothing at or past `limit`, where the firmware's file system begins)."""
    flash = bytearray(b"\xff" * FLASH_SIZE)
    with open(uf2_path, "rb") as f:
        data = f.read()
    if not data or len(data) % 512:
        raise FlashError("%s: not a UF2 file (size %d)" % (uf2_path, len(data)))
    for at in range(0, len(data), 512):
        magic0, magic1, flags, addr, size = struct.unpack_from("<5I", data, at)
        if (magic0, magic1) != _UF2_MAGIC:
            raise FlashError("%s: block %d is not a UF2 block" % (uf2_path, at // 512))
        if flags & _UF2_NOT_MAIN_FLASH:
            continue
        offset = addr - XIP_BASE
        if offset < 0 or offset + size > limit or size > 476:
            raise FlashError("%s: block %d writes outside the firmware area" % (uf2_path, at // 512))
        flash[offset : offset + size] = data[at + 32 : at + 32 + size]
    return flash


def mount(image=None, block_count=BLOCK_COUNT):
    fs = LittleFS(
        block_size=BLOCK_SIZE, block_count=block_count, prog_size=PROG_SIZE,
        read_size=READ_SIZE, mount=image is None,
    )
    if image is not None:
        fs.context.buffer = bytearray(image)
        fs.mount()
    return fs


def filesystem(files, block_count=BLOCK_COUNT):
    """A littlefs image (block_count blocks of 4 KB; the Pico's 1408 KB by default)
    holding `files` ({path: bytes}; folders made as needed)."""
    fs = mount(block_count=block_count)
    for path in sorted(files):
        parts = path.strip("/").split("/")
        for k in range(1, len(parts)):
            folder = "/".join(parts[:k])
            try:
                fs.mkdir(folder)
            except FileExistsError:
                pass
        with fs.open("/".join(parts), "wb") as f:
            f.write(files[path])
    return bytes(fs.context.buffer)


def flash_image(files, uf2_path=UF2):
    """The whole 2 MiB flash: the firmware of `uf2_path` and a file system with `files`."""
    build = build_of(uf2_path)
    flash = firmware(uf2_path, limit=build.fs_offset)
    flash[build.fs_offset:] = filesystem(files, build.block_count)
    return bytes(flash)


def build_in(flash):
    """The build whose file system a flash image holds: littlefs's superblock
    starts either block of its first pair with a revision count, a tag and
    the word "littlefs"; RPI_PICO's when none does."""
    for b in BUILDS:
        for at in (b.fs_offset, b.fs_offset + BLOCK_SIZE):
            if flash[at + 8 : at + 16] == b"littlefs":
                return b
    return PICO


def read_files(flash):
    """{path: bytes} of every file on the file system of a flash image."""
    b = build_in(flash)
    fs = mount(flash[b.fs_offset : b.fs_offset + BLOCK_SIZE * b.block_count], b.block_count)
    found = {}
    for root, _dirs, names in fs.walk("/"):
        for name in names:
            path = (root.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                found[path] = f.read()
    return found
