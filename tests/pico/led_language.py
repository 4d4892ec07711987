"""The LED language (docs/pages/play/leds.md), written out square by square for tests/pico/game.txt.

Written from that page alone (its colours, its blink patterns, "a game,
step by step", "when something is wrong"), not from the firmware nor from
the simulator: after each line of the
script, what each square must show. A bug the chip and the simulator share
(they run the same firmware) passes the frame-for-frame test; not this one.

A spec is the square's colour letter, then its pattern:

    B  A  W  R     blue (Romans), amber (Huns), white (scorched earth), red
    b  a           the same blue / amber, dim: a lifted knight's square, the
                   knight that has just moved (scorch step)
    (none)         steady: do this here
    !              fast blink (2.5 Hz: 200 ms lit, 200 ms dark): a correction
    *              short flash every 1.6 s: a trapped knight
    ?              blinks (the page gives no rate): lit or dark
    ~              breathing, never dark: the game is over
    a square not named is dark.

After each line the chip's last frame must show every square as its spec
allows (a blinking square lit or dark). During a `wait` line every frame
must, each blinking square must show both its phases, and a correction's
red and colour squares "blink in turn" (never lit together).
"""

COLOURS = {"B": "blue", "A": "amber", "W": "white", "R": "red", "b": "dim blue",
           "a": "dim amber"}

SETUP_ALL = "a1 a2 a3 a4 b1 b2 b3 b4 c1 c2 c3 c4 d1 d2 d3 d4 e1 e2 e3 e4".split()


def _free(*taken):
    return " ".join(s for s in SETUP_ALL if s not in taken)


# (line of game.txt, {spec: squares}), in the script's order.
EXPECTED = [
    # Setup: the squares where the side to place may put a knight, in its colour.
    ("@a1", {"A": _free("a1")}),
    ("@b1", {"B": _free("a1", "b1")}),
    ("@c1", {"A": _free("a1", "b1", "c1")}),
    ("@d1", {"B": _free("a1", "b1", "c1", "d1")}),
    ("@e1", {"A": _free("a1", "b1", "c1", "d1", "e1")}),
    # Move: the Romans' knights that can move (a2's Hun leaves them all a jump).
    ("@a2", {"B": "a1 c1 e1"}),
    # Lifted: its square dims, the squares it can jump to light.
    ("lift a1", {"b": "a1", "B": "b3 c2"}),
    # Put on a3, not a knight's jump: take it off a3 (red), put it back on a1
    # (blue, in between the red).
    ("put a3", {"R!": "a3", "B!": "a1"}),
    ("wait 1000", {"R!": "a3", "B!": "a1"}),
    ("lift a3", {"b": "a1", "B": "b3 c2"}),
    ("put a1", {"B": "a1 c1 e1"}),
    ("a1-c2,a1", {"A": "a2 b1 d1"}),
    ("b1-d2,b1", {"B": "c1 c2 e1"}),
    ("c1-e2,c1", {"A": "a2 d1 d2"}),
    # UNDO: the scorched square blinks red until the tile is lifted.
    ("undo", {"R!": "c1"}),
    ("wait 900", {"R!": "c1"}),
    # Back in the scorch step: every free square white, the knight that moved dim.
    ("lift c1", {"W": "a3 a4 b2 b3 b4 c1 c3 c4 d3 d4 e3 e4", "b": "e2"}),
    ("put c1", {"A": "a2 d1 d2"}),
    ("d1-b2,d1", {"B": "c2 e1 e2"}),
    ("e1-d3,e1", {"A": "a2 b2 d2"}),
    ("wait 1700", {"A": "a2 b2 d2"}),
    ("a2-c3,a2", {"B": "c2 d3 e2"}),
    ("c2-a3,c2", {"A": "b2 c3 d2"}),
    ("b2-a4,b2", {"B": "a3 d3 e2"}),
    # From here on some knights are trapped: they flash now and then.
    ("e2-d4,e2", {"A": "c3 d2", "A*": "a4"}),
    ("d2-b3,d2", {"B": "a3 d3", "B*": "d4", "A*": "a4 b3"}),  # (the Huns' a4 and b3 trapped too)
    ("a3-c4,a3", {"A": "c3", "A*": "a4 b3", "B*": "d4"}),
    ("wait 1700", {"A": "c3", "A*": "a4 b3", "B*": "d4"}),
    ("c3-e4,c3", {"B": "c4 d3", "B*": "d4", "A*": "a4 b3 e4"}),
    # The Huns cannot move: the Romans win, the whole board breathes blue.
    ("d3-b4,d3", {"B~": " ".join(SETUP_ALL)}),
    ("wait 900", {"B~": " ".join(SETUP_ALL)}),
    # MENU after the game: a new game; every square that still holds a piece
    # blinks white until the board is empty (e3 is the one free square).
    ("menu", {"W?": _free("e3")}),
    ("wait 1200", {"W?": _free("e3")}),
    ("lift e4", {"W?": _free("e3", "e4")}),
    ("wait 1200", {"W?": _free("e3", "e4")}),
]


