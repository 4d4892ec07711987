"""A board's online settings: online.json, as `attila flash --online` writes it.

The settings hold secrets: nothing here prints them.

Why it is built this way: docs/pages/inside/design.md (attila/online/settings.py).
"""

from attila.datafile import decode, read_text
from attila.errors import AttilaError
from attila.online.message import room_code

KEYS = ("room", "side", "broker", "wifi", "tls", "user", "password")


class SettingsError(AttilaError):
    """online.json cannot be used (the message names the file and the key)."""


class Settings:
    """The fields of online.json, checked (see the module's docstring)."""

    def __init__(self, room, side, host, port, ssid=None, wifi_password=None, tls=None,
                 user=None, password=None):
        self.room = room
        self.side = side
        self.host = host
        self.port = port
        self.ssid = ssid
        self.wifi_password = wifi_password
        self.tls = tls
        self.user = user
        self.password = password

    def where(self):
        return "%s:%d" % (self.host, self.port)


def broker(text, tls=False, source="online.json"):
    """(host, port) of 'HOST' or 'HOST:PORT'."""
    host, colon, port = text.rpartition(":")
    if not colon:
        host, port = text, "8883" if tls else "1883"
    if not host or " " in host or "/" in host or ":" in host:
        raise SettingsError("%s: broker %r: expected HOST or HOST:PORT, like "
                            "192.168.1.20:1883" % (source, text[:60]))
    if not port.isdigit() or len(port) > 5 or not 0 < int(port) < 65536:
        raise SettingsError("%s: broker %r: the port must be a number 1..65535"
                            % (source, text[:60]))
    return host, int(port)


def _text(data, key, source, required=True):
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value:
        raise SettingsError("%s: %r must be text%s" % (source, key, "" if required else
                                                        " when it is given"))
    return value


def parse(data, source="online.json"):
    """The Settings of online.json's decoded JSON; SettingsError says what is wrong."""
    if not isinstance(data, dict):
        raise SettingsError("%s: expected an object {\"room\": ..., \"side\": ..., "
                            "\"broker\": ...}" % source)
    for key in data:
        if key not in KEYS:
            raise SettingsError("%s: unknown key %r (known: %s)" % (source, key, ", ".join(KEYS)))
    code = _text(data, "room", source)
    try:
        room_code(code)
    except AttilaError as e:
        raise SettingsError("%s: %s" % (source, e))
    side = _text(data, "side", source)
    if side not in ("R", "H"):
        raise SettingsError("%s: side must be R or H, not %r" % (source, side[:8]))
    tls = data.get("tls", False)
    if tls is not False and (not isinstance(tls, str) or not tls):
        raise SettingsError("%s: tls must be false or the CA file's name on the board" % source)
    host, port = broker(_text(data, "broker", source), tls is not False, source)
    ssid = password = None
    wifi = data.get("wifi")
    if wifi is not None:
        if not isinstance(wifi, dict):
            raise SettingsError("%s: wifi must be {\"ssid\": ..., \"password\": ...}" % source)
        ssid = _text(wifi, "ssid", source + ": wifi")
        password = wifi.get("password", "")
        if not isinstance(password, str):
            raise SettingsError("%s: wifi: 'password' must be text" % source)
    user = _text(data, "user", source, False)
    word = _text(data, "password", source, False) if user else None
    return Settings(code, "RH".index(side), host, port, ssid, password,
                    tls or None, user, word)


def load(path="online.json"):
    """The Settings in the file at `path`."""
    return parse(decode(read_text(path, SettingsError), path, SettingsError), path)
