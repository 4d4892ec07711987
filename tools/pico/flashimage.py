"""The emulated Pico's 2 MiB flash: MicroPython's UF2 plus a littlefs v2 file system.

    image = flash_image({"main.py": b"...", "attila/game/rules.mpy": b"..."})
    files = read_files(image)          # what the board's file system holds

The layout is the one MicroPython's RPI_PICO build uses: the firmware from
the start of the flash, the file system in the last 1408 KB (352 blocks of
4 KB from offset 0xA0000), littlefs v2 with 256-byte programs as its
_boot.py mounts it. A prepared image saves copying files over the emulated
USB (about 3 KB/s); the board reads it exactly as a file system it wrote.
"""

import os
import struct

from littlefs import LittleFS

HERE = os.path.dirname(os.path.abspath(__file__))
UF2 = os.path.join(HERE, "micropython-v1.27.0-RPI_PICO.uf2")
BOOTROM = os.path.join(HERE, "rp2040-bootrom-B1.bin")

FLASH_SIZE = 2 * 1024 * 1024
XIP_BASE = 0x10000000
FS_OFFSET = 0xA0000
BLOCK_SIZE = 4096
BLOCK_COUNT = 352
PROG_SIZE = 256
READ_SIZE = 32

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


def mount(image=None):
    fs = LittleFS(
        block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, prog_size=PROG_SIZE,
        read_size=READ_SIZE, mount=image is None,
    )
    if image is not None:
        fs.context.buffer = bytearray(image)
        fs.mount()
    return fs


def filesystem(files):
    """A littlefs image (1408 KB) holding `files` ({path: bytes}; folders made as needed)."""
    fs = mount()
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
    flash = firmware(uf2_path)
    flash[FS_OFFSET:] = filesystem(files)
    return bytes(flash)


def read_files(flash):
    """{path: bytes} of every file on the file system of a flash image."""
    fs = mount(flash[FS_OFFSET : FS_OFFSET + BLOCK_SIZE * BLOCK_COUNT])
    found = {}
    for root, _dirs, names in fs.walk("/"):
        for name in names:
            path = (root.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                found[path] = f.read()
    return found
