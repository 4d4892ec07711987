"""Two boards play one game through a broker (in memory here; tests/online has
the real one): signed, numbered, resumable, never played on when they differ."""

from online_kit import CODE, Broker, Side, play, run

from attila.game.notation import log
from attila.online import log as numbered
from attila.online.message import ACT, Message
from attila.online.party import COUNT_NAMES, Party
from attila.online.words import counted
from attila.play.modes import GAME_OVER
from attila.play.presses import BUTTON_UNDO
from attila.saves.store import MemoryStore


def two(broker=None):
    broker = broker or Broker()
    r, h = Side(0, broker), Side(1, broker)
    broker.connect(r.party, 0)
    broker.connect(h.party, 0)
    return broker, r, h


def test_a_whole_game_ends_the_same_on_both_boards():
    broker, r, h = two()
    play([r, h], broker, 0)
    assert r.c.mode == GAME_OVER and h.c.mode == GAME_OVER
    assert log(r.c.game) == log(h.c.game)
    assert r.c.game.winner == h.c.game.winner
    assert r.party.counts == [0, 0, 0, 0, 0] and h.party.counts == [0, 0, 0, 0, 0]
    n = numbered.done(r.c.game)
    assert r.party.taken + h.party.taken == n


def test_the_remote_action_is_shown_and_said_once():
    broker, r, h = two()
    now = run([r, h], broker, 0, 600)
    assert r.c.status() == "Romans: place a knight on a lit square (knight 1 of 3)"
    assert h.c.status() == "Romans (their board): thinking...", h.c.status()
    now = r.carry_out("@c2", now)
    now = run([r, h], broker, now, 700)
    assert h.shown() == "@c2"
    assert h.party.told == "Romans: @c2 (a knight on c2)" and h.party.told_n == 1
    assert h.c.status() == "Romans (their board): put a knight on c2", h.c.status()
    # The Huns' board shows it until its player has put the knight there.
    now = h.carry_out("@c2", now)
    now = run([r, h], broker, now, 700)
    assert log(h.c.game) == "@c2" and h.c.status().startswith("Huns: place a knight")
    assert h.party.told_n == 1


def test_an_action_both_boards_have_is_not_taken_back():
    broker, r, h = two()
    now = run([r, h], broker, 0, 600)
    now = r.carry_out("@c2", now)
    now = run([r, h], broker, now, 700)
    r.press(BUTTON_UNDO, now)
    now = run([r, h], broker, now, 700)
    assert log(r.c.game) == "@c2" and r.c.steps == []


def test_a_board_that_comes_back_gets_what_it_missed():
    broker, r, h = two()
    now = play([r, h], broker, 0, rounds=4)  # a few actions
    broker.drop(h.party, now)
    assert h.c.status().endswith("(online: no broker at test:1883; trying again)"), h.c.status()
    now = run([r, h], broker, now, 600)
    assert "the Huns' board offline: waiting" in r.c.status(), r.c.status()
    now = run([r, h], broker, now, 120000)
    assert "the Huns' board offline for 2 min: waiting" in r.c.status(), r.c.status()
    # The Romans act meanwhile (if it is their turn) ...
    if r.c.game.side == 0:
        now = r.carry_out(_first(r), now)
        now = run([r, h], broker, now, 700)
    # ... and the Huns' board, back, shows it: the retained action.
    broker.connect(h.party, now)
    play([r, h], broker, now)
    assert log(r.c.game) == log(h.c.game) and r.c.mode == GAME_OVER and h.c.mode == GAME_OVER


def _first(side):
    from online_kit import first_text

    return first_text(side.c.game)


