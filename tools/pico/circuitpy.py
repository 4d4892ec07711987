"""The emulated Pico's flash under CircuitPython: its UF2 plus a CIRCUITPY FAT volume.

    image = flash_image({"code.py": b"...", "attila/game/rules.mpy": b"..."})
    files = read_files(image)          # what CIRCUITPY holds, {path: bytes}
    flash_from_folder(path, "build/drive")   # a folder `attila flash --drive` filled

CircuitPython 10.2.1's RP2040 build keeps the firmware from the start of
the flash, `microcontroller.nvm` in the 4 KB at 0x0FF000 and CIRCUITPY, a
FAT12 volume of 2,048 sectors of 512 bytes, from 0x100000 to the end; no
partition table is stored (the boot sector is the first byte). The volume
is made and read on the host with mtools (Debian package `mtools`), the
way CircuitPython formats it: a host-made volume is used as is.
"""

import hashlib
import os
import shutil
import subprocess
import tempfile

from . import flashimage

HERE = os.path.dirname(os.path.abspath(__file__))
UF2 = os.path.join(HERE, "circuitpython-10.2.1-raspberry_pi_pico.uf2")
UF2_SHA256 = "fad46feeb2e903e7349374110c6b8ab66b76a18fcbc7c02435fa4df2880a5e0d"
VERSION = (10, 2, 1)

FLASH_SIZE = flashimage.FLASH_SIZE
NVM_OFFSET = 0x0FF000
NVM_SIZE = 4096
FS_OFFSET = 0x100000
SECTORS = 2048
SECTOR = 512
LABEL = "CIRCUITPY"
_TOOLS = ("mformat", "mcopy", "mdir", "mmd")


class VolumeError(ValueError):
    """A CIRCUITPY volume that cannot be made or read (mtools says why)."""


def available():
    """Why a CIRCUITPY volume cannot be made here ("" when it can)."""
    missing = [t for t in _TOOLS if not shutil.which(t)]
    if missing:
        return "mtools is not installed (%s missing; apt-get install mtools)" % ", ".join(missing)
    return ""


def mtools(args, image):
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1", MTOOLS_NO_VFAT="0")
    proc = subprocess.run(list(args[:1]) + ["-i", image] + list(args[1:]), capture_output=True,
                          env=env)
    if proc.returncode != 0:
        raise VolumeError("%s: %s" % (" ".join(args[:1]), proc.stderr.decode(errors="replace").strip()))
    return proc.stdout


def volume(files):
    """The bytes of a CIRCUITPY FAT12 volume (1 MiB) holding `files` ({path: bytes})."""
    why = available()
    if why:
        raise VolumeError(why)
    with tempfile.TemporaryDirectory() as tmp:
        img = os.path.join(tmp, "fat.img")
        with open(img, "wb") as f:
            f.write(bytes(SECTORS * SECTOR))
        mtools(["mformat", "-T", str(SECTORS), "-h", "1", "-s", "32", "-H", "1", "-v", LABEL,
                 "::"], img)
        made = set()
        for path in sorted(files):
            parts = path.strip("/").split("/")
            for k in range(1, len(parts)):
                folder = "/".join(parts[:k])
                if folder not in made:
                    mtools(["mmd", "::" + folder], img)
                    made.add(folder)
            src = os.path.join(tmp, "file")
            with open(src, "wb") as f:
                f.write(files[path])
            mtools(["mcopy", "-o", src, "::" + "/".join(parts)], img)
        with open(img, "rb") as f:
            return f.read()


def firmware(uf2_path=UF2):
    """The flash bytes of CircuitPython's UF2 (2 MiB, 0xff elsewhere); the
    shipped UF2 is checked against its sha256 (a rebuild has another)."""
    if os.path.abspath(uf2_path) == UF2:
        with open(UF2, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        if digest != UF2_SHA256:
            raise flashimage.FlashError("%s: sha256 %s, not the shipped %s (see tools/pico/README.md)"
                                        % (UF2, digest, UF2_SHA256))
    return flashimage.firmware(uf2_path, limit=NVM_OFFSET)


def flash_image(files, uf2_path=UF2):
    """The whole 2 MiB flash: CircuitPython and a CIRCUITPY volume holding `files`."""
    flash = firmware(uf2_path)
    flash[FS_OFFSET:] = volume(files)
    return bytes(flash)


def read_files(flash):
    """{path: bytes} of every file on CIRCUITPY in a flash image (VolumeError if unreadable)."""
    why = available()
    if why:
        raise VolumeError(why)
    with tempfile.TemporaryDirectory() as tmp:
        img = os.path.join(tmp, "fat.img")
        with open(img, "wb") as f:
            f.write(flash[FS_OFFSET:])
        out = os.path.join(tmp, "out")
        os.mkdir(out)
        mtools(["mcopy", "-s", "-n", "-m", "::/*", out + "/"], img)
        found = {}
        for dirpath, _dirs, names in os.walk(out):
            for name in names:
                full = os.path.join(dirpath, name)
                with open(full, "rb") as f:
                    found[os.path.relpath(full, out).replace(os.sep, "/")] = f.read()
        return found


def check_volume(flash):
    """mtools' own check of the volume's FAT and directories ("" when sound)."""
    with tempfile.TemporaryDirectory() as tmp:
        img = os.path.join(tmp, "fat.img")
        with open(img, "wb") as f:
            f.write(flash[FS_OFFSET:])
        try:
            mtools(["mdir", "-/", "-a", "::"], img)
        except VolumeError as e:
            return str(e)
    return ""


def folder_files(folder):
    """{path: bytes} of a folder (a CIRCUITPY drive's contents, as `attila flash --drive` left it)."""
    found = {}
    for dirpath, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            full = os.path.join(dirpath, name)
            with open(full, "rb") as f:
                found[os.path.relpath(full, folder).replace(os.sep, "/")] = f.read()
    return found


def new_flash(path, files, uf2_path=UF2):
    """Write a fresh flash file: CircuitPython and CIRCUITPY holding `files`."""
    with open(path, "wb") as f:
        f.write(flash_image(files, uf2_path))
    return path
