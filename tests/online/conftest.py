"""A real Eclipse Mosquitto for the online tests (tools/broker/mosquitto.py).

Where mosquitto is missing the tests are skipped with the reason; under
CI=true they fail instead (.ci/run installs it).
"""

import pytest

from tools.broker.mosquitto import BrokerError, Mosquitto
from brokerkit import make_certs, need_mosquitto


@pytest.fixture
def broker(tmp_path):
    """A fresh mosquitto (plain and WebSocket listeners) on free loopback ports."""
    need_mosquitto()
    try:
        m = Mosquitto(tmp_path / "broker").start()
    except BrokerError as e:
        pytest.fail(str(e))
    yield m
    m.kill()


@pytest.fixture
def secure_broker(tmp_path):
    """A mosquitto with a TLS listener (a CA made for the test) and a password file."""
    need_mosquitto()
    certs = make_certs(tmp_path)
    try:
        m = Mosquitto(tmp_path / "broker", tls=certs,
                      passwords={"romans": "rome-pass-1", "huns": "hun-pass-22"}).start()
    except BrokerError as e:
        pytest.fail(str(e))
    m.ca = certs[0]
    yield m
    m.kill()
