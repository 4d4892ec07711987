"""The board's start on the emulated Pico: native code compiled on the host, or at every boot.

    python tools/bench/pico_boot.py          (make bench)

`attila flash` compiles the modules with native code (attila/opponent/kernelv.py,
the opponent's viper kernel) for the board's own arch (armv6m on the
RP2040); a board whose arch it cannot tell gets the source and compiles it
at every boot. Both, on MicroPython's own RP2040 build (rp2040js, emulated
time at 125 MHz: a lower bound for a real Pico, see tools/pico/README.md):

- power-up to main.py's first line ("attila: ..."), pico.json;
- heap free once main.py's modules are imported and the board is built
  with its setup book and opening table open, as main() builds it
  (gc.collect(), then gc.mem_free()); the time to open the opening table;
- the import of attila.opponent.kernelv alone, in a fresh interpreter: its time, the
  heap it keeps, and the least free heap it succeeds in (a ballast
  bytearray leaves less and less room: the import's peak, fragmentation
  included, to 64 bytes);
- the same start and heap on MicroPython's RPI_PICO_W build with picow.json
  as `make flash CARD=0` flashes it (its radio absent, no opening table:
  its file system cannot hold it), and the heap its REPL starts with beside
  the Pico build's: what the radio's driver and the network stack take.
"""

import os
import tempfile

from benchkit import LAYOUT, PROFILE  # (first: the paths)

from pico import flashimage
from pico.board import PicoBoard
from pico.chip import Pico, new_flash
from pico.board import firmware_files

BUILT = """
import gc, main, time
from attila import profile
from attila.game import layoutfile
from attila.assembly import open_book, open_opening
prof = profile.load("profile.json")
layout, modules, tiles = layoutfile.load("layout.json")
book = open_book(main.BOOK, layout)[0]
t = time.ticks_us()
table, said = open_opening(main.OPENING, layout)
us = time.ticks_diff(time.ticks_us(), t)
board = main.build(prof, layout, modules, tiles, book=book, card=table)
gc.collect()
print("heap free after boot: %d bytes (used %d)" % (gc.mem_free(), gc.mem_alloc()))
print("layout.opening opened in %d us, imports included: %s" % (us, said))
"""

IMPORT = """
import gc, sys, time
import attila
def load():
    t = time.ticks_us()
    from attila.opponent import kernelv
    return time.ticks_diff(time.ticks_us(), t)
def forget():
    sys.modules.pop("attila.opponent.kernelv", None)
    try:
        del attila.opponent.kernelv
    except (AttributeError, KeyError):  # (MicroPython: KeyError)
        pass
    gc.collect()
gc.collect()
before = gc.mem_free()
us = load()
gc.collect()
print("import: %d us, keeps %d bytes" % (us, before - gc.mem_free()))
forget()
def fits(room):
    gc.collect()
    ballast = bytearray(max(0, gc.mem_free() - room))
    free = gc.mem_free()
    try:
        load()
        ok = True
    except MemoryError:
        ok = False
    ballast = None
    forget()
    return ok, free
lo, hi = 0, 65536
least = None
while hi - lo > 64:
    mid = (lo + hi) // 2
    ok, free = fits(mid)
    if ok:
        hi = mid
        least = free
    else:
        lo = mid
print("import: succeeds with %d bytes free at least" % least)
"""


def boot_us(native):
    folder = tempfile.mkdtemp(prefix="attila-bench-pico-")
    b = PicoBoard.flashed(folder, LAYOUT, PROFILE, native=native).start()
    try:
        line = b.boot()
        return line, b.pico.us
    finally:
        b.close()


def heap_after_boot(native):
    folder = tempfile.mkdtemp(prefix="attila-bench-pico-")
    b = PicoBoard.flashed(folder, LAYOUT, PROFILE, extra={"maintenance": b""},
                          native=native).start()
    try:
        b.pico.wait_for(b">>> ", 20000, since=0)
        return b.pico.exec(BUILT).strip()
    finally:
        b.close()


def picow_profile():
    """picow.json as `make flash CARD=0` copies it (the emulated socket is empty)."""
    import json

    from attila_tools.board import settings

    with open(os.path.join(os.path.dirname(PROFILE), "picow.json")) as f:
        data = settings.apply(json.load(f), with_card=False)
    path = os.path.join(tempfile.mkdtemp(prefix="attila-bench-picow-"), "picow.json")
    with open(path, "w") as f:
        json.dump(data, f)
    return path


def picow():
    prof = picow_profile()
    folder = tempfile.mkdtemp(prefix="attila-bench-picow-")
    b = PicoBoard.flashed(folder, LAYOUT, prof).start()
    try:
        line = b.boot()
        out = ["power-up to %r: %.0f ms" % (line, b.pico.us / 1000)]
    finally:
        b.close()
    folder = tempfile.mkdtemp(prefix="attila-bench-picow-")
    b = PicoBoard.flashed(folder, LAYOUT, prof, extra={"maintenance": b""}).start()
    try:
        b.pico.wait_for(b">>> ", 20000, since=0)
        # (No layout.opening to open: attila flash leaves it out there.)
        out += [l for l in b.pico.exec(BUILT).strip().splitlines() if l.startswith("heap")]
    finally:
        b.close()
    return out


def repl_heap(uf2):
    path = os.path.join(tempfile.mkdtemp(prefix="attila-bench-pico-"), "flash.bin")
    with Pico(new_flash(path, {}, uf2)) as pico:
        pico.wait_for(b">>> ", 20000, since=0)
        return int(pico.exec("import gc\ngc.collect()\nprint(gc.mem_free())").strip())


def kernel_import(native):
    files = firmware_files(LAYOUT, PROFILE, native=native)
    files.pop("main.py")
    path = os.path.join(tempfile.mkdtemp(prefix="attila-bench-pico-"), "flash.bin")
    with Pico(new_flash(path, files)) as pico:
        pico.wait_for(b">>> ", 20000, since=0)
        return pico.exec(IMPORT, max_ms=120000).strip().splitlines()


def main():
    for native, how in ((False, "kernelv.py, compiled at boot"),
                        (True, "kernelv.mpy, compiled for armv6m by attila flash")):
        line, us = boot_us(native)
        print("%s: power-up to %r: %.0f ms" % (how, line, us / 1000))
        for text in heap_after_boot(native).splitlines():
            print("%s: %s" % (how, text))
        for text in kernel_import(native):
            print("%s: %s" % (how, text))
    how = "picow.json, RPI_PICO_W build"
    for text in picow():
        print("%s: %s" % (how, text))
    pico, picow_ = repl_heap(flashimage.UF2), repl_heap(flashimage.UF2_W)
    print("heap free at the REPL, nothing imported: RPI_PICO %d bytes, RPI_PICO_W %d bytes "
          "(%d less)" % (pico, picow_, pico - picow_))


if __name__ == "__main__":
    main()
