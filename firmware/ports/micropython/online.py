"""Online play on a MicroPython board: Wi-Fi (network.WLAN) and MQTT (umqtt.simple).

main.py calls start() at boot: with /online.json a Link whose party
becomes the controller's remote opponent; without it, or where the board
cannot go online, None and the line that says why. The loop never waits
for the network longer than a step could.

Why it is built this way: docs/pages/inside/design.md (ports/micropython/online.py).
"""

import sys
import time

from micropython import const

from attila.online.party import CONNECTING, KEEPALIVE_S, Party
from attila.online.settings import load
from attila.ticks import ticks_diff

SETTINGS = "online.json"
GAME_NUMBER = "online.txt"  # the room's game number and this board's id (attila.online.party)
CONNECT_MS = const(10000)  # a connect (TLS and the broker's CONNACK included) waited for
PARTIAL_MS = const(5000)  # a message begun and not finished this long: the broker is gone
ACK_MS = const(10000)  # a message of ours not acknowledged this long: the broker is gone
RETRY_MS = const(1000)  # first wait before trying the broker again ...
RETRY_MAX_MS = const(30000)  # ... doubling up to this
RELOOK = const(4)  # failed connects in a row before the broker's name is looked up again
WIFI_RETRY_MS = const(30000)  # a failed join is tried again after this


def start(path=SETTINGS, clock=time.ticks_ms):
    """(Link, the console line that says so) or (None, why the board plays
    locally; '' when there is no online.json)."""
    try:
        open(path).close()
    except OSError:
        return None, ""
    try:
        settings = load(path)
    except Exception as e:  # SettingsError, MemoryError: the board plays on, locally
        return None, "%s: playing locally" % e
    wlan = None
    if settings.ssid is not None or sys.platform != "linux":
        try:
            import network  # type: ignore[import-not-found]  # (the Pico's stubs: no radio)

            wlan = network.WLAN(network.STA_IF)
        except (ImportError, AttributeError, OSError, ValueError):
            return None, "online.json: this board has no Wi-Fi (no network.WLAN): playing locally"
        if settings.ssid is None:
            return None, "online.json: no wifi to join: playing locally"
    try:
        import mqtt  # noqa: F401  (ours, on umqtt.simple: attila flash copies it to /lib)
    except ImportError:
        return None, "online.json: no umqtt on the board (attila flash copies it to /lib): " \
            "playing locally"
    store = None
    try:
        from attila.saves.store import Store

        store = Store(GAME_NUMBER)
    except ImportError:
        pass
    party = Party(settings.room, settings.side, store)
    link = Link(party, settings, wlan, clock)
    return link, "online: room %s, this board plays the %s, broker %s" % (
        party.room, ("Romans", "Huns")[party.side], settings.where())


