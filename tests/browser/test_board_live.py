"""A whole game against the computer on the board page, on the live clock.

The board's own actions are carried out as a player does: by reading its
status line and moving its pieces; the player's own come from the board's
hints (MENU). Half-way, the page is reloaded: the saved game is found in the
browser's storage and resumed with MENU, as a board does after a power cut.
"""

import re
import time

from attila.play.presses import NEW_GAME_MS

BOARD_SAYS = re.compile(r"The board plays the (Romans|Huns): (put a knight on|lift the knight on|"
                        r"put the knight on|put a tile on) ([a-z]\d+)$")
HINT = re.compile(r"\(hint: (?:put a \w+ knight on|put a tile on) ([a-z]\d+)\)$|"
                  r"\(hint: move the \w+ knight on ([a-z]\d+) to ([a-z]\d+), "
                  r"then put a tile on ([a-z]\d+)\)$")
SAVED = """n => {
    const save = JSON.parse(localStorage.getItem('attila-board') || '{}').save || '';
    const log = save.match(/^log (.*)$/m);
    return log !== null && log[1].split(' ').length === n;
}"""
GAME_S = 300  # the whole game, at most (beginner: about 20 s on an idle machine)


def changed(board, old, timeout_ms=60000):
    """Wait until the status line is no longer `old`; the new one (the failure names it)."""
    try:
        board.tab.wait_for_function(
            "old => document.getElementById('status').textContent !== old", arg=old,
            timeout=timeout_ms)
    except Exception as e:
        raise AssertionError("the status line stayed %r for %d s: %s"
                             % (old, timeout_ms // 1000, e)) from e
    return board.shown()["status"]


# Between two MENU presses, on the board's own clock (window.attilaClock):
# three within NEW_GAME_MS are a new game.
HINT_GAP_MS = NEW_GAME_MS + 100


def clock(board):
    """The board's clock on the page (ms)."""
    return board.tab.evaluate("() => window.attilaClock()")


def play(board, reload_after=None):
    """Play to the end; returns (status at the end, board's actions, player's actions)."""
    queue = []
    own = mine = 0
    reloaded = False
    pressed = None  # when MENU was last pressed (the board's clock)
    end = time.monotonic() + GAME_S
    status = board.shown()["status"]
    while not status.startswith("Game over"):
        assert time.monotonic() < end, "no end of the game in %d s: %s" % (GAME_S, status)
        if reload_after is not None and not reloaded and mine + own >= reload_after \
                and not queue and status.startswith("Romans: "):
            # The board saves once the squares have been still for half a second.
            board.tab.wait_for_function(SAVED, arg=mine + own, timeout=10000)
            position = board.shown()["position"]
            board.open()
            status = board.shown()["status"]
            assert status.startswith("Saved game found (") and \
                status.endswith("The board matches it"), status
            assert board.shown()["position"] == position
            board.press("menu")
            pressed = clock(board)
            status = changed(board, status)
            reloaded = True
            continue
        said = BOARD_SAYS.match(status)
        if said:
            board.square(said.group(3))
            own += said.group(2) in ("put a knight on", "put a tile on")
        elif queue:
            board.square(queue.pop(0))
        elif "thinking..." in status:
            status = changed(board, status)
            continue
        elif status.startswith("Romans: "):
            hint = HINT.search(status)
            if hint is None:
                # (HINT_GAP_MS: a player asks for hints further apart than
                # this one, which moves at once)
                if pressed is not None:
                    board.tab.wait_for_function("t => window.attilaClock() >= t",
                                                arg=pressed + HINT_GAP_MS, timeout=60000)
                pressed = clock(board)
                board.press("menu")
            else:
                queue = [g for g in hint.groups() if g]
                mine += 1
                continue
        else:
            raise AssertionError("unexpected status: %s" % status)
        status = changed(board, status)
    assert reload_after is None or reloaded
    return status, own, mine


def test_a_whole_game_against_the_computer_with_a_reload(board):
    board.open()
    board.new_board(computer="H", level="beginner")
    status, own, mine = play(board, reload_after=8)
    assert re.match(r"Game over: (Romans|Huns) win, (Huns|Romans) cannot move", status)
    assert own >= 3 and mine >= 3  # every placement at least, each side
    times = board.tab.evaluate("window.attilaTimes")
    assert times["decisions"], "the board's thinking was never seen on the page"
