"""Online play on the web page: the page's JavaScript is the transport (mqtt.js
over WebSocket), the Party (attila.online) is here, under MicroPython's
WebAssembly port as on a board.

The page starts a board with online settings (party()), connects to the
broker with the client id, will and subscription info() gives, and then:
every message it hears goes to receive(), every change of the connection
to link(), and every frame it publishes what outbox() hands over (QoS 1,
retained as marked). The game is saved as any game of the page (the
browser's storage); the room's game number comes back in `number`.
"""

import json

from attila.online.party import Party
from attila.saves.store import MemoryStore


def party(code, side, number=1, board=""):
    """The Party of the page's side ('R' or 'H'), at the room's game `number`,
    with the page's board id (8 hex digits the page keeps; made here when it
    has none yet, and handed back by shown())."""
    p = Party(code, "RH".index(side), MemoryStore("attila-online 1\ngame %d\n" % number), board)
    p.pump = lambda now, wait_ms: p.poll(now)  # (the page's frames do the network)
    return p


def info(p):
    """What the page's MQTT client needs to connect, as JSON."""
    topic, payload = p.will()
    return json.dumps({"client": p.client_id(), "subscribe": list(p.subscriptions()),
                       "will": [topic, payload.decode()], "room": p.room, "side": "RH"[p.side]})


def outbox(p):
    """[(topic, payload, retain)] to publish now, as JSON (then forgotten here)."""
    out = [[t, m.decode(), r] for t, m, r in p.outbox]
    del p.outbox[:]
    return json.dumps(out)


def shown(p):
    """The online part of the page's state."""
    from attila.online.words import counted

    return {"room": p.room, "side": "RH"[p.side], "number": p.number, "id": p.id, "told": p.told,
            "told_n": p.told_n, "linked": p.linked, "refused": counted(p)}
