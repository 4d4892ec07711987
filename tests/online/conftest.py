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


def make_certs(folder):
    """(ca.pem, server.pem, server.key) in `folder`: a CA made here, and the
    broker's certificate for localhost and 127.0.0.1 signed by it."""
    import shutil
    import subprocess

    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make a test CA (Debian: apt-get install openssl)")
    folder = str(folder)
    run = lambda *args: subprocess.run(args, cwd=folder, check=True, capture_output=True)
    run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key",
        "-out", "ca.pem", "-days", "2", "-subj", "/CN=attila test CA")
    run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out",
        "server.csr", "-subj", "/CN=localhost")
    with open(os.path.join(folder, "san.ext"), "w") as f:
        f.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    run("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "san.ext")
    return tuple(os.path.join(folder, n) for n in ("ca.pem", "server.pem", "server.key"))


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
