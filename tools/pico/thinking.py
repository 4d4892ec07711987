"""The board thinking in main.py's own loop on the emulated Pico, with its watchdog.

    board = PicoBoard.flashed(folder, layout, profile, extra={"maintenance": b""}).start()
    rows = thinking.decisions(board, [(STRONG, "after setup", "@a1 @b1 @c1 @d1 @e1 @a2")])

For each (level, name, log): on the chip, the game of `log` (from the empty
board, Romans first) is saved to the flash as the board saves it, a
Controller with the computer on the side to act and the level's Planner
(the profile's budget_ms) reads it back, main.build() builds the board of
the flashed profile and layout around it, and MENU resumes the game (the
controller's own press). The host then puts the pieces on the reed
switches, and main.run() steps the board (every loop_ms; at once after a
step that searched and left the LEDs as they were) with a
machine.WDT of the profile's watchdog_ms fed by the loop, as main.py does,
until a few loops after the decision is shown. Board.step() is timed on the
chip (ticks_us) in every loop from the one that starts the search (it also
saves the settled game) to the one that shows the decision (its action on
the LEDs, its status line printed).

A row: Decision(level name, position name, ms from the first slice to the
decision on the loop clock, nodes, the start step us, median and longest
us of the other steps, their number, the action). A reset of the chip (the
watchdog) ends the run: PicoError, and `board.pico.resets` says which.
"""

from collections import namedtuple

Decision = namedtuple("Decision", "level name ms nodes start median longest steps action")

ON_CHIP = """
import gc, sys, time, machine, main
from attila import profile
from attila.opponent.chooser import action_text
from attila.opponent.levels import LEVEL_NAMES
from attila.opponent.planner import Planner
from attila.game import layoutfile
from attila.play.controller import Controller
from attila.play.presses import BUTTON_MENU
from attila.game.notation import replay
from attila.game.rules import Game
from attila.saves.savetext import dump
from attila.saves.store import Store
prof = profile.load("profile.json")
layout, modules, tiles = layoutfile.load("layout.json")
wdt = machine.WDT(timeout=prof.watchdog_ms)
us = time.ticks_us
diff = time.ticks_diff

class Shown(Exception):
    pass

def think(level, name, log):
    game = Game(layout, 0, tiles)
    replay(game, log)
    store = Store("game.txt")
    store.save(dump(game))
    planner = Planner(level, prof.budget_ms, %(slice)r)
    c = Controller(layout, store, tiles=tiles, computer=game.side, opponent=planner)
    board = main.build(prof, layout, modules, tiles, controller=c)
    now = time.ticks_ms()
    c.press(BUTTON_MENU, now)  # resume the saved game, as MENU does
    c.release(BUTTON_MENU, now)
    gc.collect()
    wdt.feed()
    print("pieces %%d" %% game.occupied())
    sys.stdin.read(1)  # the host has put them on the reed switches
    step = board.step
    seen = [-1, -1, 0]  # first slice (ms), decision (ms), loops since
    spans = []
    def timed(now_ms):
        was = planner.busy
        t = us()
        r = step(now_ms)
        d = diff(us(), t)
        if was or planner.busy:
            if seen[0] < 0:
                seen[0] = now_ms
            spans.append(d)
        elif seen[0] >= 0:
            if seen[1] < 0:  # the loop that shows the decision
                seen[1] = now_ms
                spans.append(d)
            seen[2] += 1
            if seen[2] > 3:
                raise Shown
        return r
    board.step = timed
    try:
        main.run(board, prof.loop_ms, wdt)
    except Shown:
        pass
    first = spans.pop(0)
    spans.sort()
    print("decision %%s %%s %%d %%d %%d %%d %%d %%d %%s" %% (
        LEVEL_NAMES[level], name.replace(" ", "_"), diff(seen[1], seen[0]),
        planner.nodes, first, spans[len(spans) // 2], spans[-1], len(spans),
        action_text(layout, planner.result())))

for level, name, log in %(todo)r:
    think(level, name, log)
print("all done")
"""


def decisions(board, todo, slice_nodes=None, out=None):
    """Run each (level, name, log) of `todo` on a started PicoBoard (module doc);
    the Decision rows, also handed to out(row) as they come."""
    pico = board.pico
    code = ON_CHIP % {"slice": slice_nodes, "todo": tuple(todo)}
    pico.wait_for(b">>> ", 20000, since=0)
    pico.mark()
    pico.write(b"\x03\x01")  # raw REPL, then the script
    pico.wait_for(b"raw REPL; CTRL-B to exit\r\n>", 5000)
    pico.mark()
    for k in range(0, len(code), 256):
        pico.write(code[k:k + 256])
    pico.write(b"\x04")
    rows = []
    longest = 2 * board.prof.budget_ms + 10000  # emulated ms: against a hung chip only
    for _level, _name, _log in todo:
        at = pico.wait_for(b"pieces ", 30000)
        end = pico.wait_for(b"\n", 1000, since=at)
        board.set_squares(int(pico.serial[at + 7:end]))
        pico.write(b"g")
        at = pico.wait_for(b"decision ", longest, since=end)
        end = pico.wait_for(b"\n", 1000, since=at)
        f = pico.serial[at + 9:end].decode().split()
        row = Decision(f[0], f[1].replace("_", " "), *[int(x) for x in f[2:8]],
                       action=f[8] if len(f) > 8 else "")
        rows.append(row)
        if out is not None:
            out(row)
        pico.mark()
    pico.wait_for(b"all done", 20000)
    return rows
