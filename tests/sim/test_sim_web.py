"""attila_sim.web, the board page's side in Python, on CPython (no browser needed).

The page runs this module under MicroPython's WebAssembly port
(tests/browser drive it there); here the same calls are checked against the
simulator's own scripted mode.
"""

import json
import os

import pytest

from attila_sim import script, web
from attila_sim.app import main
from attila_tools import replayfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAME = os.path.join(ROOT, "tests", "browser", "game.script")
# A game of tests/tools and its `attila analyse` output (in analyse/ since the
# tools' tests were grouped by job).
_TOOLS = os.path.join(ROOT, "tests", "tools")
_FOLDER = os.path.join(_TOOLS, "analyse")
_FOLDER = _FOLDER if os.path.isdir(_FOLDER) else _TOOLS
LOG = os.path.join(_FOLDER, "game-4x5.log")
ANALYSIS = os.path.join(_FOLDER, "game-4x5.analysis")
LAYOUT_NAMES = ["%s%d" % (f, r) for r in range(1, 5) for f in "abcde"]  # 4x5, square order


@pytest.fixture
def page(monkeypatch):
    monkeypatch.chdir(ROOT)
    return web.Page("boards")


def sim(capsys, *args):
    assert main(list(args)) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def by_clicks(page, line):
    """A script line as the page's clicks; the state after the last."""
    names = page.rig.layout.names
    if line in ("undo", "menu"):
        return page.button(line)
    if line == "drop":
        return page.drop()
    words = line.split()
    if words[0] in ("lift", "put"):
        return page.click(names.index(words[1]))
    squares = line.lstrip("@").replace("-", " ").replace(",", " ").split()
    for sq in squares:
        state = page.click(names.index(sq))
    return state


def test_clicks_on_the_steps_clock_give_the_scripts_records(page, capsys):
    records = sim(capsys, "--script", GAME, "--level", "strong")
    page.start("4x5", level="strong", clock="steps")
    for want in records:
        got = json.loads(by_clicks(page, want["do"]))
        leds = {page.rig.layout.names[i]: c for i, c in enumerate(got["leds"]) if c}
        assert (want["do"], got["status"], leds, got["position"], got["t"]) == \
            (want["do"], want["status"], want["leds"], want["position"], want["t"])


def test_a_knight_onto_a_scorched_square_is_told_it_is_scorched(page):
    page.start("4x5", computer="", clock="steps")
    names = page.rig.layout.names
    for line in ("@a1", "@e4", "@b1", "@e3", "@c4", "@a3", "b1-d2,b1", "e3-c2,e3", "lift d2"):
        by_clicks(page, line)
    got = json.loads(page.click(names.index("b1")))
    assert got["message"] == "b1 is scorched: a knight cannot land there"
    assert got["hand"] == "R"  # still held
    got = json.loads(page.click(names.index("c4")))
    assert got["message"] == "c4 is taken"


def test_the_live_clock_runs_with_the_frames(page):
    first = json.loads(page.start("4x5", computer="", clock="live"))
    got = json.loads(page.click(0))
    assert got["pieces"][0] == "R" and got["leds"] == first["leds"]  # not sensed yet
    assert page.tick(1) is None  # nothing new to draw
    for _ in range(10):
        state = page.tick(16)
        got = json.loads(state) if state else got
    assert got["status"] == "Huns: place a knight on a lit square (knight 1 of 3)"
    before = page.rig.now
    page.tick(10 ** 6)  # a frame after a long pause: the clock lags behind instead
    assert before < page.rig.now <= before + web.MAX_LAG_MS


def test_a_reload_resumes_the_save(page):
    page.start("4x5", computer="", clock="steps")
    page.click(0)
    save = page.rig.store.text
    assert save and "log @a1" in save
    got = json.loads(page.start("4x5", computer="", clock="steps", saved=save))
    assert got["mode"] == "resume" and got["pieces"][0] == "R"
    assert got["status"].startswith("Saved game found (1 action, Huns to place)")


def test_a_save_that_does_not_fit_starts_a_new_game(page):
    got = json.loads(page.start("cross", clock="steps",
                                saved="attila-save 1\nrows .../...\nfirst R\ntiles 1\nlog\n"))
    assert got["mode"] == "play"
    assert got["message"].startswith("The saved game was not resumed (")


def test_replay_and_analysis(page, tmp_path):
    page.start("4x5", clock="steps")
    got = json.loads(page.replay("game.log", LOG))
    assert got["steps"][:2] == ["@d2", "@c2"] and got["replay"] == [0, 18, ""]
    with open(ANALYSIS) as f:
        text = f.read()
    got = json.loads(page.analysis("game.analysis", text))
    assert got["marks"][3].startswith("won -> lost threw the win away: @b3 wins")
    got = json.loads(page.next(-1))
    assert got["replay"][:2] == [18, 18]
    other = text.replace(" @c1 ", " @b3 ")
    assert json.loads(page.analysis("other.txt", other)) == {
        "error": "other.txt line '4. Huns   @b3          won         -> lost        threw the "
                 "win away: @b3 wins (one of 3 winning placements)': not an analysis of this "
                 "game (step 4 is @c1)"}


