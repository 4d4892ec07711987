"""`attila flash --online ... --wifi ...`: the board's online.json, checked as the
board checks it, its passwords from the environment or asked for, never said."""

import json

import pytest

from attila.online.settings import parse
from attila_tools.board import flash, online_cmd
from attila_tools.errors import UsageError


def args(*argv):
    return flash.parser().parse_args(list(argv))


def test_the_settings_a_board_gets(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTILA_WIFI_PASSWORD", "hunter2-wifi")
    monkeypatch.setenv("ATTILA_BROKER_PASSWORD", "broker-pw-9")
    ca = tmp_path / "ca.pem"
    ca.write_bytes(b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
    out, line = online_cmd.files(args("--online", "castle-7fk2m9xq", "--broker",
                                      "mqtt.example.org:8883", "--side", "H", "--wifi", "Home",
                                      "--tls", str(ca), "--user", "huns"))
    data = json.loads(out["online.json"])
    assert data == {"room": "castle-7fk2m9xq", "side": "H", "broker": "mqtt.example.org:8883",
                    "wifi": {"ssid": "Home", "password": "hunter2-wifi"}, "tls": "ca.pem",
                    "user": "huns", "password": "broker-pw-9"}
    s = parse(data)
    assert (s.host, s.port, s.side, s.ssid, s.tls) == ("mqtt.example.org", 8883, 1, "Home",
                                                       "ca.pem")
    assert out["ca.pem"] == ca.read_bytes()
    assert line == "online play: room castle, side H, broker mqtt.example.org:8883 over TLS, " \
        "Wi-Fi Home"
    assert "hunter2" not in line and "broker-pw" not in line and "7fk2m9xq" not in line


def test_passwords_are_asked_for_when_the_environment_has_none(monkeypatch):
    monkeypatch.delenv("ATTILA_WIFI_PASSWORD", raising=False)
    asked = []
    out, _ = online_cmd.files(args("--online", "castle-7fk2m9xq", "--broker", "10.0.0.2",
                                   "--side", "R", "--wifi", "Home"),
                              ask=lambda prompt: asked.append(prompt) or "typed-pass")
    assert asked == ["Wi-Fi password of Home: "]
    assert json.loads(out["online.json"])["wifi"]["password"] == "typed-pass"


def test_what_is_refused_says_why():
    with pytest.raises(UsageError) as e:
        online_cmd.files(args("--online", "castle-7fk2m9xq", "--broker", "10.0.0.2"))
    assert str(e.value) == "online play needs --side"
    with pytest.raises(UsageError) as e:
        online_cmd.files(args("--online", "castle-short", "--broker", "h", "--side", "R"))
    assert "the secret after 'castle'- must have 8 to 64 characters" in str(e.value)
    with pytest.raises(UsageError) as e:
        online_cmd.files(args("--online", "castle-7fk2m9xq", "--broker", "h:99999", "--side", "R"))
    assert str(e.value) == "--broker 'h:99999': the port must be a number 1..65535"
    with pytest.raises(UsageError) as e:
        online_cmd.files(args("--online", "off", "--side", "R"))
    assert str(e.value) == "--online off takes no other online option"


def test_off_removes_the_settings_and_nothing_given_changes_nothing():
    assert online_cmd.files(args("--online", "off"))[0] == {"online.json": None, "ca.pem": None}
    assert online_cmd.files(args()) == (None, "")


def test_after_the_reset_the_line_on_online_play_is_said():
    lines = ["attila: 4x5 on picow, 20 squares",
             "attila: no setup book (layout.book): the board searches its placements",
             "attila: online: room castle, this board plays the Huns, broker 192.168.1.20:1883"]
    assert online_cmd.said(lines, online=True) == [
        "attila flash: reset; the board says: attila: 4x5 on picow, 20 squares",
        "attila flash: the board says: attila: online: room castle, this board plays the Huns, "
        "broker 192.168.1.20:1883"]
    assert online_cmd.said(lines) == [
        "attila flash: reset; the board says: attila: 4x5 on picow, 20 squares"]
    local = lines[:2] + ["attila: online.json: this board has no Wi-Fi (no network.WLAN): "
                         "playing locally"]
    assert online_cmd.said(local, online=True)[1] == (
        "attila flash: the board says: attila: online.json: this board has no Wi-Fi (no "
        "network.WLAN): playing locally")
    assert online_cmd.said(lines[:1], online=True)[1].startswith(
        "attila flash: the board has said nothing of online play yet")
