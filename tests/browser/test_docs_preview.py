"""`make docs-preview` serves pages a headless browser finishes loading.

MkDocs' live reload (`make docs-serve`) keeps a request open on every page,
so a browser that waits for the network to go quiet (a scripted screenshot,
a check of the docs) never saw the page finish. The preview is the same site
without it: the home page and the browser page must load, network quiet
included, in headless Chromium.
"""

import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request

from pagekit import ROOT

# Against a hang only (the server's first build, a page and its iframe on a
# machine shared with other jobs): no judgement of speed.
HANG_GUARD_S = 120
PAGES = (("index.html", "Attila board"), ("play/browser.html", "Play in your browser"))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _answers(url, proc, until):
    """Wait until the server answers `url`; False when it stopped or time ran out."""
    while time.monotonic() < until:
        if proc.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return r.status == 200
        except OSError:
            time.sleep(0.5)
    return False


def test_make_docs_preview_serves_pages_a_headless_browser_finishes(browser, tmp_path):
    make = shutil.which("make")
    assert make, "no make"
    base = "http://127.0.0.1:%d" % _free_port()
    log = tmp_path / "preview.log"
    # A make of its own, not a job of the make that runs these tests.
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    with open(log, "w") as out:
        proc = subprocess.Popen([make, "-s", "docs-preview", "DOCS_ADDR=" + base[7:]], cwd=ROOT,
                                env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        until = time.monotonic() + HANG_GUARD_S
        assert _answers(base + "/index.html", proc, until), (
            "make docs-preview did not serve %s: %s" % (base, log.read_text()[-2000:]))
        context = browser.new_context()
        try:
            tab = context.new_page()
            for path, title in PAGES:
                left_ms = max(1000, int((until - time.monotonic()) * 1000))
                # "networkidle": no request open for 0.5 s, which live reload never allows.
                tab.goto("%s/%s" % (base, path), wait_until="networkidle", timeout=left_ms)
                assert title in tab.title(), (path, tab.title())
                assert tab.evaluate("document.readyState") == "complete"
        finally:
            context.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # make and the server it started
        proc.wait(timeout=30)
