"""The vocabulary page covers every word a newcomer meets in the portable core.

Read from firmware/attila: its classes, the words of the controller's state
and of its parts' (what their constructors keep, public), the modes and the
cues, a reading's meanings, what the presses ask for and what the settling
reports. Each is defined on docs/pages/inside/vocabulary.md (in bold).
"""

import ast
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORE = os.path.join(ROOT, "firmware", "attila")
PAGE = os.path.join(ROOT, "docs", "pages", "inside", "vocabulary.md")
# The classes whose state a newcomer reads: the board's loop, the controller and its parts.
STATE = ("Board", "Inputs", "Controller", "Plan", "Settling", "Painter", "Presses")
# The modules whose constants are words of the controller's: modes and cues,
# a reading's meanings, the presses' requests, the settling's outcomes.
WORDS = ("play/modes.py", "play/reading.py", "play/presses.py", "play/settling.py")
GAME = ("board", "square", "layout", "knight", "tile", "side", "setup", "placement", "turn",
        "move", "scorch", "phase", "action", "mask")


def _tree(path):
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def words():
    found = set(GAME)
    for top, _dirs, names in os.walk(CORE):
        for name in names:
            if not name.endswith(".py"):
                continue
            path = os.path.join(top, name)
            rel = os.path.relpath(path, CORE).replace(os.sep, "/")
            for node in _tree(path).body:
                if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                    found.add(node.name)
                    if node.name in STATE:
                        found |= _kept(node)
                elif rel in WORDS and isinstance(node, ast.Assign):
                    found |= {t.id for t in node.targets if isinstance(t, ast.Name)
                              and t.id.isupper() and t.id[0] != "_" and not t.id.endswith("_MS")
                              and t.id not in ("KIND", "MODE_NAMES")}
    return found


def _kept(cls):
    """The public attributes a class's constructor sets on itself."""
    kept = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.FunctionDef) and node.name == "__init__":
            kept |= {a.attr for a in ast.walk(node) if isinstance(a, ast.Attribute)
                     and isinstance(a.ctx, ast.Store) and isinstance(a.value, ast.Name)
                     and a.value.id == "self" and not a.attr.startswith("_")}
    return kept


def defined(text):
    return set(re.findall(r"\*\*([A-Za-z_]+)\*\*", text))


def test_the_vocabulary_defines_every_word_of_the_core():
    with open(PAGE, encoding="utf-8") as f:
        page = defined(f.read())
    missing = sorted(words() - page)
    assert missing == [], "not on docs/pages/inside/vocabulary.md: " + ", ".join(missing)


def test_the_words_come_from_the_code():
    # The controller's state, a part's class and a mode are among them.
    found = words()
    assert {"lifted", "stray", "Settling", "GAME_OVER", "TAKE_BACK", "searching"} <= found
    assert defined("- **mode**: what the board does; **PLAY**") == {"mode", "PLAY"}
