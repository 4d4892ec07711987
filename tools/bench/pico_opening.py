"""The opening table in the emulated Pico's own flash: the first turn of play, decided.

    python tools/bench/pico_opening.py          (make bench)

`attila flash` puts the layout's opening table (boards/solved/4x5.opening,
attila.opponent.opening) on the board as layout.opening, and main.py opens it when
no SD card covers the game: the strong level then plays a winning first
turn of play whenever one exists. Measured on MicroPython's own RP2040
build (rp2040js, emulated time at 125 MHz: a lower bound for a real Pico,
see tools/pico/README.md), with the reference profile (pico.json), with and
without layout.opening on the flash:

- power-up to main.py's first line, and the heap free once the board is
  built as main.py builds it (setup book and opening table open);
- on the chip, at first-turn positions (14 free squares on 4x5, after a
  seeded random setup; won or lost as the table itself says, exact there):
  opening the table, then the strong level's whole decision with the table
  and with the search alone (choose at the profile's budget): its
  time, the table blocks read, the turn, and whether it keeps the win
  (judged on the host by the table: one square scorched after it). The
  bar: at most the profile's budget_ms (2 s) a decision, the time the
  board allows itself;
- the board's own loop (main.py) deciding the game's first turn of play
  from the table: a saved game resumed with MENU at such a position, the
  board to play:
  loop steps and the longest step while it decides (a step's sensor scan to
  the next scan or the core's next sleep: the loop steps again at once while
  it decides; CARD_READS blocks a step at most; at a lost
  position the search decides after one lookup, in its own slices), MENU
  to the turn shown, and the status line.
"""

import json
import os
import random
import shutil
import sys
import tempfile

from benchkit import LAYOUT, PROFILE, ROOT, TABLE, keeps  # (first: the paths)

from attila.game.layoutfile import load
from attila.game.notation import format_position, parse_position
from attila.opponent.opening import Opening
from attila.game.rules import MOVE, SETUP, Game

from pico.board import MENU, PicoBoard, firmware_files
from pico.chip import new_flash

OPENING = "layout.opening"
SEED = 20261202
WON, LOST = 6, 2  # first-turn positions decided on the chip
# The test's position (tests/pico/test_pico_opening.py): the search alone throws it.
THROWN = ["a3", "c1", "e3", "e2", "a4", "e4"]

BUILT = """
import gc, time, main
from attila import profile
from attila.game import layoutfile
from attila.assembly import open_book, open_opening
prof = profile.load("profile.json")
layout, modules, tiles = layoutfile.load("layout.json")
book = open_book("layout.book", layout)[0]
t = time.ticks_us()
opening, said = open_opening("layout.opening", layout)
us = time.ticks_diff(time.ticks_us(), t)
board = main.build(prof, layout, modules, tiles, book=book, card=opening)
gc.collect()
print("heap free after boot: %d bytes (used %d); open_opening %d ms: %s"
      % (gc.mem_free(), gc.mem_alloc(), us // 1000, said or "no table: nothing said"))
"""

DECIDE = """
import time
from attila import profile
from attila.opponent.planner import CARD_READS, choose
from attila.game import layoutfile
from attila.assembly import open_opening
from attila.game.notation import parse_position
p = profile.load("profile.json")
lay, _m, _t = layoutfile.load("layout.json")
opening, said = open_opening("layout.opening", lay)
for text in %(positions)r:
    game = parse_position(text)
    for card in (opening, None):
        before = opening.reads
        t = time.ticks_us()
        action = choose(game, level=3, budget_ms=p.budget_ms, seed=1, card=card)
        ms = time.ticks_diff(time.ticks_us(), t) // 1000
        print("decided %%s %%d %%d %%s" %% ("table" if card else "search", ms,
                                      opening.reads - before, action))
"""


def flash(folder, with_table, extra=None, profile=PROFILE):
    """A PicoBoard on a flash as `make flash` fills it, layout.opening there or not."""
    os.makedirs(folder, exist_ok=True)
    files = firmware_files(LAYOUT, profile, extra=extra)
    if not with_table:
        files.pop(OPENING, None)
    path = os.path.join(folder, "flash.bin")
    new_flash(path, files)
    return PicoBoard(path, LAYOUT, profile)


def boot(folder, with_table):
    board = flash(folder, with_table).start()
    try:
        line = board.boot()
        return line, board.pico.us
    finally:
        board.close()


def heap(folder, with_table):
    board = flash(folder, with_table, {"maintenance": b""}).start()
    try:
        board.pico.wait_for(b">>> ", 20000, since=0)
        return board.pico.exec(BUILT).strip()
    finally:
        board.close()


