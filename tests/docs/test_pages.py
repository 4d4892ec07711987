"""The pages as a reader meets them: lists that render as lists, words that
mean one thing (issue 33 items 14 and 15)."""

import glob
import os
import re

import markdown

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGES = sorted(glob.glob(os.path.join(ROOT, "docs", "pages", "**", "*.md"), recursive=True))
READERS = PAGES + [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "boards", "profiles",
                                                                   "README.md")]


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def glued_items(text):
    """List items that Markdown reads as a paragraph's text: a "- " or "1. "
    line straight after a paragraph, with no blank line between (the strict
    build passes them)."""
    html = markdown.markdown(text, extensions=["admonition", "attr_list", "md_in_html",
                                               "tables", "pymdownx.superfences"])
    found = []
    for para in re.findall(r"<p>(.*?)</p>", html, re.S):
        found += [m.strip() for m in re.findall(r"\n\s*(?:[-*+]|\d+\.) \S[^\n]*", para)]
    return found


def test_a_list_item_glued_to_a_paragraph_is_found():
    assert glued_items("Some words\nabout it.\n- **An item**: not a list\n") == [
        "- <strong>An item</strong>: not a list"]
    assert glued_items("Some words.\n\n- an item\n- another\n") == []


def test_no_page_has_a_list_item_glued_to_a_paragraph():
    glued = [(os.path.relpath(p, ROOT), item) for p in READERS for item in glued_items(_read(p))]
    assert glued == []


def test_the_first_turn_of_play_is_the_games_not_the_boards():
    # The opening table covers the game's first turn of play (right after
    # setup), which the board plays only when it placed first.
    said = [os.path.relpath(p, ROOT) for p in READERS
            if "board's first turn" in " ".join(_read(p).split())]
    assert said == []


def test_no_page_quotes_a_count_or_a_bar_it_does_not_say():
    # Issue 33 item 17: "verified 48 files" (the count grows with the firmware)
    # and "the bar" (which issue? what bar?) on the pages.
    figures = sorted(glob.glob(os.path.join(ROOT, "docs", "figures", "*.md")))
    benches = sorted(glob.glob(os.path.join(ROOT, "tools", "bench", "*.py")))
    found = []
    for path in READERS + figures + benches:
        text = " ".join(_read(path).split())
        if re.search(r"verified \d+ files", text) or "issue's bar" in text:
            found.append(os.path.relpath(path, ROOT))
    assert found == []


def test_the_emulated_pico_page_says_one_thing_of_circuitpython():
    # Issue 33 item 10: it said CircuitPython profiles run, and further down that they
    # are refused; no page said how to boot the --drive folder on the emulated chip.
    text = " ".join(_read(os.path.join(ROOT, "docs", "pages", "flash", "emulated.md")).split())
    refused = text.split("Only the RP2040 can be emulated:")[1].split(".")[0]
    assert "circuitpython" not in refused
    assert "attila flash --drive /tmp/mycp/CIRCUITPY --profile boards/profiles/" \
           "circuitpython-pico.json" in text
    assert "tools/pico/serve.py --state /tmp/mycp --profile boards/profiles/" \
           "circuitpython-pico.json" in text
