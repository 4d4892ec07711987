"""online.json as a board reads it: what it holds, and what it refuses, with the key named."""

import check
from attila.online.settings import SettingsError, parse

GOOD = {"room": "castle-7fk2m9xq", "side": "H", "broker": "192.168.1.20"}


def test_the_least_a_board_needs():
    s = parse(dict(GOOD))
    assert (s.room, s.side, s.host, s.port, s.ssid, s.tls, s.user) == (
        "castle-7fk2m9xq", 1, "192.168.1.20", 1883, None, None, None)
    assert s.where() == "192.168.1.20:1883"


def test_wifi_tls_and_a_password():
    d = dict(GOOD, broker="mqtt.example.org", wifi={"ssid": "Home", "password": "pw"},
             tls="ca.pem", user="huns", password="secret1")
    s = parse(d)
    assert (s.port, s.ssid, s.wifi_password, s.tls, s.user, s.password) == (
        8883, "Home", "pw", "ca.pem", "huns", "secret1")


def test_what_is_refused():
    def why(**change):
        d = dict(GOOD)
        d.update(change)
        return check.raises(SettingsError, parse, d)

    assert why(side="X") == "online.json: side must be R or H, not 'X'"
    assert why(broker="a b") == \
        "online.json: broker 'a b': expected HOST or HOST:PORT, like 192.168.1.20:1883"
    assert why(room="castle") == \
        "online.json: room code 'castle': expected ROOM-SECRET, like castle-7fk2m9xq"
    assert why(colour="red") == "online.json: unknown key 'colour' (known: room, side, broker, " \
        "wifi, tls, user, password)"
    assert why(wifi="Home") == "online.json: wifi must be {\"ssid\": ..., \"password\": ...}"
    assert why(tls=True) == "online.json: tls must be false or the CA file's name on the board"
    assert check.raises(SettingsError, parse, []) == \
        "online.json: expected an object {\"room\": ..., \"side\": ..., \"broker\": ...}"
