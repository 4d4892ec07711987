"""The board page (docs/pages/play/board) in headless Chromium, driven by clicks.

What is compared is what the page shows: the status line and every lit
square's colour (the bytes of the controller's virtual strip), after each
line of a script, against `attila sim --script` for the same lines.
"""

import os
import re
import time

import pytest

from pagekit import ROOT, analysed_game, sim_records

HERE = os.path.dirname(os.path.abspath(__file__))


def clicks(board, line):
    """Carry out one script line by clicks on the page."""
    words = line.split()
    if line.startswith("@"):
        board.square(line[1:])
    elif words[0] in ("lift", "put"):
        board.square(words[1])
    elif line in ("undo", "menu"):
        board.press(line)
    elif line == "drop":
        board.tab.click("#drop")
    elif line == "next":
        board.tab.click("#next")
    else:
        move, _, burn = line.partition(",")
        if move:
            start, _, end = move.partition("-")
            board.square(start)
            board.square(end)
        board.square(burn)


def open_replay(board, log, analysis):
    """The page stepped by hand, a game file and its analysis loaded in its replay panel."""
    board.open("?clock=steps")
    board.tab.click("#replay-panel summary")
    board.tab.set_input_files("#replay-file", log)
    board.tab.wait_for_selector("#steps li")
    board.tab.set_input_files("#analysis-file", analysis)
    board.tab.wait_for_selector("#steps li.threw")


def script_lines(text):
    return [s.strip() for s in text.splitlines() if s.strip() and not s.startswith("#")]


def test_page_loads_with_no_console_error(board):
    board.open()
    shown = board.shown()
    assert shown["status"] == "Romans: place a knight on a lit square (knight 1 of 3)"
    assert len(shown["leds"]) == 20  # every square lit: where the knight may go


def test_a_game_by_clicks_shows_the_simulators_frames(board, tmp_path):
    with open(os.path.join(HERE, "game.script")) as f:
        text = f.read()
    records = sim_records(["--layout", "boards/4x5.json", "--level", "strong"], text, tmp_path)
    lines = script_lines(text)
    assert [r["do"] for r in records] == lines
    board.open("?clock=steps")
    board.new_board(level="strong")
    for line, want in zip(lines, records):
        clicks(board, line)
        got = board.shown()
        assert (line, got["status"], got["leds"], got["position"], got["mode"]) == \
            (line, want["status"], want["leds"], want["position"], want["mode"])
    assert got["status"].startswith("Game over: Romans win")


def test_a_replay_steps_with_the_leds_and_the_analysis_marks(board, tmp_path):
    log, analysis = analysed_game()
    steps = 18
    text = "next\n" * steps
    records = sim_records(["--replay", log, "--no-analysis"], text, tmp_path)
    open_replay(board, log, analysis)
    for want in records:
        clicks(board, "next")
        got = board.shown()
        assert (got["status"], got["leds"], got["position"]) == \
            (want["status"], want["leds"], want["position"])
    assert board.tab.text_content("#replay-said") == "replay step 18 of 18: b3-d2,b3"
    marked = board.tab.eval_on_selector_all(
        "#steps li.threw", "els => els.map(e => e.querySelector('code').textContent)")
    assert marked == ["@c1", "@a4", "b3-c1,d1", "b2-d3,a1"]  # the wins thrown away
    assert "threw the win away: @b3 wins" in board.tab.text_content("#steps li:nth-child(4)")


@pytest.mark.parametrize("name, data, reason", [
    # The simulator's words (attila sim --replay), the file named as the player chose it.
    ("twice.txt", b"@a1 @a1\n", "twice.txt: log item 2 '@a1': @a1: the square is taken"),
    ("photo.jpg", b"\xff\xd8\xff\xe0 not text",
     "photo.jpg: not a game: not UTF-8 text (expected a game log like @a1 @e4 ... "
     "b1-c3,d4 or a saved game)"),
    ("empty.txt", b"# nothing\n",
     "empty.txt: no game in it (expected a saved game or a log like @a1 @e4 ... b1-c3,d4)"),
    ("game.txt", b"attila-save 1\nlayout .....\n",
     "game.txt: the saved game is incomplete or damaged"),
])
def test_a_bad_game_file_gets_a_clear_message(board, name, data, reason):
    board.open()
    before = board.shown()
    board.tab.click("#replay-panel summary")
    board.tab.set_input_files("#replay-file", files=[
        {"name": name, "mimeType": "text/plain", "buffer": data}])
    board.tab.wait_for_function("document.getElementById('message').textContent != ''")
    got = board.shown()
    assert got["message"].startswith(reason)
    assert got["status"] == before["status"]  # the game in play is kept


