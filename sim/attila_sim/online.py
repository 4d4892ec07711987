"""Online play in the simulator: a Party (attila.online) linked to an MQTT broker.

    party = Party("castle-7fk2m9xq", HUNS, store)
    link = Link(party, "broker.example:1883")      # paho-mqtt, its own thread
    rig = Rig(..., online=party)                    # the rig pumps the link each step

paho-mqtt (pinned in requirements.txt) runs the connection in a thread of
its own and reconnects by itself; what it hears goes into a queue that
pump() empties into the party on the simulator's loop, so the party, the
controller and the rig are only ever touched by that loop. Sessions are
persistent (the broker keeps what the board missed while it was away),
every message is QoS 1, the party's state is retained.
"""

import collections
import ssl

from attila.errors import AttilaError
from attila.online.party import KEEPALIVE_S
from attila.saves.archive import GAMES  # (an online game without --save is kept there too)

RECONNECT_S = (1, 8)  # paho's wait before it tries again, doubling from the first to the last


def broker_address(text, default_port=1883):
    """(host, port) of HOST[:PORT]; AttilaError says what is wrong."""
    host, colon, port = text.rpartition(":") if text.count(":") == 1 else (text, "", "")
    if not colon:
        host, port = text, str(default_port)
    if not host or " " in host or "/" in host:
        raise AttilaError("--broker %r: expected HOST or HOST:PORT, like test.mosquitto.org:1883"
                          % text)
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise AttilaError("--broker %r: the port must be a number 1..65535" % text)
    return host, int(port)


class Link:
    """One party's connection to the broker through paho-mqtt.

    tls: None (plain), or a CA file (PEM) the broker's certificate must chain
    to ('' for the system's CAs); user/password: the broker's password file.
    """

    def __init__(self, party, broker, tls=None, user=None, password=None, clock=None):
        import paho.mqtt.client as mqtt

        self.party = party
        self.host, self.port = broker_address(broker, 8883 if tls is not None else 1883)
        self.where = "%s:%d" % (self.host, self.port)
        self.events = collections.deque()  # filled by paho's thread, emptied by pump()
        self.refused = ""  # the broker's refusal, said until a connection is taken
        self.received = 0  # messages and bytes that arrived, and sent
        self.received_bytes = 0
        self.sent = 0
        self.sent_bytes = 0
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=party.client_id(),
                        clean_session=False, protocol=mqtt.MQTTv311)
        topic, payload = party.will()
        c.will_set(topic, payload, qos=1, retain=True)
        if user:
            c.username_pw_set(user, password or "")
        if tls is not None:
            c.tls_set(ca_certs=tls or None, cert_reqs=ssl.CERT_REQUIRED)
        c.reconnect_delay_set(*RECONNECT_S)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        c.on_connect_fail = self._on_fail
        self.client = c
        party.pump = self.pump
        c.connect_async(self.host, self.port, keepalive=KEEPALIVE_S)
        c.loop_start()

    # -- paho's thread ------------------------------------------------------------

    def _on_connect(self, client, userdata, flags, reason, properties=None):
        if reason.is_failure:
            self.refused = "the broker at %s refused us (%s)" % (self.where, reason)
            self.events.append(("down", self.refused))
            return
        self.refused = ""
        client.subscribe([(topic, 1) for topic in self.party.subscriptions()])
        self.events.append(("up",))

    def _on_disconnect(self, client, userdata, flags, reason, properties=None):
        self.events.append(("down", self.refused or "no broker at %s" % self.where))

    def _on_fail(self, client, userdata):
        self.events.append(("down", "no broker at %s" % self.where))

    def _on_message(self, client, userdata, msg):
        self.events.append(("msg", msg.topic, bytes(msg.payload)))

    # -- the simulator's loop -----------------------------------------------------

    def pump(self, now, wait_ms=0):
        """What arrived, into the party; what it has to send, out. Never waits."""
        party = self.party
        events = self.events
        while events:
            event = events.popleft()
            if event[0] == "msg":
                self.received += 1
                self.received_bytes += len(event[2])
                party.receive(event[1], event[2], now)
            elif event[0] == "up":
                party.connected(now)
            elif party.linked or party.why != event[1]:
                party.lost(now, event[1])
        party.poll(now)
        while party.outbox:
            topic, payload, retain = party.outbox.pop(0)
            self.sent += 1
            self.sent_bytes += len(payload)
            self.client.publish(topic, payload, qos=1, retain=retain)

    def close(self):
        """Leave the broker cleanly: the will is not sent, so say `off` first."""
        topic, payload = self.party.will()
        try:
            self.client.publish(topic, payload, qos=1, retain=True).wait_for_publish(2)
        except (RuntimeError, ValueError):
            pass  # not connected: the broker sends the will itself
        self.client.disconnect()
        self.client.loop_stop()


