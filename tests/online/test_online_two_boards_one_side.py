"""Two boards for one side of a room, through a real mosquitto: each keeps
its own connection (its client id has the board's own id), both are told
(and the other side's board too), nothing is played on until one leaves,
and then the game goes on."""

import pytest

from netkit import SimBoard, wait
from test_online_board import BOARD, SIM, play
from unixboard import UnixBoard, flashed

TWIN = "(another board plays the Huns in this room: not played on until one of the two leaves it)"
CROWD = "(two boards play the Huns in this room: not played on until one of the two leaves it)"


@pytest.fixture(scope="module")
def firmware(tmp_path_factory):
    return flashed(str(tmp_path_factory.mktemp("flashed")))


def test_a_second_board_for_the_huns_is_told_on_every_board(broker, firmware, tmp_path):
    romans = SimBoard(broker, SIM)
    huns = SimBoard(broker, BOARD, save=str(tmp_path / "huns.txt"))
    board = UnixBoard(tmp_path / "board", firmware, broker.port, BOARD)
    board.others.extend([romans, huns])
    try:
        wait([romans, huns], lambda: huns.party.presence == 1 and romans.party.presence == 1,
             "the simulators joined")
        board.start()  # the board flashed for the Huns too
        board.wait_status(r"\(another board plays the Huns in this room", "the board told")
        wait([romans, huns], lambda: huns.rig.status().endswith(TWIN)
             and romans.rig.status().endswith(CROWD), "the simulators told")
        assert board.status().endswith(TWIN), board.status()
        # Each kept its connection: no board pushed the other off the broker.
        assert huns.party.linked and "online:" not in board.status()
        huns.close()  # the simulator leaves the room: the board plays the Huns
        board.wait_status(r"^Romans \(their board\): thinking\.\.\.$", "the board playing on")
        wait([romans], lambda: CROWD not in romans.rig.status(), "the Romans' board told")
        play(romans, board)
    finally:
        board.kill()
        romans.close()
