"""The simulator places the board's knights from the layout's setup book, as a flashed board."""

import io
import json
import os
import subprocess
import sys

from attila.opponent import book as books
from attila.game.notation import replay
from attila.game.rules import Game
from attila_sim import app, script
from attila_sim.rig import Rig

import simkit

# The Romans' placements, each followed by the one the board's Huns place.
SETUP = "@a1 @c2 @e4 @d2 @d1 @e3".split()


def test_a_scripted_setup_places_the_boards_huns_from_the_book(tmp_path):
    path = tmp_path / "setup.txt"
    path.write_text("\n".join(SETUP) + "\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run(
        [sys.executable, "-m", "attila_sim", "--script", str(path), "--computer", "H",
         "--level", "normal"],
        capture_output=True, text=True, env=env, cwd=str(tmp_path),
    )
    assert p.returncode == 0, p.stderr
    recs = [json.loads(line) for line in p.stdout.splitlines()]
    layout = simkit.load()[0]
    book = books.open(simkit.BOOK_4X5, layout)
    game = Game(layout)
    for k in range(0, len(SETUP), 2):
        replay(game, SETUP[k])
        # What the board asks for once the Romans' knight is down: the book's square.
        square = book.placement(game)
        assert square >= 0 and "@" + layout.names[square] == SETUP[k + 1]
        its = SETUP[k + 1][1:]
        assert recs[k]["status"] == "The board plays the Huns: put a knight on %s" % its
        assert set(recs[k]["leds"]) == {its}
        replay(game, SETUP[k + 1])
    book.close()
    assert recs[-1]["position"] == "....R/....H/..HH./R..R. R"
    assert recs[-1]["status"].startswith("Romans: lift a knight")


def _first_hun(book):
    layout, modules, tiles = simkit.load()
    rig = Rig(layout, modules, tiles, computer=1, level=2, book=book)
    script.run(rig, ["@a1"], io.StringIO())
    planner = rig.controller.plan.opponent
    return rig.controller.plan.src, planner.nodes


def test_the_layouts_book_or_none_and_no_book_searches():
    layout = simkit.load()[0]
    book = app.setup_book(simkit.LAYOUT_4X5, layout)
    assert book.placement(Game(layout)) == layout.index("c2")
    assert app.setup_book(os.path.join(simkit.ROOT, "boards", "diy-8x8.json"),
                          simkit.load(os.path.join(simkit.ROOT, "boards", "diy-8x8.json"))[0]) \
        is None
    assert app.parser().parse_args([]).book and not app.parser().parse_args(["--no-book"]).book
    assert _first_hun(book) == (layout.index("c2"), 0)  # the book: nothing searched
    searched, nodes = _first_hun(None)
    assert nodes > 0 and searched >= 0
    book.close()
