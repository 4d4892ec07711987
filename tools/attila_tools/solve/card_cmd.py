"""`attila card LAYOUT DEST`: the solved game of a layout, for the board's microSD card.

Writes DEST/attila.tbl (the format: attila.opponent.card) from the layout's
retrograde tables, kept by `attila solve --from-setup LAYOUT --keep-tables`
(or solved now with --solve). Copy the file to the root of a FAT32 card.
Symmetries are not folded: the 4x5 card is 1.6 GB either way on any card
sold today, and folding would cost the board a symmetry search per lookup.
With --opening it writes DEST/<layout>.opening instead: only the first
turn of play (attila.opponent.opening), folded by the layout's symmetries, and,
when the layout has a setup book (boards/solved/<layout>.book), the reply
table: the board's first turn of play as the second player wherever its
book led (attila_tools.solve.replies), and the corrections: its second
turn of play as the first player wherever its book and the table led and
its search would throw the win (attila_tools.solve.corrections: every such
position searched as the board searches it, hours for 4x5 the first time,
kept in build/corrections/; --no-corrections leaves them out). Small
enough for the board's own flash (800 KB for 4x5); boards/solved keeps
the 4x5 one, and attila flash installs it (the file's parts:
attila_tools.solve.opening_file). Refuses, with the reason and exit 2: a
layout not solved, one out of the
solver's reach, a supply other than the default. `attila card --check CARD`
reads a card (or its image) as the board does and says in one line whether
the board can use it (attila_tools.solve.card_check).
"""

import contextlib
import os
import sys

from attila.opponent.card import BLOCK, DATA, FILE, head, seal, table_blocks, tag
from attila.opponent.opening import correction_blocks
from attila_tools.errors import ToolError, UsageError
from attila_tools.files import size_text
from attila_tools.options import Parser
from attila_tools.solve import retro

MAX_SQUARES = 20  # the retrograde solver's reach (retro_cmd.MAX_SQUARES)
FAT32_FILE = (1 << 32) - 1  # the largest file FAT32 holds


class CardWriteError(ToolError):
    """The card cannot be written; the message is the one line to show."""


