"""Headless scripted mode: a list of actions in, the board's frames out.

The script is text, one action a line (see attila_sim.actions): sensor
events (lift b1, put c3, sense a1,b3, raw 0x1f), whole turns (b1-c3,d4),
placements (@b1), button presses and waits. Every line is carried out on the rig and
the clock then runs until the sensors have settled; one record is written per
line:

  json (default): one JSON object a line, keys in this order
    line    the line number in the script
    do      the line itself
    t       the clock in milliseconds
    mode    the controller's mode
    status  the controller's words for the player
    position  the game the controller follows (notation)
    leds    {square: "rrggbb"} of every lit square, decoded from the strip
    strip   the strip buffer as hex: the very bytes sent to the LEDs
    told    (when the board decided its own action) that action as a whole,
            in notation and in words, said once before its steps
    replay  (after 'next') what the last replay step did
    analysis  (after 'next', with --replay) the panel's analysis of that step
    error   (only when the line could not be done: a square taken...)
    (show and help write a record and do nothing; quit ends the script)
  text: the board drawn as in text mode, under a "line N: ..." header, after
    the error, the replay step and its analysis (as text mode says them).

The whole script is read and checked before anything runs: a line that
cannot be read stops it with the file, the line and the reason.
"""

import json

from attila_sim import actions
from attila_sim.table import TableError


def record(rig, number, text, error=None):
    """The JSON-ready record of the board after a line."""
    leds = rig.colours()
    names = rig.layout.names
    out = {
        "line": number,
        "do": text,
        "t": rig.now,
        "mode": rig.mode_name(),
        "status": rig.status(),
        "position": rig.position(),
        "leds": {
            names[i]: "%02x%02x%02x" % tuple(leds[i])
            for i in range(rig.layout.size)
            if any(leds[i])
        },
        "strip": bytes(rig.shown()).hex(),
    }
    told = rig.heard.unread()
    if told:
        out["told"] = told
    if rig.said:
        out["replay"] = rig.said
        if rig.review is not None:
            out["analysis"] = rig.review_lines(wait=True)
    if error:
        out["error"] = error
    return out


def run(rig, lines, out, fmt="json", source="script"):
    """Carry out a script; returns 0, or 1 when a line could not be done."""
    from attila_sim.text import HELP, render

    todo = actions.parse_lines(rig.layout, lines, source)  # ActionError on bad input
    failed = 0
    for number, text, steps in todo:
        verb = steps[0][0]
        if verb == "quit":
            break
        error = None
        rig.said = ""
        try:
            if verb not in ("show", "help"):
                rig.do(steps)
        except TableError as e:
            error = "%s line %d: %s" % (source, number, e)
            failed = 1
        if fmt == "json":
            out.write(json.dumps(record(rig, number, text, error)) + "\n")
            continue
        out.write("line %d: %s\n" % (number, text))
        if error:
            out.write("error: %s\n" % error)
        if verb == "help":
            out.write(HELP + "\n")
        for line in rig.heard.unread():  # the board's own action, as text mode says it
            out.write(line + "\n")
        if rig.said:  # what the replay step did, and its analysis, as text mode says them
            out.write(rig.said + "\n")
            if rig.review is not None:
                for line in rig.review_lines(wait=True):
                    out.write(line + "\n")
        out.write("\n".join(render(rig, colour=False)) + "\n\n")
    return failed
