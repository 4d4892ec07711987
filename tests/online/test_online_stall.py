"""A board (the unix port: the real core, main.py and the port's network code)
whose broker stops mid-message, or takes the connection and never answers:
the board's loop goes on meanwhile (it senses the pieces and answers), it
says the broker is lost, and once the broker answers again the game goes
on where it was. The longest loop step meanwhile is a bench figure
(tools/bench/bench_online.py), not judged here."""

import pytest

from netkit import SimBoard, first_text, wait
from proxykit import Proxy
from test_online_board import BOARD, SIM, THEIRS, play
from unixboard import UnixBoard, flashed, steps

LOST = r"\(online: lost the broker at 127\.0\.0\.1:%d \(it stopped mid-message\); trying again\)"
SILENT = r"\(online: no broker at 127\.0\.0\.1:%d \(no answer in 10 s\); trying again\)"


@pytest.fixture(scope="module")
def firmware(tmp_path_factory):
    return flashed(str(tmp_path_factory.mktemp("flashed")))


@pytest.fixture
def proxy(broker):
    p = Proxy(broker.port)
    yield p
    p.close()


@pytest.fixture
def sim(broker):
    s = SimBoard(broker, SIM)
    yield s
    s.close()


@pytest.fixture
def board(proxy, firmware, tmp_path):
    b = UnixBoard(tmp_path / "board", firmware, proxy.port, BOARD)
    yield b
    b.kill()


def a_stray_comes_and_goes(board, layout):
    """A piece put on an empty square and taken off again: the board senses both."""
    free = next(i for i in range(layout.size) if not board.mask >> i & 1)
    mask = board.mask
    board.do([mask | 1 << free, mask])


def test_a_broker_that_stops_mid_message_does_not_stop_the_board(sim, board, proxy):
    board.others.append(sim)
    board.start()
    play(sim, board, stop=lambda: len(sim.c.game.history) >= 4 and sim.c.game.side == SIM)
    wait([sim], lambda: not sim.c.busy(), "the simulator ready")
    proxy.cut()  # the next message to the board: half of it, then nothing either way
    text = first_text(sim.c.game)
    sim.carry_out(text)
    proxy.wait_cut()
    # The board's loop goes on: it senses the pieces and answers while the
    # rest of the message never comes ...
    a_stray_comes_and_goes(board, sim.rig.layout)
    assert board.log() == _log(sim, -1)
    # ... says the broker is lost, and is back once the broker answers again.
    board.wait_status(LOST % proxy.port, "the broker said lost")
    a_stray_comes_and_goes(board, sim.rig.layout)
    status = board.wait_status(THEIRS, "the board showing %s" % text)
    assert proxy.connections >= 2, status
    board.do(steps(sim.rig.layout, board.mask, text))
    play(sim, board)


def test_a_broker_that_never_answers_does_not_stop_the_board(sim, board, proxy, broker):
    proxy.mute()  # it takes the connection and says nothing
    board.others.append(sim)
    board.start()
    board.wait_status(SILENT % proxy.port, "the silent broker said")
    a_stray_comes_and_goes(board, sim.rig.layout)
    assert "no answer" in board.status()
    proxy.heal()
    board.wait_status(r"^Romans \(their board\): thinking\.\.\.$", "the board online")
    play(sim, board)


def _log(sim, drop):
    """The simulator's game as notation, without its last `-drop` actions."""
    from attila.game.notation import log

    items = log(sim.c.game).split()
    return " ".join(items[:len(items) + drop])
