"""With the 4x5 card, the strong level keeps every win: 150 won positions per stage and side.

    python tools/bench/bench_card.py [COUNT]     (make bench)

`attila choose --card` (its Chooser: the board's decision at the strong
level with the card that `attila card` wrote, build/card/4x5-KEY/, made
once as pico_card does: benchkit), and the same read from the FAT32 image through
attila.opponent.fat as the board reads its microSD card, at won positions from random games,
14 to 1 free squares, Romans and Huns to move; each action is checked
against the retrograde tables (build/retro/): after it, the other side must
stand lost. Prints a line per stage and the card blocks a decision read.
"""

import random
import shutil
import sys
import time

from benchkit import (LAYOUT, card_folder, card_image, keeps, tables_of,  # (first: the paths)
                      won_positions)

from attila.opponent.levels import STRONG
from attila.opponent.planner import choose
from attila.opponent.card import Card
from attila.opponent.fat import first_block
from attila.game.layoutfile import load


class ImageDisk:
    """A card image as the board's block device."""

    def __init__(self, path):
        self.f = open(path, "rb")

    def readblocks(self, n, buf):
        self.f.seek(n * 512)
        self.f.readinto(buf)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    count = int(argv[0]) if argv else 150
    if shutil.which("mformat") is None:
        print("bench_card: skipped: mtools (mformat, mcopy) is not installed")
        return 0
    from attila.game.notation import parse_position
    from attila_tools.board.choose_cmd import Chooser

    layout, _m, _t = load(LAYOUT)
    tables = tables_of(layout)
    folder = card_folder(layout, tables)
    disk = ImageDisk(card_image(layout, tables))
    card = Card(disk, layout, first_block(disk, "attila.tbl"))
    chooser = Chooser(STRONG, LAYOUT, folder)  # attila choose --card FOLDER
    want, games = won_positions(layout, tables, random.Random(2024), count)
    print("won positions from %d random games; attila choose --card at the strong level" % games)
    print("free  side    positions  kept   same on the image  block reads/decision (mean, most)")
    failed = 0
    t0 = time.perf_counter()
    for free in range(14, 0, -1):
        for side in (0, 1):
            todo = want[(free, side)]
            kept = same = 0
            reads = []
            for text in todo:
                action = chooser.choose(text)
                before = card.reads
                game = parse_position(text)
                if choose(game, level=STRONG, card=card, seed=1) == action:
                    same += 1
                reads.append(card.reads - before)
                kept += keeps(tables, game, action)
            failed += 2 * len(todo) - kept - same
            print("%4d  %-6s  %9d  %4d   %17d  %.1f, %d" % (
                free, "Romans" if side == 0 else "Huns", len(todo), kept, same,
                sum(reads) / max(1, len(reads)), max(reads or [0])))
    print("every win kept: %s (%d decisions lost a win or differed; %.0f s)"
          % ("yes" if not failed else "NO", failed, time.perf_counter() - t0))
    chooser.close()
    tables.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
