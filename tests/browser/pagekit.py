"""The board page in a real browser: headless Chromium driven by Playwright.

Playwright for Python (pinned in requirements.txt) rather than Selenium: it
drives Debian's own `chromium` over the DevTools protocol with no separate
driver binary to match to the browser's version (Selenium needs
chromium-driver, one more package that must move in step), it waits for the
page by itself and it hands over the console's messages and the page's
errors as events. It never downloads a browser here: `playwright install` is
not run; the browser is /usr/bin/chromium, installed by `make chromium` (part of make test)
(apt) where it is missing.

The site: built as `make docs` builds it (MkDocs, strict), its board page
beside the files the docs build puts there (docs/hooks/board.py); without
MkDocs, the board's folder alone by that same hook. Served by Python's
http.server on 127.0.0.1 only. Where Chromium or
Playwright is missing, every test here is skipped with the reason.
"""

import json
import os


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHROMIUM = os.environ.get("ATTILA_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
READY_MS = 60000  # the page's first frame, on a busy machine


def why_not():
    """Why the browser tests cannot run here, or ""."""
    if not os.path.isfile(CHROMIUM):
        return "no Chromium at %s (Debian: apt-get install chromium; make test does it " \
               "as root)" % CHROMIUM
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (make install)"
    return ""


class BoardPage:
    """One browser tab on the board page, with what its console said."""

    def __init__(self, context, base):
        self.context = context
        self.base = base
        self.tab = context.new_page()
        self.errors = []
        self.tab.on("console", self._console)
        self.tab.on("pageerror", lambda e: self.errors.append("page error: %s" % e))

    def _console(self, msg):
        if msg.type == "error":
            self.errors.append("console: %s" % msg.text)

    def open(self, query=""):
        self.tab.goto("%s/play/board/index.html%s" % (self.base, query))
        self.tab.wait_for_selector("html[data-ready='1']", timeout=READY_MS)

    def new_board(self, layout="4x5", first="R", computer="", level="strong", book=True):
        t = self.tab
        t.select_option("#layout", layout)
        t.select_option("#first", first)
        t.select_option("#computer", computer)
        t.select_option("#level", level)
        t.set_checked("#book", book)
        t.click("#new")

    def square(self, name):
        self.tab.click("[data-square='%s']" % name)

    def press(self, button):
        self.tab.click("#" + button)

    def shown(self):
        """What the page shows: status, mode, position, {square: "rrggbb"} lit."""
        return self.tab.evaluate("""() => ({
            status: document.getElementById('status').textContent,
            mode: document.getElementById('mode').textContent,
            position: document.getElementById('position').textContent,
            message: document.getElementById('message').textContent,
            leds: Object.fromEntries([...document.querySelectorAll('.square')]
                .filter(e => e.dataset.led).map(e => [e.dataset.square, e.dataset.led])),
        })""")


def sim_records(args, script_text, tmp_path):
    """What `attila sim --script` writes for these lines: one record per line
    (its main(), in this process)."""
    import contextlib
    import io

    from attila_sim.app import main

    path = tmp_path / "game.script"
    path.write_text(script_text)
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out):
            status = main(["--script", str(path)] + list(args))
    finally:
        os.chdir(cwd)
    assert status == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def analysed_game():
    """(game log, its `attila analyse` output) of the tools' tests."""
    tools = os.path.join(ROOT, "tests", "tools")
    folder = os.path.join(tools, "analyse")  # since the tools' tests were grouped by job
    if not os.path.isdir(folder):
        folder = tools
    return os.path.join(folder, "game-4x5.log"), os.path.join(folder, "game-4x5.analysis")
