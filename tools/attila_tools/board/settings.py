"""The settings `attila flash` writes into the profile it copies to the board.

    attila flash --computer H --level normal --card 1
    make flash COMPUTER=H LEVEL=normal CARD=1

The profile file named with --profile is never changed: the board gets a
copy (build/flash/profile.json) with the profile's `game` section set as
asked (boards/profiles/README.md) and, with --card 1, an `sdcard` section
with the controller board's microSD pins (docs/pages/build/card.md) when
the profile has none; --card 0 takes the section out (a board with an empty
socket). The copy is checked as the board reads it before anything is
copied, so a setting the profile cannot take is refused with the reason.
"""

import json
import os

from attila.errors import AttilaError
from attila.opponent.levels import LEVEL_NAMES

from attila_tools.board import build
from attila_tools.errors import UsageError

PROFILE_COPY = "profile.json"  # in the build folder
CONTROLLER = "controller.json"  # the ordered controller board's profile: its card socket


def side(text):
    """--computer: R, H (either case) or none."""
    word = text.strip()
    if word.upper() in ("R", "H"):
        return word.upper()
    if word.lower() in ("none", "no", "0", ""):
        return "none"
    raise ValueError(text)


def card(text):
    """--card: 1 (a card is in the board's socket) or 0 (none)."""
    word = text.strip().lower()
    if word in ("1", "yes", "on", "true"):
        return True
    if word in ("0", "no", "off", "false"):
        return False
    raise ValueError(text)


side.__name__ = "side (R, H or none)"
card.__name__ = "card (1 or 0)"


def add_arguments(p):
    """The options on `attila flash` (the Makefile passes COMPUTER, LEVEL and CARD)."""
    p.add_argument("--computer", type=side, metavar="R|H|none",
                   help="the side the board plays itself (none: two players)")
    p.add_argument("--level", choices=LEVEL_NAMES,
                   help="the board's strength: %s" % ", ".join(LEVEL_NAMES))
    p.add_argument("--card", type=card, nargs="?", const=True, metavar="1|0",
                   help="1: the board reads the solved game from a microSD card in its socket "
                        "(adds the controller board's card pins to a profile without them); "
                        "0: no card")


def asked(args):
    """True when any of the options was given."""
    return any(getattr(args, k, None) is not None for k in ("computer", "level", "card"))


def card_pins(data):
    """The controller board's microSD pins (its profile's, boards/profiles/controller.json,
    held to the board's copper by tests/tools/board/test_flash_settings.py), spelled as
    the profile's port names them."""
    with open(os.path.join(build.PROFILES, CONTROLLER)) as f:
        pins = dict(json.load(f)["sdcard"])
    if data.get("port") == "circuitpython":
        del pins["spi"]  # CircuitPython finds the bus from the pins
        pins = {k: "GP%d" % v for k, v in pins.items()}
    return pins


def apply(data, computer=None, level=None, with_card=None, where="profile"):
    """The profile's JSON object with the settings given (None: as it is)."""
    from attila import profile as profiles

    data = json.loads(json.dumps(data))  # a copy, nested sections too
    if computer is not None or level is not None:
        game = dict(data.get("game") or {})
        if computer is not None:
            game["computer"] = computer
        if level is not None:
            game["level"] = level
        data["game"] = game
    if with_card is False:
        data.pop("sdcard", None)
        if (data.get("game") or {}).get("coach"):
            data["game"] = dict(data["game"], coach=False)  # the coach reads the card
    elif with_card and "sdcard" not in data:
        prof = profiles.parse(dict(data, game={}), where)
        model = prof.model.lower()
        if prof.chip not in ("rp2040", "rp2350") or "pico" not in model:
            raise UsageError("%s has no \"sdcard\" section and is not for a Raspberry Pi Pico: "
                             "add one with your card's pins (docs/pages/build/card.md)" % where)
        data["sdcard"] = card_pins(data)
    return data


def describe(data):
    """What the settings make of the board, in one line."""
    game = data.get("game") or {}
    who = game.get("computer", "none")
    if who == "none":
        text = "two players (the board plays no side)"
    else:
        text = "the board plays the %s, level %s" % (
            "Romans" if who == "R" else "Huns", game.get("level", "strong"))
    sd = data.get("sdcard")
    if sd:
        text += "; the solved game from the microSD card (%s)" % ", ".join(
            "%s %s" % (k, sd[k]) for k in ("sck", "mosi", "miso", "cs"))
    else:
        text += "; no microSD card"
    return text


def board_profile(profile_path, args, out_dir):
    """The profile file to copy: `profile_path` itself when no setting is asked,
    else its copy with the settings in `out_dir` (checked as the board reads it)."""
    from attila import profile as profiles

    if not asked(args):
        return profile_path
    options = " ".join("--%s %s" % (k, {True: 1, False: 0}.get(v, v))
                       for k, v in (("computer", args.computer), ("level", args.level),
                                    ("card", args.card)) if v is not None)
    where = "%s with %s" % (os.path.relpath(profile_path), options)
    try:
        with open(profile_path) as f:
            data = json.load(f)
    except (OSError, ValueError):
        profiles.load(profile_path)  # the profile's own error, with its file name
        raise
    try:
        data = apply(data, args.computer, args.level, args.card, where)
        profiles.loads(json.dumps(data), where)
    except AttilaError as e:
        raise UsageError(str(e))
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, PROFILE_COPY)
    with open(path, "w") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
    return path


def for_board(args, profile_path, prof, out_dir, say):
    """(profile file to copy, its Profile): the profile with the settings
    written in, said in one line, or the profile itself without them."""
    from attila import profile as profiles

    path = board_profile(profile_path, args, out_dir)
    if path == profile_path:
        return path, prof
    with open(path) as f:
        data = json.load(f)
    say("attila flash: profile %s as %s: %s" % (
        os.path.relpath(profile_path), os.path.relpath(path), describe(data)))
    return path, profiles.load(path)
