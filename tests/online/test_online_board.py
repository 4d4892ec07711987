"""A board (MicroPython's unix port: the real core, main.py and the port's
online.py with umqtt) plays the simulator through a real mosquitto, and
comes back after a power cut with the game where it was."""

import re
import time

import pytest

from attila.game.rules import OVER

from netkit import SimBoard, first_text, wait
from unixboard import UnixBoard, flashed, steps

SIM = 0  # the simulator plays the Romans (they place first), the board the Huns
BOARD = 1
THEIRS = r"^Romans \(their board\): (put a knight on|lift the knight on) [a-z]\d"


@pytest.fixture(scope="module")
def firmware(tmp_path_factory):
    return flashed(str(tmp_path_factory.mktemp("flashed")))


@pytest.fixture
def sim(broker):
    s = SimBoard(broker, SIM)
    yield s
    s.close()


@pytest.fixture
def board(broker, firmware, tmp_path):
    b = UnixBoard(tmp_path / "board", firmware, broker.port, BOARD)
    yield b
    b.kill()


def sim_turn(sim, board):
    """The simulator's player acts; the board shows it, says it, and its player carries it out."""
    text = first_text(sim.c.game)
    since = len(board.lines)
    sim.carry_out(text)
    status = board.wait_status(THEIRS, "the board showing %s" % text)
    said = board.wait(lambda l: l.startswith("Romans: "), "the action said", since=since)
    assert said.startswith("Romans: %s (" % text), said
    lines = board.lines[since:]
    shown = [k for k, line in enumerate(lines) if re.search(THEIRS, line)]
    assert shown and lines.index(said) < shown[0], lines  # said whole before the steps
    first = text[1:] if text[0] == "@" else text.split("-")[0]
    assert status.endswith(first), (status, text)
    assert board.lit(first)  # lit, as the computer's action is
    board.do(steps(sim.rig.layout, board.mask, text))


def board_turn(sim, board):
    """The board's player acts; the simulator shows it and its player carries it out."""
    board.wait_status(r"^Huns: (place a knight|lift a knight)", "the board's player to act")
    text = first_text(sim.c.game)
    board.do(steps(sim.rig.layout, board.mask, text))
    wait([sim], lambda: sim.shown() == text, "the simulator showing %s" % text)
    sim.carry_out(text)


def play(sim, board, stop=None):
    while sim.c.game.phase != OVER:
        if stop is not None and stop():
            return
        if sim.c.game.side == SIM:
            wait([sim], lambda: not sim.c.busy(), "the simulator ready")
            sim_turn(sim, board)
        else:
            board_turn(sim, board)
    end = board.wait_status(r"^Game over: ", "the board's game over")
    assert end == sim.rig.status(), (end, sim.rig.status())
    assert board.log() == " ".join(board_log(sim))


def board_log(sim):
    from attila.game.notation import log

    return [log(sim.c.game)]


def test_a_board_plays_the_simulator(sim, board):
    board.others.append(sim)
    board.start()
    assert board.wait_status(r"^Romans \(their board\): thinking\.\.\.$")
    play(sim, board)


def test_a_board_comes_back_after_a_power_cut(sim, board):
    board.others.append(sim)
    board.start()
    play(sim, board, stop=lambda: len(sim.c.game.history) >= 9)
    board.kill()
    wait([sim], lambda: "the Huns' board offline" in sim.rig.status(), "the board seen offline")
    board.start()
    board.wait_status(r"^Saved game found \(.*The board matches it", "the saved game")
    board.press("menu")
    play(sim, board)


def test_a_board_reconnects_when_the_broker_comes_back(sim, board, broker):
    board.others.append(sim)
    board.start()
    play(sim, board, stop=lambda: len(sim.c.game.history) >= 8 and sim.c.game.side == BOARD)
    broker.kill()
    board.wait_status(r"\(online: lost the broker at 127\.0\.0\.1:\d+ .*; trying again\)|"
                      r"\(online: no broker at 127\.0\.0\.1:\d+ .*; trying again\)",
                      "the board seeing the broker gone")
    # The board's player acts meanwhile: kept on the board, sent once the broker is back.
    board_turn_offline = first_text(sim.c.game)
    board.do(steps(sim.rig.layout, board.mask, board_turn_offline))
    broker.start()  # without persistence: what it retained is gone
    wait([sim], lambda: sim.shown() == board_turn_offline, "the simulator showing %s"
         % board_turn_offline)
    sim.carry_out(board_turn_offline)
    play(sim, board)


def test_a_board_takes_no_replayed_tampered_or_forged_message(sim, board, broker):
    import paho.mqtt.client as mqtt

    from attila.online.message import ACT, Message

    heard = []
    spy = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="spy",
                      protocol=mqtt.MQTTv311)
    spy.on_message = lambda client, userdata, msg: heard.append(bytes(msg.payload))
    spy.connect("127.0.0.1", broker.port)
    spy.subscribe("attila/castle/R/act", qos=1)
    spy.loop_start()
    try:
        board.others.append(sim)
        board.start()
        play(sim, board, stop=lambda: len(sim.c.game.history) >= 6 and sim.c.game.side == SIM)
        wait([sim], lambda: heard, "a Romans' action heard")
        status = board.wait_status(r"^Romans \(their board\): thinking\.\.\.$")
        old = heard[-1]
        words = old.split(b" ")
        words[7] = b"@e4" if words[7] != b"@e4" else b"@d4"  # another action, the same signature
        forged = Message(ACT, "castle", 0, 1, int(words[5]) + 1, "0" * 16, "@a1")
        for payload in (old, b" ".join(words), forged.text("not-the-secret").encode(),
                        forged.body().encode()):
            spy.publish("attila/castle/R/act", payload, qos=1).wait_for_publish(5)
        end = time.monotonic() + 30
        while board.ask("counts") != "1 unsigned, 2 forged, 1 replayed":
            assert time.monotonic() < end, board.ask("counts")
        assert board.status() == status  # nothing changed on the board
        play(sim, board)
    finally:
        spy.loop_stop()
        spy.disconnect()
