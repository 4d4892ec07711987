"""Fixtures of the board page's tests (see pagekit for what they drive)."""

import functools
import http.server
import os
import subprocess
import sys
import threading

import pytest

from pagekit import ARGS, CHROMIUM, ROOT, BoardPage, why_not


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """A folder with the built board page at play/board/."""
    why = why_not()
    if why:
        pytest.skip(why)
    root = tmp_path_factory.mktemp("site")
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        # Only the board's folder, by the function the docs build calls.
        cmd = [sys.executable, os.path.join(ROOT, "docs", "hooks", "board.py"),
               str(root / "play" / "board")]
    else:
        # The whole site, as `make docs` builds it.
        cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
               "-f", os.path.join(ROOT, "docs", "mkdocs.yml"), "-d", str(root)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert proc.returncode == 0, proc.stderr
    return root



class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def server(site):
    """The site served on 127.0.0.1 (a free port); its base URL."""
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d" % httpd.server_port
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def browser(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        # launch() gives the browser a fresh profile (user data dir) of its own.
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()



@pytest.fixture
def board(browser, server):
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    b = BoardPage(context, server)
    yield b
    context.close()
    assert not b.errors, "the page's console: %s" % "; ".join(b.errors)

