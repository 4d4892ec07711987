"""The numbered log of a game as online play counts it.

Actions are numbered from 1: a placement or a whole turn each; a half turn
is not an action yet. The position key's hash is what a message carries.

Why it is built this way: docs/pages/inside/design.md (attila/online/log.py).
"""

from attila.game.notation import format_position, log, play
from attila.game.rules import SCORCH, Game


def done(game):
    """The number of whole actions in the game (a half turn not counted)."""
    n = 0
    for entry in game.history:
        text = game.describe(entry)
        if text[0] != ",":
            n += 1
    return n - 1 if game.phase == SCORCH else n


def side_of(game, number):
    """The side (0 Romans, 1 Huns) whose action `number` is."""
    return game.first ^ ((number - 1) & 1)


def key(game):
    """The position key of a game standing between two actions."""
    return "%s %d" % (format_position(game), game.tiles())


def actions(game):
    """The whole actions of the game as texts, in order ('@b1', 'b1-c3,d4')."""
    items = log(game).split()
    return items[:done(game)]


def replayed(game, number):
    """A new Game standing where `game` stood before its action `number`
    (1..done(game) + 1): its whole actions replayed onto an empty board."""
    copy = Game(game.layout, game.first, game.supply)
    for item in actions(game)[:number - 1]:
        play(copy, item)
    return copy


def before(game, number):
    """(the position key before action `number`, that action's text or '' when
    the game has no such whole action yet); number 1..done(game)+1."""
    items = actions(game)
    return key(replayed(game, number)), items[number - 1] if number <= len(items) else ""


def legal(game, text):
    """True when `text` is a legal action (placement or whole turn) for a
    Game standing between two actions; the game is left as it was."""
    n = len(game.history)
    try:
        play(game, text)
    except Exception:  # NotationError, IllegalAction, LayoutError: not an action here
        return False
    ok = game.phase != SCORCH  # a move without its scorch is half an action
    while len(game.history) > n:
        game.undo()
    return ok
