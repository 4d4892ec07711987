"""Start and stop a local Eclipse Mosquitto (Debian's `mosquitto` package).

    with Mosquitto(folder) as m:           # plain MQTT on a free loopback port
        m.port, m.ws_port                  # and MQTT over WebSocket (browsers)
        m.kill(); m.start()                # a broker that dies and comes back

Options: tls=(ca, cert, key) adds a TLS listener (m.tls_port) with those
PEM files; passwords={user: password} makes every listener ask for one
(a password file made with mosquitto_passwd); persistence keeps retained
messages and sessions across a restart (off: a restart loses them, the
harder case for the parties). Nothing here sleeps to judge: start() waits
until every port takes a connection, with a deadline.

`python tools/broker/mosquitto.py [--port 1883] [--ws-port 9001] [--lan]` runs one in
the foreground (`make broker`): its files in build/broker.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time

START_S = 15  # a broker that takes no connection by then did not start


class BrokerError(Exception):
    """The broker cannot start here (the message says why)."""


def binary():
    """mosquitto's path, or None."""
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.path.exists(p)),
        None)


def free_port(host="127.0.0.1"):
    """A port nothing listens on now (the kernel's pick)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def config(folder, port, ws_port=None, tls_port=None, tls=None, password_file=None,
           persistence=False, host="127.0.0.1"):
    """The text of a mosquitto.conf: a plain listener, a WebSocket one, a TLS one."""
    bind = (" " + host) if host else ""
    auth = ("allow_anonymous false\npassword_file %s\n" % password_file) if password_file \
        else "allow_anonymous true\n"
    # Started as root (CI, containers), mosquitto would drop to the user
    # `mosquitto`, who cannot read the files made here: it stays who started it.
    lines = ["user root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    lines += ["per_listener_settings false", auth.strip(),
             "persistence %s" % ("true" if persistence else "false")]
    if persistence:
        lines.append("persistence_location %s/" % folder)
    lines += ["log_dest stderr", "log_type error", "log_type warning",
              "listener %d%s" % (port, bind)]
    if ws_port:
        lines += ["listener %d%s" % (ws_port, bind), "protocol websockets"]
    if tls_port:
        ca, cert, key = tls
        lines += ["listener %d%s" % (tls_port, bind), "cafile %s" % ca, "certfile %s" % cert,
                  "keyfile %s" % key]
    return "\n".join(lines) + "\n"


class Mosquitto:
    """One mosquitto process on loopback, its files in `folder`."""

    def __init__(self, folder, ws=True, tls=None, passwords=None, persistence=False,
                 host="127.0.0.1", port=None, ws_port=None):
        exe = binary()
        if exe is None:
            raise BrokerError("mosquitto is not installed (Debian: apt-get install mosquitto)")
        self.exe = exe
        self.folder = str(folder)
        self.host = host
        os.makedirs(self.folder, exist_ok=True)
        self.port = port or free_port()
        self.ws_port = (ws_port or free_port()) if ws else None
        self.tls_port = free_port() if tls else None
        password_file = None
        if passwords:
            password_file = os.path.join(self.folder, "passwords")
            open(password_file, "w").close()
            os.chmod(password_file, 0o600)
            for user, word in passwords.items():
                subprocess.run([shutil.which("mosquitto_passwd") or "mosquitto_passwd", "-b",
                                password_file, user, word], check=True, capture_output=True)
        self.conf = os.path.join(self.folder, "mosquitto.conf")
        with open(self.conf, "w") as f:
            f.write(config(self.folder, self.port, self.ws_port, self.tls_port, tls,
                           password_file, persistence, host))
        self.proc = None
        self.log = os.path.join(self.folder, "mosquitto.log")
        self.starts = 0

    def ports(self):
        return [p for p in (self.port, self.ws_port, self.tls_port) if p]

    def start(self):
        """Start it; returns once every listener takes a connection."""
        if self.proc is not None and self.proc.poll() is None:
            return self
        log = open(self.log, "a")
        self.proc = subprocess.Popen([self.exe, "-c", self.conf], stdout=log, stderr=log,
                                     stdin=subprocess.DEVNULL)
        log.close()
        self.starts += 1
        deadline = time.monotonic() + START_S
        for port in self.ports():
            while True:
                if self.proc.poll() is not None:
                    raise BrokerError("mosquitto stopped at once (exit %s): %s"
                                      % (self.proc.returncode, self.tail()))
                try:
                    with socket.create_connection((self.host or "127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        self.kill()
                        raise BrokerError("mosquitto takes no connection on port %d after "
                                          "%d s: %s" % (port, START_S, self.tail()))
                    time.sleep(0.02)  # (polling a port for the event; not a judge of time)
        return self

    def kill(self):
        """Stop it at once, as a crash or a pulled plug does (SIGKILL)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def tail(self, n=2000):
        try:
            with open(self.log) as f:
                return f.read()[-n:]
        except OSError:
            return ""

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.kill()


def main(argv=None):
    import argparse

    p = argparse.ArgumentParser(prog="make broker", description="A local mosquitto for "
                                "online play: plain MQTT and MQTT over WebSocket.")
    p.add_argument("--port", type=int, default=1883)
    p.add_argument("--ws-port", type=int, default=9001)
    p.add_argument("--lan", action="store_true",
                   help="listen on every network interface (boards and phones on your "
                   "Wi-Fi), not only on this computer")
    p.add_argument("--folder", default=os.path.join("build", "broker"))
    args = p.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # (make interrupted: stop it too)
    try:
        m = Mosquitto(args.folder, host="" if args.lan else "127.0.0.1", port=args.port,
                      ws_port=args.ws_port, persistence=True)
        m.start()
    except BrokerError as e:
        print("make broker: %s" % e, file=sys.stderr)
        return 1
    where = "every interface of this computer" if args.lan else "this computer only"
    print("make broker: mosquitto on %s: MQTT on port %d, MQTT over WebSocket on port %d "
          "(Ctrl-C stops it; its files: %s)" % (where, m.port, m.ws_port, args.folder))
    try:
        m.proc.wait()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        m.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