def first_turns(layout, table, rng, won, lost):
    """[(game, won)]: positions right after a random setup (either side first)."""
    out = []
    seen = set()
    want = {True: won, False: lost}
    while want[True] or want[False]:
        game = Game(layout, first=rng.randrange(2))
        while game.phase == SETUP:
            legal = [i for i in range(layout.size) if game.placements() >> i & 1]
            if not legal:
                break
            game.place(rng.choice(legal))
        if game.phase != MOVE or not game.movable():
            continue
        text = format_position(game)
        if text in seen:
            continue
        try:
            parse_position(text)
        except Exception:
            continue  # a position the notation refuses
        w = bool(table.won(game.knights[game.side], game.knights[game.side ^ 1], 0))
        if want[w]:
            want[w] -= 1
            seen.add(text)
            out.append((game, w))
    return out


def decisions(folder, layout, table, cases):
    texts = [format_position(g) for g, _w in cases]
    board = flash(folder, True, {"maintenance": b""}).start()
    try:
        board.pico.wait_for(b">>> ", 20000, since=0)
        out = board.pico.exec(DECIDE % {"positions": texts}, max_ms=600000)
    finally:
        board.close()
    rows = [line.split()[1:] for line in out.splitlines() if line.startswith("decided ")]
    print("the strong level's decision at the first turn of play, on the chip (pico.json's "
          "budget), with the table and with the search alone:")
    print("position                   won    with the table: ms reads turn      kept"
          "   search alone: ms turn      kept")
    longest = 0
    for k, (game, won) in enumerate(cases):
        (_t, ms, reads, turn), (_s, ms2, _r2, turn2) = rows[2 * k], rows[2 * k + 1]
        longest = max(longest, int(ms))
        print("%-26s %-5s  %19s %5s %-9s %-5s  %17s %-9s %s" % (
            texts[k], "won" if won else "lost", ms, reads, turn,
            ("yes" if keeps(table, game, turn) else "NO") if won else "-", ms2, turn2,
            ("yes" if keeps(table, game, turn2) else "NO") if won else "-"))
    print("longest first-turn decision with the table: %d ms (the bar: budget_ms, 2000 ms)"
          % longest)


def in_loop(folder, layout, cases):
    """main.py's loop deciding a resumed first turn (the board plays the side to move)."""
    from attila.saves.savetext import dump
    from attila.saves.store import Store

    print("in the board's loop (main.py, a saved game resumed with MENU at the first turn of "
          "play, the board to play at the strong level):")
    print("won    loop steps  longest step  MENU to the turn shown  status")
    for k, (game, won) in enumerate(cases):
        with open(PROFILE) as f:
            prof = json.load(f)
        who = "RH"[game.side]
        prof["game"] = {"computer": who, "level": "strong"}
        path = os.path.join(folder, "loop-%d.json" % k)
        with open(path, "w") as f:
            json.dump(prof, f)
        save = os.path.join(folder, "game-%d.txt" % k)
        Store(save).save(dump(game))
        with open(save, "rb") as f:
            data = f.read()
        board = flash(os.path.join(folder, "loop-%d" % k), True, {"game.txt": data}, path)
        board.squares = game.occupied()
        pico = board.pico
        with board:
            board.boot()
            pico.run_ms(1500)  # the squares read, the saved game found
            pico.watch_awake(True)
            pico.mark()
            board.press(MENU)
            start = pico.us
            at = pico.wait_for(b"The board plays the %s: lift" % (b"Romans", b"Huns")[game.side],
                               20000)
            shown = pico.us
            pico.run_ms(200)
            pico.watch_awake(False)
            spans = [s for s in pico.steps() if start <= s[0] <= shown]
            end = pico.serial.find(b"\n", at)
            said = pico.serial[at:end].decode().strip()
            print("%-5s  %10d  %9.1f ms  %19.0f ms  %s" % (
                "won" if won else "lost*", len(spans), max(s[1] for s in spans) / 1000,
                (shown - start) / 1000, said))
    print("* lost: one lookup, then the search decides (its steps: a slice of nodes each, "
          "pico_board)")


def main():
    layout = load(LAYOUT)[0]
    folder = tempfile.mkdtemp(prefix="attila-bench-opening-")
    try:
        for with_table in (False, True):
            how = "with layout.opening (%d KB)" % (os.path.getsize(TABLE) // 1000) \
                if with_table else "without layout.opening"
            line, us = boot(os.path.join(folder, "boot-%d" % with_table), with_table)
            print("%s: power-up to %r: %.0f ms" % (how, line, us / 1000))
            print("%s: %s" % (how, heap(os.path.join(folder, "heap-%d" % with_table),
                                        with_table)))
        with open(TABLE, "rb") as f:
            table = Opening(f, layout, os.path.relpath(TABLE, ROOT))
            cases = first_turns(layout, table, random.Random(SEED), WON, LOST)
            thrown = Game(layout, first=0)
            for name in THROWN:
                thrown.place(layout.names.index(name))
            cases.insert(0, (thrown, True))
            decisions(os.path.join(folder, "decide"), layout, table, cases)
        in_loop(folder, layout, [cases[0], cases[1], cases[-1]])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
