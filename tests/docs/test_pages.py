"""The pages as a reader meets them: lists that render as lists, the board's
words quoted as the firmware says them."""

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


def said_by_the_firmware():
    """A pattern for each line the firmware and the `attila` command can print
    (`attila: ...`): their string literals, their %-fields matching anything."""
    import ast

    patterns = []
    for folder in ("firmware", os.path.join("tools", "attila_tools")):
        for top, _dirs, names in os.walk(os.path.join(ROOT, folder)):
            for name in sorted(n for n in names if n.endswith(".py")):
                code = ast.parse(_read(os.path.join(top, name)))
                patterns += [_pattern(node.value) for node in ast.walk(code)
                             if isinstance(node, ast.Constant) and isinstance(node.value, str)
                             and len(node.value) > 12]
    return patterns


def _pattern(literal):
    """A literal's pattern: its %-fields match anything; "attila: " is the console's."""
    text = " ".join(literal.split())
    if text.startswith("attila: "):
        text = text[len("attila: "):]
    parts = re.split(r"%(?:\([a-z]+\))?[-0-9.]*[sdrx]", text.replace("%%", "%"))
    return re.compile(".+".join(re.escape(p) for p in parts))


def quoted(text):
    """The board's console lines a page quotes (`attila: ...`), its "..." any words."""
    text = " ".join(text.split())
    return [q.strip().rstrip(".") for q in re.findall(r"attila: ([^`\n]+?)(?:`|$)", text)]


def test_the_pages_quote_the_boards_console_as_the_firmware_says_it():
    patterns = said_by_the_firmware()
    found = []
    for path in READERS:
        body = _read(path)
        lines = quoted(body) + [line.strip()[len("attila: "):] for line in body.splitlines()
                                if line.strip().startswith("attila: ")]
        for line in lines:
            pieces = [re.escape(p) for p in line.split("...")]
            if not any(p.search(line) or re.search(".*".join(pieces), p.pattern.replace("\\", ""))
                       for p in patterns):
                found.append("%s: attila: %s" % (os.path.relpath(path, ROOT), line))
    assert found == [], "quoted as the firmware does not say it:\n" + "\n".join(found)


def test_a_console_line_quoted_otherwise_is_found():
    said = _pattern("attila: card not used (%s): the board searches")
    assert quoted("says `attila: card not used (no SD card): the board\nsearches`.") == [
        "card not used (no SD card): the board searches"]
    assert said.search("card not used (no SD card): the board searches")
    assert not said.search("card not used: the board searches")
    assert not _pattern("opening table: the game's first turn of play is exact").search(
        "opening table: the board's first turn of play is exact")


def test_the_emulated_pico_page_says_one_thing_of_circuitpython():
    # It says CircuitPython profiles are refused, and how to boot the --drive
    # folder on the emulated chip.
    text = " ".join(_read(os.path.join(ROOT, "docs", "pages", "flash", "emulated.md")).split())
    refused = text.split("Only the RP2040 can be emulated:")[1].split(".")[0]
    assert "circuitpython" not in refused
    assert "attila flash --drive /tmp/mycp/CIRCUITPY --profile boards/profiles/" \
           "circuitpython-pico.json" in text
    assert "tools/pico/serve.py --state /tmp/mycp --profile boards/profiles/" \
           "circuitpython-pico.json" in text