def specs(expected):
    """{square: spec} of one line (every square of the board; dark ones "")."""
    out = {s: "" for s in SETUP_ALL}
    for spec, squares in expected.items():
        for s in squares.split():
            assert out[s] == "", "%s named twice" % s
            out[s] = spec
    return out


def colour_of(rgb):
    """The LED language's name of one LED's colour (brightness and power cap aside)."""
    r, g, b = rgb
    if not (r or g or b):
        return "dark"
    top = max(rgb)
    dim = "dim " if top <= 45 else ""  # a quarter of the board's 160 of 255, and less
    if r == g == b:
        return "white"
    if g == 0 and b == 0:
        return "red"
    if r == 0 and g and b and abs(g * 255 - b * 96) <= 2 * 255:  # (0, 96, 255)
        return dim + "blue"
    if b == 0 and g and r and abs(g * 255 - r * 112) <= 2 * 255:  # (255, 112, 0)
        return dim + "amber"
    return "no colour of the language %r" % (rgb,)


def allowed(spec):
    """The colours a square with this spec may show in one frame."""
    if not spec:
        return {"dark"}
    colour = COLOURS[spec[0]]
    if spec[1:] in ("!", "*", "?"):
        return {colour, "dark"}
    if spec[1:] == "~":
        return {colour, "dim " + colour}
    return {colour}


def check_frame(leds, want, where):
    """Every square's colour is one its spec allows; returns the colours by square."""
    shown = {}
    for square, spec in want.items():
        got = colour_of(leds[square])
        assert got in allowed(spec), "%s: %s shows %s, the LED language says %s" % (
            where, square, got, spec or "dark")
        shown[square] = got
    return shown


# How long a blink's phases last (the page: fast blink 2.5 Hz; a trapped
# knight's short flash), give or take a loop step and a frame's re-render.
PHASES_MS = {"!": (200, 200), "*": (200, 1400)}
SLACK_MS = 60


def check_window(frames, want, where):
    """A wait: [(us, {square: rgb})] of a steady state, as long as the wait."""
    seen = {s: set() for s in want}
    levels = {s: set() for s in want}
    changes = {s: [] for s in want}  # (us, lit?) where a blinking square turns on or off
    for k, (us, leds) in enumerate(frames):
        shown = check_frame(leds, want, "%s, frame %d" % (where, k))
        for s, c in shown.items():
            seen[s].add(c)
            levels[s].add(max(leds[s]))
            lit = c != "dark"
            if k == 0 or lit != (changes[s][-1][1] if changes[s] else None):
                changes[s].append((us if k else None, lit))
        red = [s for s, spec in want.items() if spec == "R!" and shown[s] != "dark"]
        colour = [s for s, spec in want.items()
                  if spec in ("B!", "A!", "W!") and shown[s] != "dark"]
        assert not (red and colour), "%s, frame %d: %s and %s lit together, not in turn" % (
            where, k, red, colour)
    for s, spec in want.items():
        if spec[1:] in ("!", "*", "?"):
            assert seen[s] == allowed(spec), "%s: %s (%s) showed only %s" % (
                where, s, spec, sorted(seen[s]))
        if spec[1:] in ("!", "*"):
            # Each phase seen whole (begun and ended within the wait) lasts as long as
            # the pattern says.
            on_ms, off_ms = PHASES_MS[spec[1:]]
            marks = changes[s]
            if spec[1:] == "!":  # a correction's wait shows whole phases to measure
                assert len(marks) >= 4, "%s: %s (%s): no whole phase in the wait" % (
                    where, s, spec)
            for (t0, lit), (t1, _) in zip(marks[1:], marks[2:]):
                ms = (t1 - t0) / 1000.0
                want_ms = on_ms if lit else off_ms
                assert abs(ms - want_ms) <= SLACK_MS, "%s: %s (%s) was %s for %.0f ms, not %d" % (
                    where, s, spec, "lit" if lit else "dark", ms, want_ms)
        if spec[1:] == "~":
            assert len(levels[s]) >= 3, "%s: %s does not breathe: levels %s" % (
                where, s, sorted(levels[s]))
