"""Online, what the board says beyond the game: a second board for a side
already taken (told on every board, not played on until it leaves), an
UNDO refused (in words), why the hint's card was given up."""

from online_kit import CODE, Broker, Side, play, run

from attila.game.notation import log
from attila.online.party import REFUSED_MS, Party
from attila.online.seats import Seats, is_id
from attila.online.words import UNDONE
from attila.opponent.chooser import Chooser
from attila.play.modes import GAME_OVER
from attila.play.presses import BUTTON_MENU, BUTTON_UNDO
from attila.play.plan import first_action
from attila.saves.store import MemoryStore

TWIN = "another board plays the Huns in this room: not played on until one of the two leaves it"
CROWD = "two boards play the Huns in this room: not played on until one of the two leaves it"


def two(broker=None):
    broker = broker or Broker()
    r, h = Side(0, broker), Side(1, broker)
    broker.connect(r.party, 0)
    broker.connect(h.party, 0)
    return broker, r, h


def test_each_board_has_an_id_of_its_own_kept_with_the_game_number():
    store = MemoryStore()
    p = Party(CODE, 1, store)
    assert is_id(p.id) and store.text == "attila-online 1\nroom castle\ngame 1\nid %s\n" % p.id
    again = Party(CODE, 1, store)
    assert again.id == p.id and again.client_id() == p.client_id()
    assert p.client_id() == "attila-castle-H-" + p.id
    other = Party(CODE, 1, MemoryStore())
    assert other.id != p.id and other.client_id() != p.client_id()


def test_a_second_board_for_a_side_taken_is_told_on_every_board():
    broker, r, h = two()
    now = play([r, h], broker, 0, rounds=3)
    before = log(r.c.game)
    h2 = Side(1, broker)  # flashed for the Huns too, by mistake
    broker.connect(h2.party, now)
    now = run([r, h, h2], broker, now, 700)
    for s in (h, h2):
        assert s.c.status().endswith("(" + TWIN + ")"), s.c.status()
    assert r.c.status().endswith("(" + CROWD + ")"), r.c.status()
    # Neither Huns' board sends an action meanwhile: the Romans' board waits.
    sent = len(broker.sent)
    for s in (h, h2):
        if s.c.game.side == 1 and not s.c.busy() and s.c.mode == 0:
            now = s.carry_out(first_action(s.c.game), now)
    now = run([r, h, h2], broker, now, 1000)
    assert not [t for t, _ in broker.sent[sent:] if t.endswith("/act")]
    assert log(r.c.game) == before
    # The second one leaves (its will, as the broker sends it): the game goes on.
    broker.drop(h2.party, now)
    now = run([r, h], broker, now, 700)
    assert TWIN not in h.c.status() and CROWD not in r.c.status(), (h.c.status(),
                                                                     r.c.status())
    play([r, h], broker, now)
    assert r.c.mode == GAME_OVER and h.c.mode == GAME_OVER and log(r.c.game) == log(h.c.game)


def test_a_board_hears_its_own_at_back_without_seeing_a_twin():
    broker, r, h = two()
    now = run([r, h], broker, 0, 700)
    # Its own `at`, retained, as it finds it after a restart with its store.
    h_again = Side(1, broker, party_store=h.party_store)
    broker.drop(h.party, now, will=False)
    broker.connect(h_again.party, now)
    now = run([r, h_again], broker, now, 700)
    assert h_again.party.seats.twin == "" and TWIN not in h_again.c.status()
    assert h_again.party.counts == [0, 0, 0, 0, 0]


def test_the_seats_follow_at_and_off():
    s = Seats("00000001")
    assert not s.ours(True, "00000001")  # ours, sent back
    assert s.ours(True, "00000002") and s.twin == "00000002"
    assert not s.ours(False, "00000003") and s.twin == "00000002"  # another's off
    assert s.ours(False, "00000002") and s.twin == ""
    assert s.theirs(True, "0000000a") and s.them == "0000000a"
    assert s.theirs(True, "0000000b") and s.crowd == "0000000b"
    assert s.theirs(False, "0000000a") and (s.them, s.crowd) == ("0000000b", "")
    assert not s.theirs(False, "0000000b") and s.them == ""
    assert s.theirs(True, "") and s.them == "-"  # a board that gives no id


def test_an_undo_refused_online_says_why_in_words():
    broker, r, h = two()
    now = run([r, h], broker, 0, 600)
    now = r.carry_out("@c2", now)
    now = run([r, h], broker, now, 700)
    r.press(BUTTON_UNDO, now)
    now = run([r, h], broker, now, 100)
    assert log(r.c.game) == "@c2" and r.c.steps == []
    assert r.c.painter.sign  # the two red flashes, as before
    assert r.c.status() == "Huns (their board): thinking... (%s)" % UNDONE, r.c.status()
    assert UNDONE == "UNDO: both boards have this action: it cannot be taken back online"
    now = run([r, h], broker, now, REFUSED_MS)
    assert UNDONE not in r.c.status(), r.c.status()
    # Said until the game changes, too: the Huns' action carried out.
    r.press(BUTTON_UNDO, now)
    now = run([r, h], broker, now, 100)
    assert UNDONE in r.c.status()
    now = h.carry_out("@c2", now)  # the Romans' action, on the Huns' board
    now = run([r, h], broker, now, 700)
    now = h.carry_out("@e4", now)
    now = run([r, h], broker, now, 1500)
    assert r.shown() == "@e4" and UNDONE in r.c.status()
    now = r.carry_out("@e4", now)
    now = run([r, h], broker, now, 700)
    assert UNDONE not in r.c.status(), r.c.status()


class Noted(Chooser):
    """A planner whose card failed for this hint."""

    def start(self, game, now_ms, level=None):
        self.note = "card: block 7 unreadable: the board searches this turn"
        self.action = first_action(game)
        return True

    def result(self):
        return self.action

    def take_note(self):
        note, self.note = self.note, ""
        return note


def test_why_the_card_was_given_up_is_said_online():
    broker = Broker()
    r, h = Side(0, broker, planner=Noted()), Side(1, broker)
    broker.connect(r.party, 0)
    broker.connect(h.party, 0)
    now = run([r, h], broker, 0, 600)
    r.press(BUTTON_MENU, now)  # a hint
    now = run([r, h], broker, now, 700)
    assert "card: block 7 unreadable: the board searches this turn" in r.c.status(), \
        r.c.status()
    assert r.c.plan.opponent.take_note() == ""  # said once
