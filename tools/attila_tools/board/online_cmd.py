"""`attila flash --wifi SSID --online ROOM-SECRET --broker HOST[:PORT] --side R|H`:
online play's settings for a board (online.json, attila.online.settings).

The Wi-Fi password is taken from ATTILA_WIFI_PASSWORD or asked for (never
on the command line, where the shell's history keeps it); the broker's,
with --user, from ATTILA_BROKER_PASSWORD or asked for. Neither is printed
nor logged: what is said names the room, the side, the broker and the
network only. With --tls CA the CA file goes to the board as ca.pem.
`--online off` removes the settings: the board plays locally again.
"""

import json
import os

from attila_tools.errors import UsageError

SETTINGS = "online.json"
CA = "ca.pem"
WIFI_ENV = "ATTILA_WIFI_PASSWORD"
BROKER_ENV = "ATTILA_BROKER_PASSWORD"


def add_arguments(p):
    g = p.add_argument_group("online play (docs/pages/play/distance.md)")
    g.add_argument("--online", metavar="ROOM-SECRET",
                   help="play a friend's board through an MQTT broker: the room code you both "
                   "use ('off': play locally again)")
    g.add_argument("--broker", metavar="HOST[:PORT]", help="the MQTT broker (port 1883; "
                   "8883 with --tls)")
    g.add_argument("--side", choices=("R", "H"), help="the side played on this board")
    g.add_argument("--wifi", metavar="SSID", help="the Wi-Fi network the board joins "
                   "(password: %s, or asked for)" % WIFI_ENV)
    g.add_argument("--tls", metavar="CA", help="reach the broker over TLS; CA: the PEM file "
                   "its certificate chains to (copied to the board)")
    g.add_argument("--user", help="the broker's user name (password: %s, or asked for)"
                   % BROKER_ENV)


def _secret(env, prompt, ask):
    value = os.environ.get(env)
    if value is None:
        value = ask(prompt)
    return value


def files(args, ask=None, environ=None):
    """{board path: bytes} to write for the online options (None: none given),
    and the line that says what, without a password. `--online off`:
    ({SETTINGS: None}, ...): removed."""
    from attila.errors import AttilaError
    from attila.online.settings import broker, parse

    given = [n for n in ("online", "broker", "side", "wifi", "tls", "user") if getattr(args, n)]
    if not given:
        return None, ""
    if args.online == "off":
        if len(given) > 1:
            raise UsageError("--online off takes no other online option")
        return {SETTINGS: None, CA: None}, "online play off: the board plays locally"
    missing = [o for o in ("online", "broker", "side") if not getattr(args, o)]
    if missing:
        raise UsageError("online play needs %s" % " and ".join("--" + m for m in missing))
    if ask is None:
        import getpass

        ask = getpass.getpass
    data = {"room": args.online, "side": args.side, "broker": args.broker}
    out = {}
    if args.wifi:
        data["wifi"] = {"ssid": args.wifi,
                        "password": _secret(WIFI_ENV, "Wi-Fi password of %s: " % args.wifi, ask)}
    if args.tls:
        try:
            with open(args.tls, "rb") as f:
                pem = f.read()
        except OSError as e:
            raise UsageError("--tls %s: %s" % (args.tls, e.strerror or e))
        if b"-----BEGIN CERTIFICATE-----" not in pem:
            raise UsageError("--tls %s: not a PEM certificate (-----BEGIN CERTIFICATE-----)"
                             % args.tls)
        data["tls"] = CA
        out[CA] = pem
    if args.user:
        data["user"] = args.user
        data["password"] = _secret(BROKER_ENV, "password of %s at the broker: " % args.user, ask)
    try:
        parse(data, "--online")  # the board's own check, before anything is written
        broker(args.broker, bool(args.tls), "--broker")
    except AttilaError as e:
        raise UsageError(str(e).replace("--online: broker", "--broker"))
    out[SETTINGS] = json.dumps(data).encode()
    where = "room %s, side %s, broker %s%s%s" % (
        args.online.partition("-")[0], args.side, args.broker, " over TLS" if args.tls else "",
        ", Wi-Fi %s" % args.wifi if args.wifi else ", no Wi-Fi")
    return out, "online play: " + where


LINE = b"attila: online"  # the board's line on online play: online, or why not


def said(lines, online=False):
    """What to say of the board's first lines after the reset: its first
    `attila:` line, and where online settings were written, the line on
    online play (the room and the broker, or why it plays locally)."""
    ready = [l for l in lines if l.startswith("attila:")]
    if not ready:
        return ["attila flash: reset; the board printed nothing yet%s" % (
            (": " + " / ".join(lines[:3])) if lines else "")]
    out = ["attila flash: reset; the board says: %s" % ready[0]]
    if online:
        more = [l for l in ready if l.startswith(LINE.decode())]
        out.append("attila flash: the board says: %s" % more[0] if more else
                   "attila flash: the board has said nothing of online play yet (its serial "
                   "console says it once it has)")
    return out