def build_parser():
    p = Parser(
        prog="attila card",
        description="Write a layout's solved game (one bit per position) to a folder, "
        "for a FAT32 microSD card in the board.",
        epilog="Example: attila solve --from-setup boards/4x5.json --keep-tables; "
        "attila card boards/4x5.json /media/sdcard; attila card --check /dev/sdb")
    p.add_argument("layout", metavar="LAYOUT", nargs="?",
                   help="layout file, e.g. boards/4x5.json")
    p.add_argument("dest", metavar="DEST", nargs="?",
                   help="folder to write %s into (the card's root)" % FILE)
    p.add_argument("--check", metavar="CARD",
                   help="read a card (a device such as /dev/sdb, or its image) as the board "
                   "does and say whether the board can use it (LAYOUT: the tables must be "
                   "that layout's)")
    p.add_argument("--solve", action="store_true",
                   help="solve the layout now when its tables are not kept (minutes for 20 squares)")
    p.add_argument("--threads", type=int, default=2, metavar="N",
                   help="threads of the solver with --solve (default 2)")
    p.add_argument("--opening", action="store_true",
                   help="write only the first turn of play, folded, as DEST/<layout>.opening "
                   "(for the board's own flash: attila flash installs boards/solved/<layout>.opening)")
    p.add_argument("--no-corrections", dest="corrections", action="store_false",
                   help="with --opening: leave out the corrections (the board's second turn "
                   "of play where its search would throw the win: hours of search for 4x5)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


@contextlib.contextmanager
def _replacing(path):
    """A file to write `path` with: PATH.part, renamed over `path` once whole,
    removed on any error (a cut-short table is never left under its name)."""
    tmp = path + ".part"
    try:
        with open(tmp, "wb") as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


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
    buf = bytearray(BLOCK)
    batch = bytearray()
    with _replacing(path) as f:
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
    if progress is not None:
        progress.show(count)
        progress.end()
    return card_bytes(n)


def write_opening(tables, path, book=None, corrections=(), parts=None):
    """Write the opening table of `tables` (attila.opponent.opening) to `path`, atomically;
    with `book` (the layout's open setup book) its reply table too, and
    `corrections` (attila_tools.solve.corrections' records; `parts`: its
    opening_parts() made already); returns its size."""
    from attila_tools.solve.opening_file import opening_bytes, opening_parts

    data = opening_bytes(tables.layout, parts or opening_parts(tables, book), corrections)
    with _replacing(path) as f:
        f.write(data)
    return len(data)


def make_card(layout_path, dest, solve=False, threads=2, quiet=False, out=None, opening=False,
              corrections=True):
    """Check the layout, find (or make) its tables, write DEST/attila.tbl (with
    `opening`: DEST/<layout>.opening, with its corrections unless not
    `corrections`); returns the path."""
    from attila.game.layoutfile import load

    out = out if out is not None else sys.stdout
    layout, _modules, tiles = load(layout_path)
    name = layout.name or os.path.splitext(os.path.basename(layout_path))[0]
    n = layout.size
    if n < 7 or n > MAX_SQUARES:
        raise CardWriteError("%s: %d squares: no card, the retrograde solver reaches 7 to %d squares"
                        % (name, n, MAX_SQUARES))
    if tiles is not None and tiles != n - 6:
        raise CardWriteError("%s: a supply of %d tiles; a card holds the default supply (%d)"
                        % (name, tiles, n - 6))
    if card_bytes(n) > FAT32_FILE:  # pragma: no cover - 1.6 GB at 20 squares
        raise CardWriteError("%s: the card file would be %s, more than FAT32 holds"
                        % (name, size_text(card_bytes(n))))
    if os.path.exists(dest) and not os.path.isdir(dest):
        raise CardWriteError("%s: not a folder" % dest)
    try:
        tables = retro.Tables.load(layout, solve_missing=solve, threads=threads,
                                   progress=None if quiet else retro.Progress(1, label=name))
    except retro.RetroError as e:
        if solve:
            raise CardWriteError(str(e))
        raise CardWriteError("%s is not solved: run attila solve --from-setup %s --keep-tables "
                        "(or attila card --solve)" % (name, layout_path))
    os.makedirs(dest, exist_ok=True)
    if opening:
        stem = os.path.splitext(os.path.basename(layout_path))[0]
        path = os.path.join(dest, stem + ".opening")
        from attila_tools.solve.retro_cmd import SOLVED

        book = None
        found = os.path.join(SOLVED, stem + ".book")  # the setup book, where solve wrote it
        if not os.path.exists(found):
            found = None
        fixes = []
        try:
            if found:
                from attila.opponent import book as books

                book = books.open(found, layout)  # BookError: another layout's
                if corrections:
                    fixes = _corrections(tables, book, name, quiet, out)
            size = write_opening(tables, path, book, fixes)
        finally:
            tables.close()
            if book is not None:
                book.close()
        out.write("%s: opening table %s (%d KB): the first turn of play, folded%s%s\n"
                  % (name, path, (size + 1023) // 1024,
                     ", and the reply to the player's first turn wherever the setup book "
                     "(%s) led" % os.path.relpath(found) if found else "",
                     "; %d corrections of the board's second turn (%d KB)"
                     % (len(fixes), (correction_blocks(len(fixes)) * BLOCK + 1023) // 1024)
                     if found and corrections else ""))
        return path
    path = os.path.join(dest, FILE)
    out.write("%s: %d squares, card file %s (%s)\n" % (name, n, path, size_text(card_bytes(n))))
    out.flush()
    try:
        write_card(tables, path, None if quiet else retro.Progress(1, label="writing"))
    finally:
        tables.close()
    out.write("%s: done; copy %s to the root of a FAT32 microSD card\n" % (name, FILE))
    return path


def _corrections(tables, book, name, quiet, out):
    """The corrections' records (attila_tools.solve.corrections), said as they go."""
    from attila_tools.solve import corrections
    from attila_tools.solve.corrections import Corrections, Searcher, budget_name

    searcher = Searcher(corrections.CACHE, quiet=quiet)
    plan = Corrections(tables, book, searcher)
    out.write("%s: the board's second turn of play, searched as the board searches it "
              "(%s; kept in %s)\n" % (name, "MicroPython unix" if searcher.exe else
                                      "the portable kernel: slow, make install puts "
                                      "MicroPython unix in the venv",
                                      os.path.relpath(searcher.cache)))
    out.flush()
    records = plan.records()
    for nodes in plan.nodes:
        out.write("%s: at %s the search throws %d of %d won positions as the first placer, "
                  "and %d more where both sides play as the strong level\n"
                  % (name, "the board's budget" if nodes is None else budget_name(nodes),
                     len(plan.thrown[nodes]), len(plan.positions[nodes]),
                     len(plan.on_lines[nodes])))
    return records


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser().parse_args(argv)
    if args.check is not None:
        if args.dest is not None:
            raise UsageError("--check takes a card and at most a LAYOUT, not %s" % args.dest)
        from attila_tools.solve import card_check

        return card_check.main(args.check, args.layout, args.quiet)
    if args.dest is None:
        raise UsageError("give a LAYOUT and a DEST folder (or --check CARD)")
    if args.threads < 1:
        raise UsageError("--threads must be 1 or more")
    try:
        make_card(args.layout, args.dest, args.solve, args.threads, args.quiet,
                  opening=args.opening, corrections=args.corrections)
    except OSError as e:
        raise CardWriteError("%s: %s" % (getattr(e, "filename", None) or args.dest,
                                         e.strerror or e))
    return 0