def test_a_bad_replay_file_names_the_file(page, tmp_path):
    page.start("4x5", clock="steps")
    bad = tmp_path / "upload"
    bad.write_bytes(b"@a1 @z9\n")
    got = json.loads(page.replay("mine.txt", str(bad)))
    assert got["error"].startswith("mine.txt: ") and "z9" in got["error"]
    assert str(bad) not in got["error"]
    assert page.rig.replay_progress() == (0, 0)  # the game in play stays


def test_script_record_keys_the_page_compares(page):
    # The page's state carries what script.record() writes for the same rig.
    page.start("4x5", clock="steps")
    rec = script.record(page.rig, 1, "x")
    got = json.loads(page.state(force=True))
    for key in ("t", "mode", "status", "position"):
        assert got[key] == rec[key]


def test_a_saved_game_replays_on_its_own_layout(page, tmp_path):
    from attila.saves.store import Store

    page.start("cross", computer="", clock="steps")
    names = page.rig.layout.names
    for sq in names[:2]:
        page.click(names.index(sq))
    path = tmp_path / "game.txt"
    Store(str(path)).save(page.rig.store.text)  # as a board writes it: with its checksum
    page.start("4x5", clock="steps")
    got = json.loads(page.replay("game.txt", str(path)))
    assert page.name == "cross" and got["steps"] == ["@" + n for n in names[:2]]
    got = json.loads(page.next(-1))
    assert got["replay"] == [2, 2, "replay step 2 of 2: @%s" % names[1]]


PLAY_ON_WASM = r'''
import json
from attila_sim import web
page = web.Page("boards")
page.start("4x5", level="strong", clock="steps")
names = page.rig.layout.names
for line in LINES:
    if line in ("undo", "menu"):
        state = page.button(line)
    elif line == "drop":
        state = page.drop()
    else:
        words = line.split()
        squares = [words[1]] if words[0] in ("lift", "put") else \
            line.lstrip("@").replace("-", " ").replace(",", " ").split()
        for sq in squares:
            state = page.click(names.index(sq))
    got = json.loads(state)
    print(json.dumps([line, got["status"], got["leds"], got["position"], got["t"]]))
'''


def test_the_page_files_on_micropython_webassembly(capsys, tmp_path):
    """The files the docs build gives the page, under the port the page loads
    (in Node): the script's frames, as on CPython."""
    import shutil
    import subprocess
    import sys

    run = os.path.join(ROOT, "tools", "wasm", "run.mjs")
    port = os.path.join(ROOT, "tools", "wasm", "node_modules", "@micropython")
    if not shutil.which("node") or not os.path.isdir(port):
        pytest.skip("no Node or no MicroPython WebAssembly package (make install)")
    site = tmp_path / "board"
    subprocess.run([sys.executable, os.path.join(ROOT, "docs", "hooks", "board.py"), str(site)],
                   check=True)
    records = sim(capsys, "--script", GAME, "--level", "strong")
    code = "LINES = %r\n" % [r["do"] for r in records] + PLAY_ON_WASM
    proc = subprocess.run(["node", run, "--copy", "%s=/w" % (site / "py"), "--path", "/w",
                           "--cwd", "/w", "--exec", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    got = [json.loads(line) for line in proc.stdout.splitlines()]
    files = json.loads((site / "files.json").read_text())["files"]
    assert "attila/play/controller.py" in files and "attila_sim/web.py" in files
    assert len(got) == len(records)
    for (line, status, leds, position, t), want in zip(got, records):
        lit = {sq: c for sq, c in zip(LAYOUT_NAMES, leds) if c}
        assert (line, status, lit, position, t) == \
            (want["do"], want["status"], want["leds"], want["position"], want["t"])


def _host_reader():
    """The simulator's own reader of --replay files."""
    try:
        from attila_tools.gamefiles import load_replay  # the tools regrouped
    except ImportError:
        from attila_sim.rig import load_replay
    return load_replay


@pytest.mark.parametrize("data", [
    b"@d2 @c2 @c3 @c1\n",
    b"# a comment\nfirst H\n@a1 @e4 # more\n",
    b"@a1 @a1\n",
    b"first X\n@a1\n",
    b"# nothing\n",
    b"@a1 @z9\n",
    b"a1-b3,c1\n",
])
def test_the_pages_reader_says_what_the_simulators_says(tmp_path, data):
    from attila.game import layoutfile

    layout, _modules, tiles = layoutfile.load(os.path.join(ROOT, "boards", "4x5.json"))
    path = tmp_path / "game.txt"
    path.write_bytes(data)
    try:
        want = _host_reader()(str(path), layout, tiles)
    except Exception as e:  # noqa: BLE001 - the words are compared
        want = str(e).replace(str(path), "game.txt")
    try:
        got = replayfile.read_game(data, "game.txt", layout, tiles)
    except Exception as e:  # noqa: BLE001
        got = str(e)
    assert got == want


def test_the_page_loads_the_firmware_files_attila_flash_copies():
    import importlib.util

    try:
        from attila_tools.board import build  # the tools regrouped
    except ImportError:
        from attila_tools import build
    spec = importlib.util.spec_from_file_location(
        "board_hook", os.path.join(ROOT, "docs", "hooks", "board.py"))
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    flashed = [dest for dest, _src in build.sources() if dest.startswith("attila/")]
    page = [rel for rel, _src in hook.sources() if rel.startswith("attila/")]
    assert page == flashed and "attila/play/controller.py" in page
