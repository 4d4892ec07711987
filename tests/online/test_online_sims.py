"""Two simulators play whole games through a real mosquitto: the broker
killed and restarted mid-game, a simulator quit and started again on its
save, captured messages replayed, one tampered with, one sent with a wrong
secret. Every game ends as the rules say on both boards."""

import paho.mqtt.client as mqtt
import pytest

from attila.game.notation import log
from attila.game.rules import OVER
from attila.online.message import ACT, Message

from netkit import CODE, SimBoard, play, wait


@pytest.fixture
def boards(broker, tmp_path):
    made = []

    def make(side, save=None, **kw):
        b = SimBoard(broker, side, save=str(tmp_path / save) if save else None, **kw)
        made.append(b)
        return b

    yield make
    for b in made:
        b.close()


def ended(r, h):
    assert r.c.game.phase == OVER and h.c.game.phase == OVER
    assert log(r.c.game) == log(h.c.game)
    assert r.c.game.winner == h.c.game.winner
    assert r.c.status().startswith("Game over: ") and r.c.status() == h.c.status()


def test_a_whole_game(boards):
    r, h = boards(0), boards(1)
    wait([r, h], lambda: "waiting for" not in r.rig.status() + h.rig.status(), "both joined")
    play([r, h])
    ended(r, h)
    assert r.party.counts == [0] * 5 and h.party.counts == [0] * 5


def test_the_broker_dies_and_comes_back_mid_game(boards, broker):
    r, h = boards(0), boards(1)
    play([r, h], stop=lambda: len(r.c.game.history) >= 8)
    broker.kill()
    wait([r, h], lambda: not r.party.linked and not h.party.linked, "both see the broker gone")
    assert "(online: no broker at 127.0.0.1:%d; trying again)" % broker.port in r.rig.status()
    # The Romans' player acts meanwhile, when it is their turn: kept, sent later.
    if r.c.game.side == 0 and r.c.mode == 0 and not r.c.busy():
        from netkit import first_text

        r.carry_out(first_text(r.c.game))
    broker.start()  # no persistence: it lost every retained message and session
    wait([r, h], lambda: r.party.linked and h.party.linked, "both reconnected")
    play([r, h])
    ended(r, h)


def test_a_simulator_quit_mid_game_resumes_on_its_save(boards, broker, tmp_path):
    r, h = boards(0, "r.txt"), boards(1, "h.txt")
    play([r, h], stop=lambda: len(h.c.game.history) >= 10)
    position = h.rig.position()
    h.link.client.loop_stop()  # its power cut: no goodbye, the broker sends its will
    h.link.client.socket().close()
    wait([r], lambda: "the Huns' board offline" in r.rig.status(), "the Huns seen offline")
    if r.c.game.side == 0 and r.c.mode == 0:
        from netkit import first_text

        wait([r], lambda: not r.c.busy(), "the Romans' board ready")
        r.carry_out(first_text(r.c.game))
    h2 = boards(1, "h.txt")
    assert h2.rig.mode_name() == "resume" and h2.rig.position() == position
    h2.rig.do([("press", "menu", 100)])  # resume the saved game
    play([r, h2])
    ended(r, h2)


def _client(broker):
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="spy", protocol=mqtt.MQTTv311)
    heard = []
    c.on_message = lambda client, userdata, msg: heard.append((msg.topic, bytes(msg.payload)))
    c.connect("127.0.0.1", broker.port)
    c.subscribe("attila/#", qos=1)
    c.loop_start()
    return c, heard


def test_replayed_tampered_and_forged_messages_change_nothing(boards, broker):
    spy, heard = _client(broker)
    r, h = boards(0), boards(1)
    play([r, h], stop=lambda: len(r.c.game.history) >= 6)
    wait([r, h], lambda: any(t == "attila/castle/R/act" for t, _ in heard), "an action heard")
    captured = [p for t, p in heard if t == "attila/castle/R/act"]
    before = (log(h.c.game), h.c.status())
    n = len(captured)
    for p in captured:  # replayed
        spy.publish("attila/castle/R/act", p, qos=1)
    words = captured[-1].split(b" ")
    words[6] = (b"1" if words[6][:1] == b"0" else b"0") + words[6][1:]  # the position's hash
    tampered = b" ".join(words)
    spy.publish("attila/castle/R/act", tampered, qos=1)
    forged = Message(ACT, "castle", 0, 1, h.party.done + 1, "0" * 16, "@a1")
    spy.publish("attila/castle/R/act", forged.text("not-the-secret").encode(), qos=1)
    spy.publish("attila/castle/R/act", forged.body().encode(), qos=1)  # unsigned
    wait([r, h], lambda: sum(h.party.counts) >= n + 3, "the messages counted")
    assert (log(h.c.game), h.c.status()) == before
    assert h.party.counts[3] == n and h.party.counts[2] == 2 and h.party.counts[1] == 1, \
        h.party.counts
    spy.loop_stop()
    spy.disconnect()
    play([r, h])
    ended(r, h)
