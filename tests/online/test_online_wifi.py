"""A board's Wi-Fi, as the port's online.py sees it (MicroPython's unix port,
the firmware as flashed, a network.WLAN of the test's that answers as a
Pico W's): joining is said, a wrong password or a network out of reach is
said in words, the join is tried again every 30 s, and the broker is
reached as soon as the Wi-Fi is up (not at the next retry)."""

import json
import os
import subprocess

import pytest

from unixboard import MICROPYTHON, flashed

NETWORK = '''
STA_IF = 0
STAT_IDLE = 0
STAT_CONNECTING = 1
STAT_WRONG_PASSWORD = -3
STAT_NO_AP_FOUND = -2
STAT_CONNECT_FAIL = -1
STAT_GOT_IP = 3
state = [STAT_IDLE]


class WLAN:
    def __init__(self, interface):
        self.joins = 0

    def active(self, on=None):
        return True

    def connect(self, ssid, password):
        self.joins += 1
        state[0] = STAT_CONNECTING

    def isconnected(self):
        return state[0] == STAT_GOT_IP

    def status(self):
        return state[0]
'''

DRIVER = '''
import network
import online
from attila.online.words import words

clock = [0]
link, said = online.start("online.json", lambda: clock[0])
print(said)


def after(ms, status=None):
    if status is not None:
        network.state[0] = status
    clock[0] += ms
    link.pump(clock[0], 0)
    print("%d joins: %s" % (link.wlan.joins, words(link.party)))


after(10)
after(10, network.STAT_WRONG_PASSWORD)
after(10000)
after(20000)
after(10, network.STAT_NO_AP_FOUND)
after(10, network.STAT_GOT_IP)
'''


@pytest.fixture(scope="module")
def firmware(tmp_path_factory):
    return flashed(str(tmp_path_factory.mktemp("flashed")))


def test_the_wifi_is_said_and_the_broker_reached_once_it_is_up(firmware, tmp_path):
    (tmp_path / "network.py").write_text(NETWORK)
    (tmp_path / "driver.py").write_text(DRIVER)
    (tmp_path / "online.json").write_text(json.dumps({
        "room": "castle-7fk2m9xq", "side": "H", "broker": "127.0.0.1:1",
        "wifi": {"ssid": "Home", "password": "not-it"}}))
    env = dict(os.environ, MICROPYPATH=":".join(
        [str(tmp_path), firmware, ".frozen", os.path.join(firmware, "lib")]))
    out = subprocess.run([MICROPYTHON, "driver.py"], cwd=str(tmp_path), env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    # The broker tried at once (nothing listens at port 1: said refused, or
    # still connecting, as the host's network answers).
    assert lines.pop() in ("2 joins: online: connecting to the broker",
                           "2 joins: online: no broker at 127.0.0.1:1 (nothing listens there); "
                           "trying again"), out.stdout
    assert lines == [
        "online: room castle, this board plays the Huns, broker 127.0.0.1:1",
        "1 joins: online: joining the Wi-Fi Home",
        "1 joins: online: the Wi-Fi Home: wrong password (attila flash --wifi sets it); "
        "trying again",
        "1 joins: online: the Wi-Fi Home: wrong password (attila flash --wifi sets it); "
        "trying again",
        "2 joins: online: the Wi-Fi Home: wrong password (attila flash --wifi sets it); "
        "trying again",
        "2 joins: online: the Wi-Fi Home: no such network in reach; trying again",
    ], out.stdout
