"""The board page plays online (mqtt.js over WebSocket, the firmware's party
under MicroPython's WebAssembly port) against a board on MicroPython's unix
port, through a real mosquitto: a whole game, the page closed and opened
again mid-game (its storage resumes it; the broker kept what it missed)."""

import os
import re
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "online"))  # the online tests' helpers

from brokerkit import need_mosquitto  # noqa: E402
from tools.broker.mosquitto import Mosquitto  # noqa: E402
from unixboard import UnixBoard, flashed, steps  # noqa: E402

from attila.game.geometry import from_rows  # noqa: E402
from attila.game.notation import play as play_action  # noqa: E402
from attila.game.rules import OVER, Game  # noqa: E402
from attila.opponent.chooser import action_text  # noqa: E402
from attila.play.plan import first_action  # noqa: E402

CODE = "castle-7fk2m9xq"
LAYOUT = from_rows(["....."] * 4)
PAGE = 0  # the page plays the Romans, the board the Huns
THEIRS = re.compile(r"^Huns \(their board\): (put a knight on|lift the knight on) ([a-z]\d)")
WAIT_MS = 30000


@pytest.fixture
def mosquitto(tmp_path):
    need_mosquitto()
    with Mosquitto(tmp_path / "broker") as m:
        yield m


@pytest.fixture(scope="module")
def firmware(tmp_path_factory):
    return flashed(str(tmp_path_factory.mktemp("flashed")))


class Page:
    """The page's hands and eyes."""

    def __init__(self, board_page):
        self.b = board_page
        self.t = board_page.tab

    def status(self):
        return self.b.shown()["status"]

    def wait_status(self, pattern, what):
        try:
            self.t.wait_for_function(
                "p => new RegExp(p).test(document.getElementById('status').textContent)",
                arg=pattern, timeout=WAIT_MS)
        except Exception as e:
            raise AssertionError("%s: the page says %r (%s)" % (what, self.status(), e))
        return self.status()

    def act(self, text):
        """Click the action: a placement, or lift, put, and a tile from beside the board;
        each click once the board has sensed the one before (its status changed)."""
        if text[0] == "@":
            self.click(text[1:])
            return
        move, _, burn = text.partition(",")
        a, _, b = move.partition("-")
        for square in (a, b, burn):
            self.click(square)

    def click(self, square):
        before = self.status()
        self.b.square(square)
        self.t.wait_for_function("old => document.getElementById('status').textContent !== old",
                                 arg=before, timeout=WAIT_MS)  # (the board sensed it)

    def join(self, broker_port):
        t = self.t
        if not t.is_visible("#room"):
            t.click("#online-panel summary")
        t.fill("#room", CODE)
        t.select_option("#side", "R")
        t.fill("#broker", "ws://127.0.0.1:%d" % broker_port)
        t.click("#join")


def play(page, board, game, stop=None):
    """Until the game is over: the page's player acts first_action; the board's
    actions are the board player's first_action; each carries out the other's."""
    while game.phase != OVER:
        if stop is not None and stop(game):
            return
        text = action_text(game.layout, first_action(game))
        if game.side == PAGE:
            page.wait_status(r"^Romans: (place a knight|lift a knight)", "the page's turn")
            page.act(text)
            board.wait_status(r"^Romans \(their board\): (put a knight on|lift the knight on)",
                              "the board showing %s" % text)
            board.do(steps(LAYOUT, board.mask, text))
        else:
            board.wait_status(r"^Huns: (place a knight|lift a knight)", "the board's turn")
            since = len(board.lines)
            board.do(steps(LAYOUT, board.mask, text))
            assert since >= 0
            status = page.wait_status(THEIRS.pattern, "the page showing %s" % text)
            first = text[1:] if text[0] == "@" else text.split("-")[0]
            assert status.endswith(first), (status, text)
            told = page.t.text_content("#told")
            assert told.startswith("Huns: %s (" % text), told
            page.act(text)
        play_action(game, text)
    end = page.wait_status(r"^Game over: ", "the page's game over")
    assert board.wait_status(r"^Game over: ") == end


def test_the_page_plays_a_board_through_mosquitto(board, mosquitto, firmware, tmp_path):
    unix = UnixBoard(tmp_path / "board", firmware, mosquitto.port, 1)
    try:
        unix.start()
        board.open()
        page = Page(board)
        page.join(mosquitto.ws_port)
        page.wait_status(r"^Romans: place a knight", "the page online")
        game = Game(LAYOUT)
        play(page, unix, game, stop=lambda g: len(g.history) >= 8 and g.side == PAGE)
        # The page is closed (its tab reloaded) mid-game: the save and the
        # room are in the browser's storage, the broker kept its session.
        board.open()
        page.wait_status(r"^Saved game found \(", "the saved game")
        board.press("menu")
        play(page, unix, game)
        # The page leaves the room (the board is told it is off) before the board goes.
        page.t.click("#local")
        unix.wait_status(r"\(the Romans' board offline: waiting\)$", "the page seen leaving")
    finally:
        unix.kill()


def test_a_room_code_or_broker_the_page_cannot_use_is_said(board):
    board.open()
    page = Page(board)
    t = page.t
    t.click("#online-panel summary")
    t.fill("#room", CODE)
    t.fill("#broker", "127.0.0.1:1883")  # (the simulator's way: the page needs WebSocket)
    t.click("#join")
    assert t.text_content("#message") == (
        "Online: the broker 127.0.0.1:1883: give it as ws://HOST:PORT (wss:// for TLS), like "
        "ws://192.168.1.20:9001: the page reaches it over WebSocket, not on MQTT's port 1883.")
    t.fill("#room", "castle")  # no secret
    t.fill("#broker", "ws://127.0.0.1:9001")
    t.click("#join")
    t.wait_for_function("() => document.getElementById('message').textContent !== ''")
    assert t.text_content("#message") == ("Online: room code 'castle': expected ROOM-SECRET, "
                                          "like castle-7fk2m9xq; playing here only.")
    assert page.status() == "Romans: place a knight on a lit square (knight 1 of 3)"
    # A reload plays here too (the room was not kept).
    board.open()
    page.wait_status(r"^Romans: place a knight on a lit square", "the page playing here")
    assert "online" not in page.status()
