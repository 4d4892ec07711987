"""Helpers of the tests that need a real mosquitto (tests/online, tests/browser's online page)."""

import os

import pytest

from tools.broker.mosquitto import binary


def need_mosquitto():
    if binary() is None:
        why = "mosquitto is not installed (Debian: apt-get install mosquitto; .ci/run does it)"
        if os.environ.get("CI") == "true":
            pytest.fail(why + ": CI must run the online tests")
        pytest.skip(why)


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
