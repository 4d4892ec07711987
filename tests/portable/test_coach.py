"""The coach (attila.play.coach): did the player's turn keep the win? Asked of the card.

card_9.tbl and card_9.txt: see test_card.py.
"""

from attila.play import words  # noqa: F401 - compiled first, while the heap is whole (unix: 512 KB)
from attila.play.coach import KEPT, QUIET, THROWN, Coach
from attila.play.controller import Controller
from attila.play.modes import PLAY
from test_card import NINE, Card, Disk, answers
from test_card_play import _game

from attila.game.rules import MOVE


def _turns(card, game):
    """(a winning turn, a turn that throws the win) of a won position, as (a, b, c)."""
    side = game.side
    me = game.knights[side]
    opp = game.knights[side ^ 1]
    free = game.free()
    win = lose = None
    for a in range(NINE.size):
        if not me >> a & 1:
            continue
        for b in range(NINE.size):
            if not NINE.knight[a] & free >> b & 1 or not NINE.knight[a] >> b & 1:
                continue
            me1 = me ^ (1 << a | 1 << b)
            free1 = free ^ (1 << a | 1 << b)
            for c in range(NINE.size):
                if free1 >> c & 1:
                    if card.won(opp, me1, game.scorched | 1 << c):
                        lose = lose or (a, b, c)
                    else:
                        win = win or (a, b, c)
    return win, lose


def test_the_coach_says_whether_a_turn_kept_the_win():
    card = Card(Disk(), NINE)
    seen = {KEPT: 0, THROWN: 0, QUIET: 0}
    coach = Coach(card)
    c = Controller(NINE, coach=coach)
    c.mode = PLAY
    for mover, other, scorched, value in answers():
        game = _game(mover, other, scorched)
        if game.phase != MOVE:
            continue
        win, lose = _turns(card, game)
        for turn, want in ((win, KEPT), (lose, THROWN if value else QUIET)):
            if turn is None:
                continue
            c.game = game
            coach._seen = len(game.history)
            coach.after(c.game, c.now, c.computer)  # the position as it stands: nothing judged
            assert coach.verdict == QUIET
            game.move(turn[0], turn[1])
            coach.after(c.game, c.now, c.computer)
            game.scorch(turn[2])
            c.now = 1000
            coach.after(c.game, c.now, c.computer)
            if not value:
                want = QUIET  # lost before the turn: nothing to say
            assert coach.verdict == want, (turn, value)
            seen[want] += 1
            if want:
                words = "kept the win" if want == KEPT else "threw the win away"
                assert "(coach: that turn %s)" % words in c.status(), c.status()
                buf = bytearray(3 * NINE.size)
                assert coach.paint(buf, 1100)  # lit: the turn's squares
                colour = (0, 255, 0) if want == KEPT else (255, 0, 0)
                for sq in turn:
                    assert tuple(buf[3 * sq:3 * sq + 3]) == colour
                assert coach.paint(buf, 1000 + 1499) and not coach.paint(buf, 1000 + 1500)
            game.undo()
            game.undo()
            coach.after(c.game, c.now, c.computer)
            assert coach.verdict == QUIET  # an undo clears it
    assert seen[KEPT] > 20 and seen[THROWN] > 10 and seen[QUIET] > 0, seen


class _Flaky(Disk):
    """A card whose reads fail while `down` is set (a bad read, a hiccup)."""

    down = False

    def readblocks(self, n, buf):
        if self.down:
            raise OSError(5)
        Disk.readblocks(self, n, buf)


def test_a_failing_lookup_silences_that_turn_only():
    disk = _Flaky()
    card = Card(disk, NINE)
    coach = Coach(card)
    c = Controller(NINE, coach=coach)
    c.mode = PLAY
    judged = 0
    for mover, other, scorched, value in answers():
        game = _game(mover, other, scorched)
        if game.phase != MOVE or not value:
            continue
        disk.down = False
        win, _lose = _turns(card, game)
        if win is None:
            continue
        for down in (True, False):
            disk.down = down
            card._at = -1  # (the block in hand would answer without a read)
            c.game = game
            coach._seen = len(game.history)
            coach.after(c.game, c.now, c.computer)
            game.move(win[0], win[1])
            coach.after(c.game, c.now, c.computer)
            game.scorch(win[2])
            coach.after(c.game, c.now, c.computer)
            assert coach.verdict == (QUIET if down else KEPT)
            assert coach.card is card
            game.undo()
            game.undo()
            coach.after(c.game, c.now, c.computer)
        judged += 1
        if judged == 5:
            break
    assert judged == 5
