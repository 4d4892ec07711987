"""MkDocs hook: the files the board page (play/board/) runs, put into the built site.

The page (docs/pages/play/board/index.html, board.js) loads MicroPython's
WebAssembly port and the firmware's own Python files into the port's file
system. They are not committed twice: at build time they are copied from where
they live into SITE/play/board/:
  mp/micropython.mjs, mp/micropython.wasm   the pinned npm package of
                                            tools/wasm (make install fetches it)
  mq/mqtt.esm.js        mqtt.js's browser build (npm mqtt, pinned in
                        tools/wasm): online play over WebSocket
  py/attila/**.py       the firmware's portable core, the .py files
                        `attila flash --source` copies onto a board
  py/attila_sim/...     the simulator's virtual board (rig, table, hardware,
                        heard, actions) and web.py, the page's side of it
  py/attila_tools/...   the tool modules the page reads files with: files.py
                        (the rig's), replayfile.py (replay files)
  py/boards/...         every layout of boards/ and the setup books and
                        opening tables of boards/solved/
  files.json            the list of the py/ files, for the page to fetch

`python docs/hooks/board.py DEST` does the same into DEST (a copy of
docs/pages/play/board with these files beside it), without MkDocs.
"""

import json
import os
import shutil
import sys

from attila_tools.board.build import core_sources

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGE = os.path.join(ROOT, "docs", "pages", "play", "board")
WASM = os.path.join(ROOT, "tools", "wasm", "node_modules", "@micropython",
                    "micropython-webassembly-pyscript")
SIM_FILES = ("__init__.py", "actions.py", "hardware.py", "heard.py", "rig.py", "table.py",
             "web.py", "webonline.py")
# The page's MQTT client (online play): the pinned npm package of tools/wasm,
# its browser build, as mq/mqtt.esm.js (MIT, its licence beside it).
MQTT = os.path.join(ROOT, "tools", "wasm", "node_modules", "mqtt")
LIB = os.path.join(ROOT, "firmware", "lib")
TOOL_FILES = ("__init__.py", "files.py", "replayfile.py")


class BoardPageError(Exception):
    """A file the page needs is missing."""


def sources():
    """[(path under py/, host file)] of the Python files and data the page loads."""
    out = core_sources()  # what `attila flash --source` copies, in its order
    out.append(("hmac.py", os.path.join(LIB, "hmac.py")))  # online play's signatures
    for name in SIM_FILES:
        out.append(("attila_sim/" + name, os.path.join(ROOT, "sim", "attila_sim", name)))
    for name in TOOL_FILES:
        path = os.path.join(ROOT, "tools", "attila_tools", name)
        if os.path.isfile(path):
            out.append(("attila_tools/" + name, path))
    boards = os.path.join(ROOT, "boards")
    for name in sorted(os.listdir(boards)):
        if name.endswith(".json"):
            out.append(("boards/" + name, os.path.join(boards, name)))
    solved = os.path.join(boards, "solved")
    for name in sorted(os.listdir(solved)):
        if name.endswith(".book") or name.endswith(".opening"):
            out.append(("boards/solved/" + name, os.path.join(solved, name)))
    return out


def layouts():
    """[(name, description)] of the layouts of boards/, for the page's menu."""
    out = []
    boards = os.path.join(ROOT, "boards")
    for name in sorted(os.listdir(boards)):
        if name.endswith(".json"):
            with open(os.path.join(boards, name)) as f:
                data = json.load(f)
            out.append((name[:-5], data.get("description", "")))
    return out


def assemble(dest):
    """Put the runtime files of the board page into `dest` (its folder in the site)."""
    mp = os.path.join(dest, "mp")
    os.makedirs(mp, exist_ok=True)
    for name in ("micropython.mjs", "micropython.wasm"):
        src = os.path.join(WASM, name)
        if not os.path.isfile(src):
            raise BoardPageError("%s: missing; run make install (the npm package of "
                                 "tools/wasm)" % os.path.relpath(src, ROOT))
        shutil.copyfile(src, os.path.join(mp, name))
    mq = os.path.join(dest, "mq")
    os.makedirs(mq, exist_ok=True)
    for src, name in (("dist/mqtt.esm.js", "mqtt.esm.js"), ("LICENSE.md", "LICENSE.md")):
        path = os.path.join(MQTT, src)
        if not os.path.isfile(path):
            raise BoardPageError("%s: missing; run make install (the npm package mqtt of "
                                 "tools/wasm)" % os.path.relpath(path, ROOT))
        shutil.copyfile(path, os.path.join(mq, name))
    files = []
    for rel, src in sources():
        out = os.path.join(dest, "py", rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        shutil.copyfile(src, out)
        files.append(rel)
    with open(os.path.join(dest, "files.json"), "w") as f:
        json.dump({"files": files, "layouts": layouts()}, f, indent=0)
    return files


def on_post_build(config, **kwargs):
    """MkDocs: after the site is built, the board page's runtime files."""
    assemble(os.path.join(config["site_dir"], "play", "board"))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python docs/hooks/board.py DEST")
    dest = sys.argv[1]
    if os.path.abspath(dest) == PAGE:
        sys.exit("board.py: DEST must be outside docs/pages/play/board (built files "
                 "are not committed)")
    shutil.copytree(PAGE, dest, dirs_exist_ok=True)
    try:
        assemble(dest)
    except BoardPageError as e:
        sys.exit("board.py: %s" % e)