def test_the_docs_page_holds_the_board(board, site):
    if not (site / "play" / "browser.html").exists():
        pytest.skip("MkDocs is not installed: the board's folder was built alone")
    board.tab.goto("%s/play/browser.html" % board.base)
    frame = board.tab.frame_locator("iframe[title='The Attila board']")
    frame.locator("html[data-ready='1']").wait_for(timeout=60000)
    assert frame.locator("#status").text_content() == \
        "Romans: place a knight on a lit square (knight 1 of 3)"


def test_every_layout_of_boards(board, tmp_path):
    """Each layout: its first frame, a placement and a hint as the simulator shows them."""
    names = sorted(n[:-5] for n in os.listdir(os.path.join(ROOT, "boards"))
                   if n.endswith(".json"))
    board.open("?clock=steps")
    assert board.tab.eval_on_selector_all("#layout option", "els => els.map(e => e.value)") \
        == names
    for name in names:
        board.new_board(layout=name, first="H", level="beginner")
        first = board.tab.get_attribute(".square", "data-square")
        text = "@%s\nmenu\n" % first
        records = sim_records(["--layout", "boards/%s.json" % name, "--first", "H",
                               "--level", "beginner"], text, tmp_path)
        for line, want in zip(script_lines(text), records):
            clicks(board, line)
            got = board.shown()
            assert (name, line, got["status"], got["leds"], got["position"]) == \
                (name, line, want["status"], want["leds"], want["position"])


def test_keys_u_and_m_are_the_buttons(board):
    board.open("?clock=steps")
    board.new_board(level="beginner")
    board.square("b1")
    board.tab.keyboard.press("m")  # a hint
    assert "(hint: put a Hun knight on " in board.shown()["status"]
    board.tab.keyboard.press("u")  # the placement on b1 taken back: lift it
    assert board.shown()["status"] == \
        "Undo the placement on b1: take the Roman knight off b1"


def test_the_replay_list_keeps_its_lines_apart_at_900_px(board):
    # The two columns of steps keep apart at 900 px.
    log, analysis = analysed_game()
    board.tab.set_viewport_size({"width": 900, "height": 900})
    open_replay(board, log, analysis)
    shot = os.environ.get("ATTILA_SHOT")
    if shot:
        board.tab.locator("#replay-panel").screenshot(path=shot)
    # Every line's box (its marker's number included) clear of every other line's.
    boxes = board.tab.eval_on_selector_all("#steps li", """els => els.map(e => {
        const r = e.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(e);
        const t = range.getBoundingClientRect();
        return [Math.min(r.left, t.left) - 24, r.top, Math.max(r.right, t.right), r.bottom,
                t.right <= r.right + 0.5];
    })""")
    assert len(boxes) == 18
    assert all(b[4] for b in boxes), "a line's text runs past its box"
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5
            assert apart, (a, b)


def test_the_page_opens_with_the_settings_its_form_and_the_simulator_show():
    # The page starts at the level its form and `attila sim` start at: strong.
    board = os.path.join(ROOT, "docs", "pages", "play", "board")
    with open(os.path.join(board, "board.js"), encoding="utf-8") as f:
        defaults = dict(re.findall(r'(\w+): "(\w*)"', re.search(
            r"const DEFAULTS = \{(.*?)\};", f.read()).group(1)))
    with open(os.path.join(board, "index.html"), encoding="utf-8") as f:
        html = f.read()
    for name in ("first", "computer", "level"):
        select = re.search(r'<select id="%s".*?</select>' % name, html, re.S).group(0)
        options = re.findall(r'<option(?: value="(\w*)")?( selected)?>(\w+)</option>', select)
        chosen = [value or text for value, selected, text in options if selected] or \
            [options[0][0] or options[0][2]]
        assert chosen == [defaults[name]], name
    assert defaults["level"] == "strong"  # attila sim's default level
