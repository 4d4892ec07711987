"""The opponent that plays from the card (attila.opponent.card), on MicroPython too.

card_9.tbl and card_9.txt: see test_card.py (a file of its own here: each
test file gets a fresh MicroPython heap of 512 KB).
"""

import check
from test_card import NINE, Card, Disk, answers, whole
from attila.opponent.card import BLOCK
from attila.opponent.chooser import action_text

from attila.game.rules import MOVE, SCORCH, Game


def _game(mover, other, scorched, layout=NINE):
    game = Game(layout)
    game.knights = [mover, other]
    game.scorched = scorched
    game.settle(MOVE)
    return game


def _won_games():
    """The won positions of play of the small layout's answers, as games."""
    for mover, other, scorched, value in answers():
        game = _game(mover, other, scorched)
        if game.phase == MOVE and value:
            yield game


def test_the_opponent_plays_a_winning_turn_and_holds_out_when_lost():
    from attila.opponent.levels import STRONG
    from attila.opponent.planner import Planner

    card = Card(Disk(), NINE)
    won = lost = 0
    p = Planner(STRONG, 2000, card=card)
    p.node_budget = 64
    for mover, other, scorched, value in answers():
        game = _game(mover, other, scorched)
        if game.phase != MOVE:
            continue
        text = p.decide(game, lambda: 0)
        if value:
            won += 1
            assert p.nodes == 0, text  # from the card, no search
            a, rest = text.split("-")
            b, c = rest.split(",")
            game.move(NINE.index(a), NINE.index(b))
            game.scorch(NINE.index(c))
            assert game.phase != MOVE or not card.won(game.knights[game.side],
                                                       game.knights[game.side ^ 1],
                                                       game.scorched), text
        else:
            lost += 1
            assert text  # the search's
    assert won > 100 and lost > 10, (won, lost)


def test_a_dead_card_is_dropped_after_three_failing_decisions_in_a_row():
    from attila.opponent.levels import STRONG
    from attila.opponent.planner import Planner

    data = bytearray(whole())
    for k in range(2, 27):
        data[k * BLOCK] ^= 1  # every block but the head, the first and the last
    data = bytes(data)
    p = Planner(STRONG, 2000)
    p.node_budget = 64
    p.card = Card(Disk(data), NINE)
    notes = []
    for game in _won_games():
        if p.card is None:
            break
        assert p.decide(game, lambda: 0)  # from the card or from the search
        note = p.take_note()
        if note:
            notes.append(note)
    assert p.card is None and len(notes) == 3, notes
    for note in notes[:2]:
        assert note.startswith("card: attila.tbl: block "), note
        assert note.endswith(" is damaged or out of place: the board searches this turn"), note
    assert notes[2].startswith("card not used (attila.tbl: block "), notes[2]
    assert notes[2].endswith(" is damaged or out of place): the board searches"), notes[2]


def test_one_bad_block_fails_only_the_decisions_that_read_it():
    """The card stays for the session: the search decides those turns, with a note."""
    from attila.opponent.levels import STRONG
    from attila.opponent.planner import Planner

    data = bytearray(whole())
    data[5 * BLOCK] ^= 1
    disk = Disk(bytes(data))
    p = Planner(STRONG, 2000)
    p.node_budget = 64
    p.card = card = Card(disk, NINE)
    searched = carded = 0
    for game in _won_games():
        assert p.decide(game, lambda: 0)
        assert p.card is card
        note = p.take_note()
        if note:
            assert note == ("card: attila.tbl: block 5 is damaged or out of place: "
                            "the board searches this turn"), note
            assert p.nodes > 0
            searched += 1
        else:
            carded += 1
    assert searched >= 1 and carded > 100, (searched, carded)


def _steps(p, game, card):
    """Start and step p until decided as the board's loop does; (steps, a step read a
    block and decided). Every step reads at most CARD_READS blocks, start() none."""
    from attila.opponent.planner import CARD_READS

    before = card.reads
    p.start(game, 0)
    assert card.reads == before  # start() reads nothing: the steps do
    steps = 0
    while True:
        before = card.reads
        steps += 1
        done = p.step(10 * steps)
        read = card.reads - before
        assert read <= CARD_READS
        if done:
            return steps, read > 0


def test_the_winning_turn_is_found_a_few_lookups_a_loop_step():
    """In the board's loop the card is asked at most CARD_READS blocks a step, and
    the step that reads a block neither tells the turn nor sets up a search."""
    from attila.opponent.levels import STRONG
    from attila.opponent.planner import Planner

    card = Card(Disk(), NINE)
    p = Planner(STRONG, 2000, card=card)
    steps = found = lost = scorched = 0
    for mover, other, scorched_sq, value in answers():
        game = _game(mover, other, scorched_sq)
        if game.phase != MOVE:
            continue
        n, read_and_decided = _steps(p, game, card)
        assert not read_and_decided
        steps += n
        text = action_text(NINE, p.result())
        if not value:
            lost += 1
            assert p.nodes > 0, text  # the search's, set up after the lookup's step
            continue
        a, rest = text.split("-")
        b, c = rest.split(",")
        game.move(NINE.index(a), NINE.index(b))
        if game.phase == SCORCH:  # the move made: the card's scorch, step by step too
            n, read_and_decided = _steps(p, game, card)
            assert not read_and_decided
            text = action_text(NINE, p.result())
            assert p.nodes == 0 and text.startswith(a + "-" + b + ","), text
            c = text.split(",")[1]  # the card's own: it keeps the win as well
            scorched += 1
        game.scorch(NINE.index(c))
        assert game.phase != MOVE or not card.won(game.knights[game.side],
                                                   game.knights[game.side ^ 1], game.scorched)
        found += 1
    assert found > 100 and steps > found and lost > 10 and scorched > 100, (
        found, steps, lost, scorched)


def test_a_hint_comes_from_the_card_whatever_the_opponents_level():
    from attila.opponent.levels import BEGINNER
    from attila.opponent.planner import Planner
    from attila.play.plan import Plan

    card = Card(Disk(), NINE)
    plan = Plan(Planner(BEGINNER, 2000, card=card))
    hinted = 0
    for game in _won_games():
        now = 0
        if not plan.start(game, now, True):
            while not plan.step(now):
                now += 10
        assert plan.opponent.nodes == 0  # no search: the card's
        me1 = game.knights[game.side] ^ (1 << plan.src | 1 << plan.dst)
        assert not card.won(game.knights[game.side ^ 1], me1, game.scorched | 1 << plan.tile)
        assert plan.opponent.level == BEGINNER  # the board's own level stays
        hinted += 1
        if hinted == 40:
            break
    assert hinted == 40


def test_the_cards_decision_allocates_nothing():
    """start() and every step of a won position's decision, card lookups and reads
    included, under heap_lock (the board's loop runs them between its frames)."""
    try:
        from micropython import heap_lock, heap_unlock
    except ImportError:
        check.skip("no micropython.heap_lock on CPython: nothing to prove")
    from attila.opponent.levels import STRONG
    from attila.opponent.planner import Planner

    card = Card(Disk(), NINE)
    p = Planner(STRONG, 2000, card=card)
    decided = 0
    for game in _won_games():
        t = 0
        heap_lock()
        try:
            p.start(game, t)
            while not p.step(t):
                t += 10
        finally:
            heap_unlock()
        assert p.card is card and p.nodes == 0, p.take_note()
        decided += 1
        if decided == 40:
            break
    assert decided == 40, decided
