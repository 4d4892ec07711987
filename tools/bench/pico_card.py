"""The solved game on a microSD card in the emulated Pico: a table lookup and whole decisions.

    python tools/bench/pico_card.py [--won-only]     (make bench)

Builds the 4x5 card once (the retrograde tables, about a minute of two
cores and 1.6 GB of memory, kept in build/retro/; then `attila card` into
build/card/4x5-KEY/attila.tbl, 1.6 GB, and a 2 GB FAT32 image of it made
with mtools, build/card/4x5-KEY.img, sparse; all reused while the layout is
unchanged), then
boots the firmware as `make flash` builds it with the reference profile
plus a card on SPI0 (GP2-GP5, 10 MHz) and measures on the chip, in emulated
time (rp2040js at 125 MHz; tools/pico/sdcard.mjs answers a block after one
byte of access time, a real card takes 0.1 to 1 ms more per block):
opening the card, one table lookup (a block read and its check), and the
strong level's whole decision with the card at positions with 14 to 1 free
squares from random games (labelled by the tables): on the winning side the
card's winning turn; on the losing side one lookup, then the search at the
board's budget. The bar: at most the profile's budget_ms (2 s) a decision,
the time the board allows itself. Then the board's
own loop (main.py) deciding from the card at a resumed won position: its
longest loop step while it decides (from a step's sensor scan to the next
scan or the core's next sleep: while it decides the loop steps again at
once; the card is asked at most CARD_READS blocks a step). And the strength table with the card, decided on the chip: PER won
positions per stage and side to act from random games (seeded), the
strong level's choice with the card on the chip, judged on the host by the
tables (did the chosen turn keep the win?).
"""

import json
import os
import random
import shutil
import sys
import tempfile

from benchkit import (LAYOUT, PROFILE, ROOT, card_image, keeps, legal_actions,  # (first: the paths)
                      load_tables, tables_of, won_positions)

from attila import profile as profiles
from attila.game.layoutfile import load
from attila.game.notation import format_position
from attila.game.rules import MOVE, OVER, Game

from pico.board import PicoBoard

SD = {"spi": 0, "sck": 2, "mosi": 3, "miso": 4, "cs": 5}
PER = 5  # won positions per stage and side to act in the strength table with the card

ON_CHIP = """
import time, gc
import hardware
from attila import profile
from attila.opponent.planner import CARD_READS, choose
from attila.game import layoutfile
from attila.assembly import open_card
from attila.game.notation import parse_position
p = profile.load("profile.json")
lay, _m, _t = layoutfile.load("layout.json")
t = time.ticks_us()
card, said = open_card(hardware, p, lay)
print("open the card: %%d ms (%%s)" %% (time.ticks_diff(time.ticks_us(), t) // 1000, said))
worst = total = 0
for m, o, s in %(lookups)r:
    card._at = -1  # a block not read yet
    t = time.ticks_us()
    card.won(m, o, s)
    us = time.ticks_diff(time.ticks_us(), t)
    total += us
    worst = max(worst, us)
print("a table lookup (a block read at 10 MHz, its check, the index): %%.1f ms on average, "
      "%%.1f ms at most (%%d positions)" %% (total / %(n)d / 1000, worst / 1000, %(n)d))
print("free won/lost      ms  reads  action")
longest = 0
for free, won, text in %(positions)r:
    game = parse_position(text)
    before = card.reads
    t = time.ticks_us()
    action = choose(game, level=3, budget_ms=p.budget_ms, seed=1, card=card)
    ms = time.ticks_diff(time.ticks_us(), t) // 1000
    longest = max(longest, ms)
    print("%%4d %%-8s %%6d %%6d  %%s" %% (free, "won" if won else "lost", ms,
                                      card.reads - before, action))
print("longest decision with the card: %%d ms (the bar: budget_ms, 2000 ms)" %% longest)
for text in %(sample)r:
    print("sample " + choose(parse_position(text), level=3, budget_ms=p.budget_ms,
                                      seed=1, card=card))
"""


