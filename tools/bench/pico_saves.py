"""The loop steps that write the flash, on the emulated Pico, with typical and maximum flash times.

    python tools/bench/pico_saves.py [typical|max]     (make bench: both)

A whole scripted game (tests/pico/game.txt: placements, moves, a
correction, an UNDO and its take-back, to the end, then MENU for a new
game), the board cleared, and the game again, are played through the reed
switches of the 4x5 board (profile pico.json), once with the W25Q16JV's
typical erase and program times (sector erase 45 ms, page program 0.4 ms)
and once with the data sheet's maxima (400 ms, 3 ms; tools/pico/chip.mjs
--flash-times max). The core's awake spans and sensor scans are recorded:
a loop step runs from one scan to the next, or to the core's sleep (a step
that outlasts the loop's 10 ms is followed at once by the next, which
scans and paints the LEDs before it writes anything). Of the steps in
which the firmware wrote the flash it prints the longest, and apart:

- the accepting steps: each accepted action is kept (a journal line: one
  littlefs commit) in the very step that accepts it, before its LED frame
  goes out; the longest of them is what a player can wait for an action to
  show. A step is one when its scan takes a change of the inputs (the
  pieces: once the new reading has held the debounce time; the buttons:
  the first scan);
- the steps at rest: the whole save with the journal's folder made anew
  (attila.saves.store.Store.renew), a finished game's archive. An input that
  arrives during one waits for it all the same.

With each, how many of those steps erased a sector (littlefs compacting a
folder's metadata, a new folder, a new block). Every figure is emulated
time (the same on every run).
"""

import json
import statistics
import sys
import tempfile

from benchkit import GAME, LAYOUT, PROFILE  # (first: the paths)

from attila_sim import actions

from pico.board import PicoBoard
from pico.hands import Mirror


def debounce_ms():
    """The sensors' debounce time of the profile (attila.sensing.debounce's hold_ms)."""
    with open(PROFILE) as f:
        return json.load(f)["sensors"]["debounce_ms"]


def taking_scans(inputs, scans, hold_ms):
    """The times (us) of the scans that take each change of the inputs: for
    the pieces, the first scan at which the new reading has held hold_ms
    (ticks_ms, as attila.sensing.debounce counts) since the scan that first saw it;
    for the buttons, the first scan after the change."""
    out = []
    before = None
    for ns, squares, buttons in inputs:
        us = ns / 1000.0
        first = next((k for k, (t, _ms) in enumerate(scans) if t >= us), None)
        if first is not None:
            if before is None or buttons != before[1]:
                out.append(scans[first][0])
            if before is None or squares != before[0]:
                since = scans[first][1]
                held = next((t for t, ms in scans[first:] if ms - since >= hold_ms), None)
                if held is not None:
                    out.append(held)
        before = (squares, buttons)
    return out


def write_steps(flash_times):
    """[(step us, erases, programs, accepted)] of the loop steps that wrote the
    flash in a whole game (accepted: the step that took a change of the
    inputs and kept the action before showing it), and the loop steps' count."""
    with open(GAME) as f:
        game = f.read().splitlines()
    # The game, the board cleared for a new one, the game again: where
    # littlefs compacts depends on every commit before, so two games see
    # more of it than one.
    lines = game + ["clear", "wait 1000"] + game
    folder = tempfile.mkdtemp(prefix="attila-bench-saves-")
    b = PicoBoard.flashed(folder, LAYOUT, PROFILE, flash_times=flash_times)
    over = False
    with b:
        b.boot()
        b.run_ms(300)
        b.pico.run_to_idle()
        b.pico.flash_ops = []
        b.pico.scans = []
        b.pico.watch_awake()
        rig = Mirror(b)
        for _n, _text, todo in actions.parse_lines(rig.layout, lines):
            rig.do(todo)
            over = over or rig.mode_name() == "over"
        rig.do([("wait", 1500)])  # the last settle
        b.pico.watch_awake(False)
        spans = list(b.pico.awake)
        timed = list(b.pico.scans)
        scans = [t for t, _ms in timed]
        ops = list(b.pico.flash_ops)
        takes = taking_scans(rig.inputs, timed, debounce_ms())
    if not over:
        raise SystemExit("pico_saves: the game did not end")
    steps = []
    j = 0
    for t0, t1 in spans:
        # (the first scan of a span comes just after the core woke)
        while j < len(scans) and scans[j] <= t0:
            j += 1
        if j < len(scans) and scans[j] < t1:
            j += 1
        start = t0
        while j < len(scans) and scans[j] < t1:
            steps.append((start, scans[j]))
            start = scans[j]
            j += 1
        steps.append((start, t1))
    out = []
    k = 0
    for t0, t1 in steps:
        erases = programs = 0
        while k < len(ops) and ops[k]["t"] / 1000.0 < t1:
            if ops[k]["t"] / 1000.0 >= t0:
                if ops[k]["op"] == "erase":
                    erases += 1
                else:
                    programs += 1
            k += 1
        if erases or programs:
            accepted = any(t0 <= t < t1 for t in takes)
            out.append((t1 - t0, erases, programs, accepted))
    return out, len(steps)


def _line(what, steps):
    us = [s[0] for s in steps]
    if not us:
        return "  %s: none" % what
    erasing = [s for s in steps if s[1]]
    text = "  %s: %d, longest %.1f ms, median %.1f ms; " % (
        what, len(us), max(us) / 1000, statistics.median(us) / 1000)
    if not erasing:
        return text + "none erased a sector"
    return text + "%d erased a sector (at most %d in one step; longest of those %.1f ms)" % (
        len(erasing), max(s[1] for s in erasing), max(s[0] for s in erasing) / 1000)


def main():
    for times in sys.argv[1:] or ("typical", "max"):
        steps, count = write_steps(times)
        print("pico.json, %s flash times: %d of %d loop steps wrote the flash in two games"
              % (times, len(steps), count))
        print("  longest loop step caused by a save: %.1f ms" % (max(s[0] for s in steps) / 1000))
        print(_line("accepting steps (action -> journal line -> LED frame)",
                    [s for s in steps if s[3]]))
        print(_line("steps at rest (whole save and journal folder anew, archive)",
                    [s for s in steps if not s[3]]))


if __name__ == "__main__":
    main()
