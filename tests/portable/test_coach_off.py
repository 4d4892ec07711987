"""A coach switched off judges nothing (a file of its own: each test file gets a
fresh MicroPython heap of 512 KB). card_9.tbl: see test_card.py.
"""

from attila.play import words  # noqa: F401 - compiled first, while the heap is whole (unix: 512 KB)
from attila.play.coach import KEPT, QUIET, Coach
from attila.play.controller import Controller
from attila.play.modes import PLAY
from test_card import NINE, Card, Disk, answers
from test_card_play import _game
from test_coach import _turns

from attila.game.rules import MOVE


def test_a_coach_switched_off_judges_nothing():
    card = Card(Disk(), NINE)
    coach = Coach(card, True)
    c = Controller(NINE, coach=coach)
    c.mode = PLAY
    for mover, other, scorched, value in answers():
        game = _game(mover, other, scorched)
        if game.phase != MOVE or not value:
            continue
        win, _lose = _turns(card, game)
        if win is None:
            continue
        verdicts = []
        for on in (False, True):
            coach.on = on
            c.game = game
            coach._seen = len(game.history)
            game.move(win[0], win[1])
            coach.after(c.game, c.now, c.computer)
            game.scorch(win[2])
            coach.after(c.game, c.now, c.computer)
            verdicts.append(coach.verdict)
            game.undo()
            game.undo()
            coach.after(c.game, c.now, c.computer)
        assert verdicts == [QUIET, KEPT], verdicts
        return
    raise AssertionError("no won position in the card's answers")
