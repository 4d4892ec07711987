"""The board page (docs/pages/play/board) in headless Chromium: how fast it answers.

    python tools/bench/bench_browser.py      (make bench runs it)

  open -> first frame   from the navigation to the first board drawn (a fresh
                        browser profile each time: nothing cached), which
                        loads MicroPython's WebAssembly port and the firmware
  click -> LEDs         from a click on a square to the first frame whose LEDs
                        differ, on the live clock (the board's own 30 ms
                        debounce included, as on a real board)
  decisions             each level's decisions as the page's player waits for
                        them (the board plays the Huns; the page's clock runs
                        with the frames, the search in slices of them)

Needs Chromium (/usr/bin/chromium) and Playwright for Python; says so and
exits 0 where they are missing, so the rest of make bench runs on.
"""

import functools
import http.server
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from benchkit import ROOT, reach  # (first: the paths)

reach("tests", "browser")
from pagekit import ARGS, CHROMIUM, BoardPage, why_not  # noqa: E402

from attila_sim.web import FRAME_BUDGET_MS  # noqa: E402

OPENS = 5
LEVELS = ("beginner", "easy", "normal", "strong")
DECISIONS = 8  # the board's decisions measured per level (a game, at most)
CLICKS = "b1 a2 c2 d2 c3 c4 c2 b4 c1 c4 a3 a1".split()  # @b1 ... c2-b4,c1 c4-a3,a1
BOARD_SAYS = re.compile(r"The board plays the \w+: (?:put a knight on|lift the knight on|"
                        r"put the knight on|put a tile on) ([a-z]\d+)$")
LISTED = re.compile(r"\(([a-z0-9 ]+)\)$")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(folder):
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=folder))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def ms(values):
    return "%.0f ms (%.0f-%.0f)" % (statistics.median(values), min(values), max(values))


def lit_free(board):
    return board.tab.evaluate("""() => [...document.querySelectorAll('.square')]
        .filter(e => e.dataset.led && !e.dataset.piece).map(e => e.dataset.square)""")


def human(board, status):
    """The Romans' next click, the plainest legal one the status line allows."""
    rest = status[len("Romans: "):]
    if rest.startswith(("place a knight", "put a tile")):
        return lit_free(board)[0]
    if rest.startswith("lift a knight that can move"):
        return LISTED.search(rest).group(1).split()[0]
    if rest.startswith("put the knight on "):
        return rest[len("put the knight on "):].replace(",", " ").split()[0]
    raise RuntimeError("unexpected status: %s" % status)


def changed(board, old):
    board.tab.wait_for_function(
        "old => document.getElementById('status').textContent !== old", arg=old,
        timeout=120000)
    return board.shown()["status"]


def decisions(board, level):
    """The board's decisions over one game (at most DECISIONS of them)."""
    board.new_board(computer="H", level=level)
    status = board.shown()["status"]
    while not status.startswith("Game over"):
        seen = board.tab.evaluate(
            "level => window.attilaTimes.decisions.filter(d => d.level === level).length",
            level)
        if seen >= DECISIONS:
            break
        said = BOARD_SAYS.match(status)
        if said:
            board.square(said.group(1))
        elif "thinking..." in status:
            status = changed(board, status)
            continue
        elif status.startswith("Romans: "):
            board.square(human(board, status))
        else:
            raise RuntimeError("unexpected status: %s" % status)
        status = changed(board, status)
    return [d for d in board.tab.evaluate("window.attilaTimes.decisions")
            if d["level"] == level]


def main():
    why = why_not()
    if why:
        print("bench_browser: skipped: %s" % why)
        return 0
    from playwright.sync_api import sync_playwright

    site = tempfile.mkdtemp(prefix="attila-site-")
    subprocess.run([sys.executable, os.path.join(ROOT, "docs", "hooks", "board.py"),
                    os.path.join(site, "play", "board")], check=True)
    size = sum(os.path.getsize(os.path.join(d, f))
               for d, _, fs in os.walk(os.path.join(site, "play", "board")) for f in fs)
    httpd = serve(site)
    base = "http://127.0.0.1:%d" % httpd.server_port
    print("The board page in headless Chromium (%s), served from 127.0.0.1; "
          "%d KB of files (the WebAssembly port, the firmware, the layouts and books)."
          % (CHROMIUM, size // 1024))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        firsts = []
        for _ in range(OPENS):
            context = browser.new_context(viewport={"width": 1000, "height": 900})
            board = BoardPage(context, base)
            board.open()
            firsts.append(board.tab.evaluate("window.attilaTimes.firstFrame"))
            context.close()
        print("open -> first frame:  %s, %d fresh profiles" % (ms(firsts), OPENS))

        context = browser.new_context(viewport={"width": 1000, "height": 900})
        board = BoardPage(context, base)
        board.open()
        board.new_board(computer="")
        for name in CLICKS:
            board.square(name)
            time.sleep(0.7)  # the squares still: the board saves, the LEDs settle
        clicks = board.tab.evaluate("window.attilaTimes.clicks")
        print("click -> LEDs:        %s, %d clicks (the board's 30 ms debounce included)"
              % (ms(clicks), len(clicks)))

        print("decisions of the board (Huns) in a game against the page's plainest "
              "player, the setup book on")
        print("(from the player's last piece down: the board's 500 ms of still squares "
              "before it starts included):")
        print("  %-9s %9s  %-24s %s" % ("level", "decisions", "waited in the page",
                                       "on the board's clock"))
        for level in LEVELS:
            got = decisions(board, level)
            print("  %-9s %9d  %-24s %s" % (
                level, len(got), ms([d["ms"] for d in got]), ms([d["clock"] for d in got])))
        longest = board.tab.evaluate("window.attilaTimes.longestThinkingFrame")
        print("longest frame while the board thought: %.0f ms (the search runs in slices "
              "of at most %d ms a frame)" % (longest, FRAME_BUDGET_MS))
        context.close()
        if board.errors:
            print("console errors: %s" % "; ".join(board.errors))
            return 1
        browser.close()
    httpd.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
