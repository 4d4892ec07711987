"""The README and the docs pages against the tools: their examples print what
they show, they say how to run `attila` and what the game is, and their words
on `next all` and a missing port are the tool's."""

import io
import json
import glob
import os
import re
import shlex
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ATTILA = os.path.join(os.path.dirname(sys.executable), "attila")



def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


README = _read(os.path.join(ROOT, "README.md"))
PAGES = {os.path.relpath(p, ROOT): _read(p)
         for p in sorted(glob.glob(os.path.join(ROOT, "docs", "pages", "**", "*.md"),
                                   recursive=True))}
DOCS = "\n".join([README] + list(PAGES.values()))


def page(name):
    return PAGES[os.path.join("docs", "pages", name)]


def examples():
    """(command, the lines shown under it) of every `$ .venv/bin/attila` example
    in a fenced block of the README or a docs page that shows its output whole."""
    found = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", DOCS, re.S):
        lines = block.splitlines()
        for k, line in enumerate(lines):
            if not line.startswith("$ "):
                continue
            shown = []
            for after in lines[k + 1:]:
                if after.startswith("$ ") or not after.strip():
                    break
                shown.append(after)
            found.append((line[2:], shown))
    return found


def test_every_example_runs_attila_as_the_readme_says():
    commands = [c for c, _ in examples()]
    assert len(commands) >= 6
    assert "source .venv/bin/activate" in README and ".venv/bin/attila" in README
    assert "source .venv/bin/activate" in page("tools/index.md")
    for command in commands:
        words = command.split("|")[-1].split()
        assert words[0] in (".venv/bin/attila", "make"), command


@pytest.mark.parametrize("command, shown", [e for e in examples()
                                            if e[1] and "..." not in " ".join(e[1])
                                            and "solve" not in e[0] and "|" not in e[0]],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_an_example_prints_what_the_readme_shows(command, shown):
    argv = shlex.split(command.split("#")[0])
    argv[0] = ATTILA if os.path.exists(ATTILA) else argv[0]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == shown


def test_the_rules_page_states_the_rules_and_credits_the_game():
    rules = page("play/rules.md")
    for words in ("Setup", "no-trap rule", "A turn", "chess knight", "scorches",
                  "The end", "loses", "no draws", "Bruno Faidutti", "unofficial fan project"):
        assert words in rules, words
    section = README.split("\n## The game\n", 1)[1].split("\n## ", 1)[0]
    for words in ("Setup", "no-trap rule", "A turn", "chess knight", "no draws"):
        assert words in section, words
    assert "(docs/pages/play/rules.md)" in section


def test_next_all_prints_one_frame_as_the_readme_says(tmp_path):
    from attila.game import layoutfile
    from attila_sim import script
    from attila_sim.rig import Rig
    from attila_tools.gamefiles import load_replay

    assert "`next all`\nplays it to the end and prints the last frame only" in page(
        "play/simulator.md")
    log = tmp_path / "game.log"
    log.write_text("@a1 @e4 @b1 @e3 @c4 @a3 b1-d2,b1\n")
    layout, modules, tiles = layoutfile.load(os.path.join(ROOT, "boards", "4x5.json"))
    first, items, tiles = load_replay(str(log), layout, tiles)
    out = io.StringIO()
    rig = Rig(layout, modules, tiles, first=first)
    rig.start_replay(items)
    assert script.run(rig, ["next all"], out) == 0
    assert len(out.getvalue().splitlines()) == 1
    assert json.loads(out.getvalue())["replay"] == "replay step 7 of 7: b1-d2,b1"
    out = io.StringIO()
    rig = Rig(layout, modules, tiles, first=first)
    rig.start_replay(items)
    assert script.run(rig, ["next"] * 7, out) == 0
    assert len(out.getvalue().splitlines()) == 7


def test_a_port_that_does_not_exist_is_named_as_such():
    assert "*PORT does not exist: is the board plugged in?*" in page("flash/micropython.md")
    proc = subprocess.run([ATTILA if os.path.exists(ATTILA) else "attila", "flash",
                           "--port", "/dev/ttyACM-none", "--dry-run"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr == ("attila flash: /dev/ttyACM-none does not exist: is the board "
                           "plugged in? `mpremote connect list` shows the ports there are\n")