def details(party):
    """Lines for the simulator's panel: the room, the sides, the last remote action."""
    from attila.game.rules import SIDE_NAMES
    from attila.online.words import counted

    out = ["Online: room %s, you play the %s, the %s play on their board."
           % (party.room, SIDE_NAMES[party.side], SIDE_NAMES[party.other])]
    if party.told:
        out.append(party.told)
    refused = counted(party)
    if refused:
        out.append("Messages refused: " + refused)
    return out


def wait(rig, out, stdin=None, clock=None, sleep=None):
    """Text mode: run the board in real time while it waits for the other
    board (or works out a hint), saying each new line once: the other side's
    action, the status line as it changes. A line typed meanwhile (`quit`,
    say) or Ctrl-C stops waiting; the game goes on, the save keeps it."""
    import select
    import time

    clock = clock or time.monotonic
    sleep = sleep or time.sleep
    typed = stdin is not None and hasattr(stdin, "fileno")
    start = clock()
    base = rig.now
    c = rig.controller
    status = rig.status()
    for line in rig.heard.unread():  # an action told already comes before its status
        out.write(line + "\n")
    out.write(status + "\n")
    try:
        while c.busy():
            rig.advance_to(base + int((clock() - start) * 1000))
            for line in rig.heard.unread():  # the other side's action, once as a whole
                out.write(line + "\n")
            now = rig.status()
            if c.own() and c.plan.ready() and c.busy():
                now = status  # decided, told on the next step: its status after it
            if now != status:
                status = now
                out.write(status + "\n")
            out.flush()
            if typed and select.select([stdin], [], [], 0)[0]:
                return  # a line to read: the prompt takes it
            sleep(0.02)
    except KeyboardInterrupt:
        out.write("(stopped waiting: the other board's action shows once it arrives)\n")


def check_options(args):
    """--online, --broker and --side go together, and with the window or --text."""
    from attila.online.message import room_code

    missing = [name for name, value in (("--online ROOM-SECRET", args.online),
                                        ("--broker HOST[:PORT]", args.broker),
                                        ("--side R|H", args.side)) if not value]
    if missing:
        raise AttilaError("online play needs %s too" % " and ".join(missing))
    room_code(args.online)
    broker_address(args.broker)
    for name, value in (("--computer", args.computer), ("--replay", args.replay),
                        ("--script", args.script)):
        if value:
            raise AttilaError("%s and --online do not go together: online, the other side is "
                              "played on the other board" % name)


def kept_in(code, side):
    """Where an online game is kept without --save: games/online-ROOM-SIDE.txt
    (its finished games beside it), the folder made when it is missing."""
    import os

    from attila.online.message import room_code
    from attila_tools.files import FileError

    room = room_code(code)[0]  # (the secret never goes into a file name)
    try:
        os.makedirs(GAMES, exist_ok=True)
    except OSError as e:
        raise FileError("cannot keep the game in %s/ here (%s): give --save FILE"
                        % (GAMES, e.strerror or e))
    return os.path.join(GAMES, "online-%s-%s.txt" % (room, side))


def party_for(code, side, save=None):
    """The Party of this side; its game number kept beside the --save file."""
    from attila.online.party import Party
    from attila.saves.store import MemoryStore, Store

    store = Store(save + ".online") if save else MemoryStore()
    return Party(code, "RH".index(side), store)


def link_for(party, args):
    """The party's Link to --broker (TLS, user and password as asked)."""
    import os

    password = None
    if args.user:
        password = os.environ.get("ATTILA_BROKER_PASSWORD")
        if password is None:
            import getpass

            password = getpass.getpass("password of %s at %s: " % (args.user, args.broker))
    return Link(party, args.broker, args.tls, args.user, password)