def test_forged_replayed_out_of_order_and_malformed_change_nothing():
    broker, r, h = two()
    now = run([r, h], broker, 0, 600)
    now = r.carry_out("@c2", now)
    now = run([r, h], broker, now, 700)
    act = [p for t, p in broker.sent if t == "attila/castle/R/act"][-1]
    key, _ = numbered.before(h.c.game, 2)
    before = log(h.c.game), h.c.status()
    topic = "attila/castle/R/act"
    deliver = lambda payload: h.party.receive(topic, payload, now)
    assert not deliver(act)  # replayed: taken already
    assert not deliver(act.replace(b"@c2", b"@c3"))  # tampered
    forged = Message(ACT, "castle", 0, 1, 3, "0" * 16, "@a1").text("wrong-secret").encode()
    assert not deliver(forged)
    early = Message(ACT, "castle", 0, 1, 5, "0" * 16, "@a1").text("7fk2m9xq").encode()
    assert not deliver(early)
    assert not deliver(b"A1 act castle R 1 3 0000000000000000 @a1")
    assert not deliver(b"\xff\xfe")
    now = run([r, h], broker, now, 700)
    assert (log(h.c.game), h.c.status()) == before
    assert h.party.counts == [1, 1, 2, 1, 1], h.party.counts
    assert counted(h.party) == "1 malformed, 1 unsigned, 2 forged, 1 replayed, 1 out of order"
    assert COUNT_NAMES[2] == "forged"


def test_a_disagreement_is_named_on_both_boards_and_not_played_on():
    broker = Broker()
    r = Side(0, broker)
    h = Side(1, broker, store=MemoryStore())
    broker.connect(r.party, 0)
    broker.connect(h.party, 0)
    now = play([r, h], broker, 0, rounds=8)
    # The Huns' board loses its game (a save put back from elsewhere, say):
    # the Romans' next action does not apply to the position it has.
    h2 = Side(1, broker, store=MemoryStore(), party_store=h.party_store)
    broker.drop(h.party, now, will=False)
    broker.connect(h2.party, now)
    now = run([r, h2], broker, now, 2000)
    assert "the Romans' board" in h2.c.status() and "not played on" in h2.c.status(), \
        h2.c.status()
    assert "the Huns' board" in r.c.status() and "not played on" in r.c.status(), r.c.status()
    assert numbered.done(h2.c.game) == 0


def test_a_new_game_after_the_end_has_the_next_number():
    broker, r, h = two()
    now = play([r, h], broker, 0)
    assert r.party.number == h.party.number == 1
    # The Romans clear their board and start again ...
    r.sense(0, now)
    for s in (r, h):
        s.press(1, now)  # MENU in GAME_OVER: clear the board
    now = run([r, h], broker, now, 100)
    r.sense(0, now)
    now = run([r, h], broker, now, 700)
    assert r.party.number == 2
    assert "the Romans' board started a new game" in h.c.status(), h.c.status()
    h.sense(0, now)
    now = run([r, h], broker, now, 700)
    assert h.party.number == 2
    assert h.party_store.text == "attila-online 1\nroom castle\ngame 2\nid %s\n" % h.party.id
    play([r, h], broker, now)
    assert log(r.c.game) == log(h.c.game)
    # The first game's retained messages were not taken for the second.
    assert r.c.mode == GAME_OVER and h.c.mode == GAME_OVER


def test_the_game_number_is_kept():
    store = MemoryStore("attila-online 1\nroom castle\ngame 7\nid 5e0b77a1\n")
    p = Party(CODE, 0, store)
    assert p.number == 7 and p.id == "5e0b77a1"
    assert p.client_id() == "attila-castle-R-5e0b77a1"
    assert Party(CODE, 0, MemoryStore("rubbish")).number == 1
    # Another room (the board flashed with another room code): its own count, the same id.
    moved = Party("tower-7fk2m9xq", 0, store)
    assert moved.number == 1 and moved.id == "5e0b77a1"
    assert store.text == "attila-online 1\nroom tower\ngame 1\nid 5e0b77a1\n"
    assert Party(CODE, 0, MemoryStore("attila-online 1\ngame 4\n")).number == 4  # (no room)