def strength_table(layout, tables, sample, actions):
    """Print how often the chip's choice with the card kept the win, by stage and side."""
    from attila.game.notation import parse_position

    rows = {}
    for text, action in zip(sample, actions):
        game = parse_position(text)
        row = rows.setdefault((bin(game.free()).count("1"), game.side), [0, 0])
        row[0] += 1
        row[1] += keeps(tables, game, action)
    print("strength with the card, decided on the chip (strong level, %d won positions a stage "
          "and side from random games, judged by the tables):" % PER)
    print("free  to act  won  kept the win")
    for (free, side), (won, kept) in sorted(rows.items(), key=lambda kv: (-kv[0][0], kv[0][1])):
        print("%4d  %-6s  %3d  %3d (%d%%)" % (free, "R" if side == 0 else "H", won, kept,
                                            100 * kept // won))
    won = sum(r[0] for r in rows.values())
    kept = sum(r[1] for r in rows.values())
    print("all stages: kept the win in %d of %d won positions%s" % (
        kept, won, "" if len(actions) == len(sample) else
        " (the chip answered %d of %d)" % (len(actions), len(sample))))


def positions(layout, tables, rng, won_only=False):
    """(free, won, text): a won and a lost position per number of free squares, 14..1."""
    want = {}
    for free in range(14, 0, -1):
        want[(free, True)] = None
        if not won_only:
            want[(free, False)] = None
    for _ in range(5000):
        if all(want.values()):
            break
        game = Game(layout)
        while game.phase != OVER:
            if game.phase == MOVE:
                me, opp = game.knights[game.side], game.knights[game.side ^ 1]
                free = bin(game.free()).count("1")
                key = (free, bool(tables.won(me, opp, game.scorched)))
                if key in want and want[key] is None:
                    want[key] = format_position(game)
            legal = legal_actions(game)
            if not legal:
                break
            rng.choice(legal)(game)
    return [(f, w, t) for (f, w), t in sorted(want.items(), key=lambda kv: (-kv[0][0], not kv[0][1]))
            if t]


def resumed_position(layout, tables, rng, turns):
    """A game from setup, `turns` random turns each, at a position the Romans (to move) win."""
    from attila.game.rules import SETUP

    while True:
        game = Game(layout)
        while game.phase == SETUP:
            legal = legal_actions(game)
            if not legal:
                break
            rng.choice(legal)(game)
        for _ in range(4 * turns):
            if game.phase == OVER:
                break
            rng.choice(legal_actions(game))(game)
        if game.phase == MOVE and game.side == 0 and \
                tables.won(game.knights[0], game.knights[1], game.scorched):
            return game


def in_loop(layout, tables, image, folder, rng):
    """The board's own loop (main.py) deciding from the card: a saved game is resumed at
    a won position with the board to play; the longest loop step while it decides."""
    from attila.saves.savetext import dump
    from attila.saves.store import Store

    with open(PROFILE) as f:
        prof = json.load(f)
    prof["sdcard"] = SD
    prof["game"] = {"computer": "R"}
    path = os.path.join(folder, "loop.json")
    with open(path, "w") as f:
        json.dump(prof, f)
    print("in the board's loop (main.py, a saved game resumed with MENU, the board to play):")
    print("free  loop steps  longest step  blocks read  status")
    for turns in (1, 2, 3):
        game = resumed_position(layout, tables, rng, turns)
        save = os.path.join(folder, "game.txt")
        Store(save).save(dump(game))
        with open(save, "rb") as f:
            data = f.read()
        board = PicoBoard.flashed(os.path.join(folder, "loop"), LAYOUT, path,
                                  extra={"game.txt": data}, sd_image=image)
        board.squares = game.occupied()
        with board:
            board.boot()
            board.pico.run_ms(1500)  # the squares read, the saved game found
            reads = board.pico.sd_reads
            board.pico.watch_awake(True)
            board.press(1)  # MENU: resume; the board decides
            board.pico.run_ms(1500)
            board.pico.watch_awake(False)
            spans = board.pico.steps()
            said = board.pico.output(0).strip().splitlines()[-1]
            print("%4d  %10d  %9.1f ms  %11d  %s" % (
                bin(game.free()).count("1"), len(spans), max(s[1] for s in spans) / 1000,
                board.pico.sd_reads - reads, said))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if shutil.which("mformat") is None:
        print("pico_card: skipped: mtools (mformat, mcopy) is not installed")
        return 0
    layout, _m, _t = load(LAYOUT)
    tables = tables_of(layout)
    image = card_image(layout, tables)
    rng = random.Random(11)
    lookups = []
    ix = tables.index
    for _ in range(20):
        sq = rng.sample(range(20), 20)
        lookups.append((sum(1 << i for i in sq[:3]), sum(1 << i for i in sq[3:6]),
                        sum(1 << i for i in sq[6:6 + rng.randrange(15)])))
    todo = positions(layout, tables, rng, "--won-only" in argv)
    want, _games = won_positions(layout, tables, random.Random(12), PER)
    sample = [t for key in sorted(want, key=lambda k: (-k[0], k[1])) for t in want[key]]
    tables.close()
    del ix
    folder = tempfile.mkdtemp(prefix="attila-bench-card-")
    with open(PROFILE) as f:
        prof = json.load(f)
    prof["sdcard"] = SD
    prof_path = os.path.join(folder, "profile.json")
    with open(prof_path, "w") as f:
        json.dump(prof, f)
    budget = profiles.load(prof_path).budget_ms
    board = PicoBoard.flashed(os.path.join(folder, "board"), LAYOUT, prof_path,
                              extra={"maintenance": b""}, sd_image=image).start()
    try:
        board.pico.wait_for(b">>> ", 20000, since=0)
        print("budget_ms %d (pico.json); card image %s" % (budget, os.path.relpath(image, ROOT)))
        code = ON_CHIP % {"lookups": lookups, "n": len(lookups), "positions": todo,
                          "sample": sample}
        out = board.pico.exec(code, max_ms=3600000, echo=Echo())
    finally:
        board.close()
    actions = [line[7:].strip() for line in out.splitlines() if line.startswith("sample ")]
    strength_table(layout, load_tables(layout), sample, actions)
    try:
        in_loop(layout, load_tables(layout), image, folder, rng)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


class Echo:
    """Shows the chip's output as it comes, whole lines, without the strength sample's."""

    def __init__(self):
        self.part = ""

    def __call__(self, data):
        lines = (self.part + data.decode("utf-8", "replace").replace("\r\n", "\n")).split("\n")
        self.part = lines.pop()
        for line in lines:
            if not line.startswith("sample "):
                sys.stdout.write(line + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