class Link:
    """The board's connection: Wi-Fi, then the broker, then the party's messages."""

    def __init__(self, party, settings, wlan=None, clock=time.ticks_ms):
        self.party = party
        self.settings = settings
        self.wlan = wlan
        self.clock = clock
        self.feed = None  # the watchdog's feed: called before a call that may take long
        self.client = None
        self._retry = RETRY_MS
        self._next = clock()  # when to try the broker (or the Wi-Fi) again
        self._addr = None  # the broker's address, looked up once
        self._failed = 0  # connects failed in a row
        self._began = 0  # when the connect began
        self._pinged = 0
        self._acked = 0  # when the broker last acknowledged all we sent, or some of it
        self._unacked = 0
        self._ctx = None  # the TLS context, made once
        self._now = 0  # the step's time, for what arrives in it
        self._joined = False  # the Wi-Fi's join started
        self._rejoin = 0  # when to start it again
        self._wifi_why = None  # why the Wi-Fi is down ('' joining; None: up or not asked)
        self.sent = self.received = 0
        party.pump = self.pump

    # -- the loop's side ----------------------------------------------------------

    def sleep(self, ms):
        """The loop's sleep: the network is served meanwhile."""
        self.pump(self.clock(), ms)

    def pump(self, now, wait_ms=0):
        """Serve the network, waiting for it wait_ms at most: connect, read, send."""
        c = self.client
        if c is None and self._wifi(now) and ticks_diff(now, self._next) >= 0:
            c = self._open(now)
        if c is None:
            self.party.poll(now)
            if wait_ms > 0:
                time.sleep_ms(wait_ms)
        else:
            self._serve(c, now, wait_ms)

    # -- inside -------------------------------------------------------------------

    def _serve(self, c, now, wait_ms):
        from umqtt.simple import MQTTException

        where = self.settings.where()
        self._now = now
        try:
            if wait_ms > 0:
                c.wait(wait_ms)
            if not c.ready and self.feed is not None:
                self.feed()  # (TLS's handshake: a step of it may take long on the chip)
            if c.step(now):
                self._linked(c, now)
            elif not c.ready and ticks_diff(now, self._began) > CONNECT_MS:
                raise OSError("no answer in %d s" % (CONNECT_MS // 1000))
            self.party.poll(now)
            if c.ready:
                self._send(c)
                self._check(c, now)
        except MQTTException as e:
            code = e.args[0] if e.args else 0
            why = "refused the user name or password" if code in (4, 5) else \
                "refused us (%s)" % code
            self._drop(now, "the broker at %s %s" % (where, why))
        except (OSError, IndexError, ValueError) as e:
            self._drop(now, "%s %s (%s)" % ("lost the broker at" if c.ready else "no broker at",
                                            where, _errno(e)))

    def _wifi(self, now):
        """True when the network is up (always, on the unix port); else the
        join is started (again after WIFI_RETRY_MS) and why it is not up said."""
        wlan = self.wlan
        if wlan is None:
            return True
        if wlan.isconnected():
            if self._wifi_why is not None:
                self._wifi_why = None
                self.party.lost(now, CONNECTING)  # (the Wi-Fi is up: the broker's turn)
            return True
        name = self.settings.ssid
        failed = _failed(wlan)
        if failed or self._wifi_why is None:
            self._wifi_why = failed
        if not self._joined or ticks_diff(now, self._rejoin) >= 0:
            self._joined = True
            self._rejoin = time.ticks_add(now, WIFI_RETRY_MS)
            try:
                wlan.active(True)
                wlan.connect(name, self.settings.wifi_password or "")
            except OSError as e:
                self._wifi_why = str(_errno(e))
        why = "the Wi-Fi %s: %s" % (name, self._wifi_why) if self._wifi_why else \
            "joining the Wi-Fi %s" % name
        if self.party.why != why:
            self.party.lost(now, why)
        return False

    def _open(self, now):
        """A new connection started (the loop goes on while it is made), or
        None and why not said."""
        import socket  # type: ignore[import-not-found]  # (the Pico's stubs: no network)

        from mqtt import Client

        s = self.settings
        party = self.party
        try:
            if self._addr is None:
                if self.feed is not None:
                    self.feed()
                self._addr = socket.getaddrinfo(s.host, s.port)[0][-1]
        except (OSError, IndexError) as e:
            self._drop(now, "no broker named %s (the name lookup failed: %s)"
                       % (s.host, _errno(e)))
            return None
        try:
            c = Client(party.client_id(), s.host, s.port, s.user, s.password, KEEPALIVE_S,
                       self._tls())
            topic, payload = party.will()
            c.set_last_will(topic, payload, retain=True, qos=1)
            c.set_callback(self._message)
            self.client = c
            self._began = now
            c.open(self._addr, now)
        except ImportError:
            self._drop(now, "no TLS on this board (no ssl module) for %s" % s.where())
        except (OSError, ValueError) as e:
            self._drop(now, "no broker at %s (%s)" % (s.where(), _errno(e)))
        return self.client

    def _tls(self):
        """The TLS context (made once), or None for plain MQTT."""
        s = self.settings
        if s.tls and self._ctx is None:
            import ssl

            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            ctx.verify_mode = ssl.CERT_REQUIRED
            with open(s.tls, "rb") as f:
                ctx.load_verify_locations(cadata=_der(f.read()))
            self._ctx = ctx
        return self._ctx

    def _linked(self, c, now):
        """The broker took us: subscribed, and the party told."""
        for topic in self.party.subscriptions():
            c.subscribe(topic, 1)
        self._failed = 0
        self._retry = RETRY_MS
        self._pinged = self._acked = now
        self._unacked = 0
        self.party.connected(now)

    def _drop(self, now, why):
        c = self.client
        self.client = None
        if c is not None:
            c.close()
        self._failed += 1
        if self._failed >= RELOOK:
            self._addr = None  # (the broker may have moved: looked up again)
            self._failed = 0
        self.party.lost(now, why)
        self._next = time.ticks_add(now, self._retry)
        self._retry = min(self._retry * 2, RETRY_MAX_MS)

    def _message(self, topic, payload):
        self.received += 1
        self.party.receive(topic.decode(), payload, self._now)

    def _send(self, c):
        party = self.party
        while party.outbox:
            topic, payload, retain = party.outbox[0]
            c.publish(topic, payload, retain, 1)  # (its PUBACK is counted as it comes)
            party.outbox.pop(0)
            self.sent += 1

    def _check(self, c, now):
        """The broker still there: a message not left half-sent, ours
        acknowledged, a word from it within the keepalive; a ping when due."""
        if c.partial >= 0 and ticks_diff(now, c.partial) > PARTIAL_MS:
            raise OSError("it stopped mid-message")
        unacked = c.unacked
        if unacked == 0 or unacked < self._unacked:
            self._acked = now
        self._unacked = unacked
        if unacked and ticks_diff(now, self._acked) > ACK_MS:
            raise OSError("it took no message for %d s" % (ACK_MS // 1000))
        if ticks_diff(now, c.heard) > KEEPALIVE_S * 1500:
            raise OSError("no answer for %d s" % (KEEPALIVE_S * 3 // 2))
        if ticks_diff(now, self._pinged) > KEEPALIVE_S * 500:
            self._pinged = now
            c.ping()


def _der(data):
    """A CA certificate as DER (MicroPython's mbedtls takes no PEM): the
    first PEM block's base64 decoded, or the bytes as they are."""
    start = data.find(b"-----BEGIN")
    if start < 0:
        return data
    import binascii

    lines = data[start:].split(b"\n")
    body = b""
    for line in lines[1:]:
        if line.startswith(b"-----END"):
            break
        body += line.strip()
    return binascii.a2b_base64(body)


JOINS = (("STAT_WRONG_PASSWORD", "wrong password (attila flash --wifi sets it)"),
         ("STAT_NO_AP_FOUND", "no such network in reach"),
         ("STAT_CONNECT_FAIL", "the join failed"))


def _failed(wlan):
    """Why the Wi-Fi's join failed, in words ('' while it has not)."""
    try:
        import network

        status = wlan.status()
    except (ImportError, AttributeError, OSError):
        return ""
    for name, words in JOINS:
        if status == getattr(network, name, None):
            return words
    return ""


WORDS = (("ETIMEDOUT", "no answer"), ("ECONNREFUSED", "nothing listens there"),
         ("EHOSTUNREACH", "not reachable"), ("ECONNRESET", "the connection was reset"))


def _errno(e):
    """Why, in words where the error is a common one, else its number or text."""
    import errno

    why = e.args[0] if e.args else type(e).__name__
    for name, words in WORDS:
        if why == getattr(errno, name, None):
            return words
    return why
