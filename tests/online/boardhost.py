"""A board on the MicroPython unix port, online: main.py as flashed, on fake pins.

Run by tests/online/unixboard.py in a folder that holds the board's files
(profile.json: the reference wiring, layout.json, online.json); MICROPYPATH
has tests/ports/fakes (machine, neopixel, physical) before the flashed
firmware and its lib/. The board runs main.main() in real time, with the
real core, the port's online.py and umqtt.simple on the host's network.

The test's hands speak on stdin, one command a line, read at every loop
step (the clock main.py is handed reads them):
    do MASK [MASK...]   the squares read each occupancy in turn (square
                        order); the next one once the board has sensed it
    press undo|menu     a press (down, and up after 100 ms)
    leds                print the lit squares: @@leds c2=0060ff ...
    log                 print the game: @@log @c2 @b1 ...
    counts              the messages refused: @@counts 2 forged, 1 replayed
    steps               the longest loop step since the last `steps` (from one
                        step's start to the next's), in ms: @@steps 12
The board prints its status lines as a real one does (its Console, on
stdout), and @@ lines for the test on stderr: @@done after a `do`, @@ready
once it runs.
argv[1]: the occupancy the squares read at power-up (a power cut leaves
the pieces where they were).
"""

import select
import sys
import time

import lwipsocket  # (the socket as a Pico W's: setblocking(True) waits for ever)
import machine
import physical

sys.modules["socket"] = lwipsocket

import main  # noqa: E402

chain = physical.HC165Chain(13, 10, 12, 4)  # pico.json's chain (load, clock, data)
keys = physical.Switches([16, 17])  # UNDO, MENU
state = {"board": None, "todo": [], "mask": int(sys.argv[1]) if len(sys.argv) > 1 else 0,
         "up": -1, "last": -1, "longest": 0}
poll = select.poll()
poll.register(sys.stdin, select.POLLIN)
_build = main.build


def build(*args, **kw):
    board = _build(*args, **kw)
    state["board"] = board
    apply(state["mask"])
    step = board.step

    def timed(now):
        t = time.ticks_ms()
        if state["last"] >= 0:
            state["longest"] = max(state["longest"], time.ticks_diff(t, state["last"]))
        state["last"] = t
        return step(now)

    board.step = timed  # (main.run's loop calls it once a step)
    return board


main.build = build


def apply(mask):
    """Magnets on exactly the squares of `mask`."""
    wiring = state["board"].wiring
    raw = wiring.chain(mask)
    chain.clear()
    base = 0
    for reg, n in enumerate(wiring.registers):
        for d in range(n):
            if raw >> (base + d) & 1:
                chain.close(reg, d)
        base += n
    state["mask"] = mask


def say(text):
    sys.stderr.write("@@" + text + "\n")  # (stdout is the board's console, a byte at a time)


def command(words, now):
    board = state["board"]
    if words[0] == "do":
        state["todo"] = [int(w) for w in words[1:]]
    elif words[0] == "press":
        keys.set(16 if words[1] == "undo" else 17, True)
        state["up"] = time.ticks_add(now, 100)
    elif words[0] == "leds":
        c = board.controller
        names = c.layout.names
        frame = c.frame
        lit = []
        for i in range(c.layout.size):
            rgb = frame[3 * i:3 * i + 3]
            if any(rgb):
                lit.append("%s=%02x%02x%02x" % (names[i], rgb[0], rgb[1], rgb[2]))
        say("leds " + " ".join(lit))
    elif words[0] == "counts":
        from attila.online.words import counted

        say("counts " + (counted(board.controller.plan.opponent.party) or "none"))
    elif words[0] == "steps":
        say("steps %d" % state["longest"])
        state["longest"] = 0
    elif words[0] == "log":
        from attila.game.notation import log

        say("log " + log(board.controller.game))


def clock():
    """The loop's clock: the hands act between two steps."""
    now = time.ticks_ms()
    board = state["board"]
    if board is None:
        return now
    while poll.poll(0):
        line = sys.stdin.readline()
        if not line:
            sys.exit(0)
        if line.strip():
            command(line.split(), now)
    todo = state["todo"]
    if todo and board.inputs.occupied == state["mask"]:
        if todo[0] < 0:  # the last one is sensed too
            state["todo"] = []
            say("done")
        else:
            apply(todo.pop(0))
            if not todo:
                todo.append(-1)
    if state["up"] >= 0 and time.ticks_diff(now, state["up"]) >= 0:
        keys.set(16, False)
        keys.set(17, False)
        state["up"] = -1
    return now


say("ready")
main.main(clock=clock)
