"""Online play on a MicroPython board: Wi-Fi (network.WLAN) and MQTT (umqtt.simple).

main.py calls start() at boot: with /online.json (attila flash --online
writes it) it returns a Link whose party (attila.online.party) becomes the
controller's remote opponent; without the file, or on a board that cannot
go online (no Wi-Fi, no umqtt, bad settings), None and the line that says
why, and the board plays locally.

The loop never waits for the network longer than a step could: the Link's
sleep() replaces the loop's sleep (select on the broker's socket for the
time the loop would sleep, so a message wakes it at once), and while the
board waits for the other side's action the Remote pumps it for a few ms
a step. Connecting to the broker blocks (umqtt's connect: CONNECT_S at
most, inside the watchdog's time); it is tried again later, each wait
twice the last, up to RETRY_MAX_MS. On the unix port (no network module)
the host's own network is used: the tests run the board there.
"""

import sys
import time

from micropython import const

from attila.online.party import Party
from attila.online.settings import load
from attila.ticks import ticks_diff

SETTINGS = "online.json"
GAME_NUMBER = "online.txt"  # the room's game number and this board's id (attila.online.party)
KEEPALIVE_S = const(20)  # the broker sends our `off` 30 s after we go silent
CONNECT_S = const(3)  # umqtt's connect blocks this long at most
RETRY_MS = const(1000)  # first wait before trying the broker again ...
RETRY_MAX_MS = const(30000)  # ... doubling up to this
WIFI_RETRY_MS = const(30000)  # a failed join is tried again after this
BLOCK_S = const(2)  # a blocking read of the broker's socket gives up after this


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
        from umqtt.simple import MQTTClient  # noqa: F401  (copied to /lib by attila flash)
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
        self.console = None  # the board's console: the other side's action is said there
        self.client = None
        self._poll = None
        self._told = 0
        self._retry = RETRY_MS
        self._next = clock()  # when to try the broker (or the Wi-Fi) again
        self._heard = 0  # the broker's last word (a message or a ping's answer)
        self._pinged = 0
        self._joined = False
        self.sent = self.received = 0
        party.pump = self.pump

    # -- the loop's side ----------------------------------------------------------

    def sleep(self, ms):
        """The loop's sleep: the network is served meanwhile."""
        self.pump(self.clock(), ms)

    def pump(self, now, wait_ms=0):
        """Serve the network for up to wait_ms: connect, read, send."""
        party = self.party
        if self.client is None:
            if ticks_diff(now, self._next) >= 0 and self._wifi(now):
                self._connect(now)
            party.poll(now)
            self._say()
            if self.client is None:
                if wait_ms > 0:
                    time.sleep_ms(wait_ms)
                return
        c = self.client
        poll = self._poll
        try:
            if poll is not None:
                self._read(c, poll, now, wait_ms)
            party.poll(now)
            self._send(c)
            self._keepalive(c, now)
        except (OSError, IndexError, AssertionError) as e:
            self._drop(now, "lost the broker at %s (%s)" % (self.settings.where(), _errno(e)))
        self._say()

    # -- inside -------------------------------------------------------------------

    def _wifi(self, now):
        """True when the network is up (always, on the unix port)."""
        wlan = self.wlan
        if wlan is None or wlan.isconnected():
            return True
        name = self.settings.ssid
        if not self._joined or _failed(wlan):
            self._joined = True
            try:
                wlan.active(True)
                wlan.connect(name, self.settings.wifi_password or "")
            except OSError as e:
                self.party.lost(now, "Wi-Fi %s: %s" % (name, _errno(e)))
            self._next = time.ticks_add(now, WIFI_RETRY_MS)
        if self.party.why.find(name) < 0:
            self.party.lost(now, "joining the Wi-Fi %s" % name)
        return False

    def _connect(self, now):
        from umqtt.simple import MQTTClient, MQTTException

        s = self.settings
        party = self.party
        ctx = None
        try:
            if s.tls:
                import ssl

                ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
                ctx.verify_mode = ssl.CERT_REQUIRED
                with open(s.tls, "rb") as f:
                    ctx.load_verify_locations(cadata=_der(f.read()))
            c = MQTTClient(party.client_id(), s.host, s.port, s.user, s.password,
                           keepalive=KEEPALIVE_S, ssl=ctx)
            topic, payload = party.will()
            c.set_last_will(topic, payload, retain=True, qos=1)
            c.set_callback(self._message)
            self._now = now
            c.connect(clean_session=False, timeout=CONNECT_S)
            self.client = c
            _timeout(c.sock)
            for topic in party.subscriptions():
                c.subscribe(topic, qos=1)
        except MQTTException as e:
            code = e.args[0] if e.args else 0
            why = "refused the user name or password" if code in (4, 5) else "refused us (%s)" % code
            return self._drop(now, "the broker at %s %s" % (s.where(), why))
        except ImportError:
            return self._drop(now, "no TLS on this board (no ssl module) for %s" % s.where())
        except (OSError, IndexError, AssertionError, ValueError) as e:
            return self._drop(now, "no broker at %s (%s)" % (s.where(), _errno(e)))
        import select

        self._poll = select.poll()
        self._poll.register(self.client.sock, select.POLLIN)
        self._retry = RETRY_MS
        self._heard = self._pinged = now
        party.connected(now)

    def _drop(self, now, why):
        c = self.client
        self.client = None
        self._poll = None
        if c is not None:
            try:
                c.sock.close()
            except (OSError, AttributeError):
                pass
        self.party.lost(now, why)
        self._next = time.ticks_add(now, self._retry)
        self._retry = min(self._retry * 2, RETRY_MAX_MS)

    def _message(self, topic, payload):
        self.received += 1
        self.party.receive(topic.decode(), payload, self._now)

    def _read(self, c, poll, now, wait_ms):
        self._now = now
        ready = poll.poll(wait_ms if wait_ms > 0 else 0)
        if not ready:
            c.check_msg()  # (TLS may hold bytes the socket no longer shows)
            _timeout(c.sock)
            return
        self._heard = now
        for _ in range(8):  # what arrived, a message at a time
            if c.check_msg() is None:
                break
        _timeout(c.sock)

    def _send(self, c):
        party = self.party
        while party.outbox:
            topic, payload, retain = party.outbox[0]
            c.publish(topic, payload, retain, 1)  # waits for the broker's PUBACK
            party.outbox.pop(0)
            self.sent += 1

    def _keepalive(self, c, now):
        if ticks_diff(now, self._heard) > KEEPALIVE_S * 1500:
            raise OSError("no answer from the broker")
        if ticks_diff(now, self._pinged) > KEEPALIVE_S * 500:
            self._pinged = now
            c.ping()

    def _say(self):
        """The other side's action, said once on the console, before the
        status lines that guide the hands."""
        party = self.party
        if party.told_n != self._told:
            self._told = party.told_n
            console = self.console
            if console is not None:
                _flush(console)  # what was said before it, first
                console(party.told)
                _flush(console)  # then it, whole: a status line after it cannot replace it


def _flush(console):
    """Send what the console holds, as far as the port takes it now (a few
    lines at most: each drain is a bounded number of bytes)."""
    pending = getattr(console, "pending", None)
    for _ in range(16):
        if pending is None or not pending():
            return
        console.drain()


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


def _failed(wlan):
    try:
        import network

        return wlan.status() in (network.STAT_WRONG_PASSWORD, network.STAT_NO_AP_FOUND,
                                 network.STAT_CONNECT_FAIL)
    except (ImportError, AttributeError):
        return False


def _timeout(sock):
    try:
        sock.settimeout(BLOCK_S)
    except (AttributeError, OSError):
        pass  # (a TLS socket may not take one: a hung read is then the watchdog's)


def _errno(e):
    return e.args[0] if e.args else type(e).__name__
