"""TLS to the broker (port 8883's way, a CA made in the test) and a broker
with a password file: a simulator and a unix-port board play through it,
and a wrong password is said, not played on."""

import pytest

from netkit import SimBoard, play, wait
from test_online_board import board_turn, sim_turn  # noqa: F401  (the same hands)
from test_online_board import play as play_board
from unixboard import UnixBoard, flashed


@pytest.fixture(scope="module")
def firmware(tmp_path_factory):
    return flashed(str(tmp_path_factory.mktemp("flashed")))


def test_two_simulators_over_tls_with_passwords(secure_broker):
    b = secure_broker
    r = SimBoard(b, 0, tls=b.ca, user="romans", password="rome-pass-1", port=b.tls_port)
    h = SimBoard(b, 1, tls=b.ca, user="huns", password="hun-pass-22", port=b.tls_port)
    try:
        play([r, h])
        assert r.rig.status() == h.rig.status() and r.rig.status().startswith("Game over: ")
    finally:
        r.close()
        h.close()


def test_a_wrong_password_is_said(secure_broker):
    b = secure_broker
    r = SimBoard(b, 0, user="romans", password="not-it")
    try:
        wait([r], lambda: "refused" in r.rig.status(), "the refusal said")
        assert "(online: the broker at 127.0.0.1:%d refused us (Not authorized)" % b.port \
            in r.rig.status(), r.rig.status()
        assert not r.party.linked
    finally:
        r.close()


def test_a_board_over_tls_with_a_password(secure_broker, firmware, tmp_path):
    import shutil

    b = secure_broker
    folder = tmp_path / "board"
    folder.mkdir()
    shutil.copy(b.ca, folder / "ca.pem")
    board = UnixBoard(folder, firmware, b.tls_port, 1, settings={
        "broker": "localhost:%d" % b.tls_port, "tls": "ca.pem", "user": "huns",
        "password": "hun-pass-22"})
    sim = SimBoard(b, 0, tls=b.ca, user="romans", password="rome-pass-1", port=b.tls_port)
    board.others.append(sim)
    try:
        board.start()
        play_board(sim, board)
    finally:
        board.kill()
        sim.close()
