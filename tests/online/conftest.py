"""A real Eclipse Mosquitto for the online tests (tools/broker/mosquitto.py).

Where mosquitto is missing the tests are skipped with the reason; under
CI=true they fail instead (.ci/run installs it).
"""

import os

import pytest

from broker.mosquitto import BrokerError, Mosquitto, binary


def need_mosquitto():
    if binary() is None:
        why = "mosquitto is not installed (Debian: apt-get install mosquitto; .ci/run does it)"
        if os.environ.get("CI") == "true":
            pytest.fail(why + ": CI must run the online tests")
        pytest.skip(why)


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
