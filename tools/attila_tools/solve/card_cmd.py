"""`attila card LAYOUT DEST`: the solved game of a layout, for the board's microSD card.

Writes DEST/attila.tbl (the format: attila.card) from the layout's
retrograde tables, kept by `attila solve --from-setup LAYOUT --keep-tables`
(or solved now with --solve). Copy the file to the root of a FAT32 card.
Symmetries are not folded: the 4x5 card is 1.6 GB either way on any card
sold today, and folding would cost the board a symmetry search per lookup.
Refuses, with the reason and exit 2: a layout not solved, one out of the
solver's reach, a supply other than the default.
"""

import argparse
import os
import sys

from attila.card import BLOCK, DATA, FILE, head, seal, table_blocks, tag
from attila.errors import AttilaError
from attila_tools.files import size_text
from attila_tools.solve import retro

MAX_SQUARES = 20  # the retrograde solver's reach (retro_cmd.MAX_SQUARES)
FAT32_FILE = (1 << 32) - 1  # the largest file FAT32 holds


class CardError(Exception):
    """The card cannot be written; the message is the one line to show."""


def build_parser():
    p = argparse.ArgumentParser(
        prog="attila card",
        description="Write a layout's solved game (one bit per position) to a folder, "
        "for a FAT32 microSD card in the board.",
        epilog="Example: attila solve --from-setup boards/4x5.json --keep-tables; "
        "attila card boards/4x5.json /media/sdcard")
    p.add_argument("layout", metavar="LAYOUT", help="layout file, e.g. boards/4x5.json")
    p.add_argument("dest", metavar="DEST", help="folder to write %s into (the card's root)" % FILE)
    p.add_argument("--solve", action="store_true",
                   help="solve the layout now when its tables are not kept (minutes for 20 squares)")
    p.add_argument("--threads", type=int, default=2, metavar="N",
                   help="threads of the solver with --solve (default 2)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def card_bytes(n):
    """Size of the card file of a layout of n squares."""
    return (1 + table_blocks(n)) * BLOCK


def write_card(tables, path, progress=None):
    """Write the card file of `tables` to `path` (atomically); returns its size."""
    layout = tables.layout
    n = layout.size
    count = table_blocks(n)
    data = tables.data
    t = tag(layout)
    if progress is not None:
        progress.total = count
    tmp = path + ".part"
    buf = bytearray(BLOCK)
    batch = bytearray()
    try:
        with open(tmp, "wb") as f:
            f.write(head(layout))
            for k in range(count):
                chunk = data[k * DATA:(k + 1) * DATA]
                buf[:len(chunk)] = chunk
                if len(chunk) < DATA:
                    buf[len(chunk):DATA] = bytes(DATA - len(chunk))
                seal(buf, k + 1, t)
                batch += buf
                if len(batch) >= 1 << 20:
                    f.write(batch)
                    batch = bytearray()
                    if progress is not None:
                        progress.show(k + 1)
            f.write(batch)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    if progress is not None:
        progress.show(count)
        progress.end()
    return card_bytes(n)


def make_card(layout_path, dest, solve=False, threads=2, quiet=False, out=None):
    """Check the layout, find (or make) its tables, write DEST/attila.tbl; returns the path."""
    from attila.layoutfile import load

    out = out if out is not None else sys.stdout
    layout, _modules, tiles = load(layout_path)
    name = layout.name or os.path.splitext(os.path.basename(layout_path))[0]
    n = layout.size
    if n < 7 or n > MAX_SQUARES:
        raise CardError("%s: %d squares: no card, the retrograde solver reaches 7 to %d squares"
                        % (name, n, MAX_SQUARES))
    if tiles is not None and tiles != n - 6:
        raise CardError("%s: a supply of %d tiles; a card holds the default supply (%d)"
                        % (name, tiles, n - 6))
    if card_bytes(n) > FAT32_FILE:  # pragma: no cover - 1.6 GB at 20 squares
        raise CardError("%s: the card file would be %s, more than FAT32 holds"
                        % (name, size_text(card_bytes(n))))
    if os.path.exists(dest) and not os.path.isdir(dest):
        raise CardError("%s: not a folder" % dest)
    try:
        tables = retro.Tables.load(layout, solve_missing=solve, threads=threads,
                                   progress=None if quiet else retro.Progress(1, label=name))
    except retro.RetroError as e:
        if solve:
            raise CardError(str(e))
        raise CardError("%s is not solved: run attila solve --from-setup %s --keep-tables "
                        "(or attila card --solve)" % (name, layout_path))
    os.makedirs(dest, exist_ok=True)
    path = os.path.join(dest, FILE)
    out.write("%s: %d squares, card file %s (%s)\n" % (name, n, path, size_text(card_bytes(n))))
    out.flush()
    try:
        write_card(tables, path, None if quiet else retro.Progress(1, label="writing"))
    finally:
        tables.close()
    out.write("%s: done; copy %s to the root of a FAT32 microSD card\n" % (name, FILE))
    return path


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    if args.threads < 1:
        print("attila card: --threads must be 1 or more", file=sys.stderr)
        return 2
    try:
        make_card(args.layout, args.dest, args.solve, args.threads, args.quiet)
    except (AttilaError, CardError) as e:
        print("attila card: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("attila card: %s: %s" % (getattr(e, "filename", None) or args.dest,
                                        e.strerror or e), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
