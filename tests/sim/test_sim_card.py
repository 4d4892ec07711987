"""`attila sim --card DIR [--coach]`: the board plays from the solved game, the coach judges turns.

A 12-square layout (solved in a second) and its card written by `attila card`.
"""

import io
import json
import random

import pytest

from attila.opponent.card import Card
from attila.game.rules import MOVE, Game
from attila_sim import app, script
from attila_sim.rig import Rig
from attila_tools.solve import retro
from attila_tools.solve.card_cmd import write_card

TWELVE = {"name": "twelve", "custom": True, "rows": ["....", "....", "...."]}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    from attila.game.layoutfile import load

    folder = tmp_path_factory.mktemp("card")
    path = folder / "twelve.json"
    path.write_text(json.dumps(TWELVE))
    layout, modules, tiles = load(str(path))
    tables = retro.solve(layout, threads=1)
    write_card(tables, str(folder / "attila.tbl"))
    return {"path": str(path), "folder": str(folder), "tables": tables}


def _setup_and_turns(tables):
    """Six placements after which the Romans (to move) win, a turn keeping it, one throwing it."""
    lay = tables.layout
    rng = random.Random(7)
    while True:
        game = Game(lay)
        while game.phase != MOVE:
            legal = [i for i in range(lay.size) if game.placements() >> i & 1]
            if not legal:
                break
            game.place(rng.choice(legal))
        if game.phase != MOVE or game.side != 0:
            continue
        me, opp = game.knights
        if not tables.won(me, opp, 0):
            continue
        keep = throw = None
        free = game.free()
        for a in range(lay.size):
            for b in range(lay.size):
                if me >> a & 1 and lay.knight[a] >> b & 1 and free >> b & 1:
                    me1 = me ^ (1 << a | 1 << b)
                    for c in range(lay.size):
                        if (free ^ (1 << a | 1 << b)) >> c & 1:
                            text = "%s-%s,%s" % (lay.names[a], lay.names[b], lay.names[c])
                            if tables.won(opp, me1, 1 << c):
                                throw = throw or text
                            else:
                                keep = keep or text
        if keep and throw:
            places = ["@" + lay.names[e >> 8 & 0xFF] for e in game.history]
            return places, keep, throw


def _rig(world, **kw):
    from attila.game.layoutfile import load

    layout, modules, tiles = load(world["path"])
    card = app.open_card(world["folder"], layout)
    return Rig(layout, modules, tiles, card=card, **kw)


def test_the_coach_says_whether_the_players_turn_kept_the_win(world):
    places, keep, throw = _setup_and_turns(world["tables"])
    for turn, words in ((keep, "kept the win"), (throw, "threw the win away")):
        rig = _rig(world, coach=True)
        out = io.StringIO()
        assert script.run(rig, places + [turn], out) == 0
        recs = [json.loads(line) for line in out.getvalue().splitlines()]
        assert "(coach: that turn %s)" % words in recs[-1]["status"], recs[-1]["status"]
        assert all("coach" not in r["status"] for r in recs[:-1])


def test_the_boards_opponent_and_hints_play_from_the_card(world):
    """The rig's Planner holds the card: at normal and strong it plays its winning turns
    (what that play is: tests/portable/test_card_play.py). A hint in a won position
    is a winning turn, found without a search."""
    tables = world["tables"]
    places, _keep, _throw = _setup_and_turns(tables)
    rig = _rig(world, level=3)
    assert rig.controller.plan.opponent.card is not None
    out = io.StringIO()
    assert script.run(rig, places + ["menu", "wait 1000"], out) == 0
    status = [json.loads(line) for line in out.getvalue().splitlines()][-1]["status"]
    assert "(hint: " in status, status
    plan = rig.controller.plan
    game = rig.controller.game
    me, opp = game.knights
    a, b, c = plan.src, plan.dst, plan.tile
    assert not tables.won(opp, me ^ (1 << a | 1 << b), 1 << c)
    assert rig.controller.plan.opponent.nodes == 0


def test_coach_without_card_and_a_missing_card_are_refused(world, tmp_path, capsys):
    from attila.errors import AttilaError

    with pytest.raises(AttilaError, match="the coach needs the solved game: give --card DIR"):
        Rig(*_load(world), coach=True)
    lines = tmp_path / "script.txt"
    lines.write_text("@a1\n")
    assert app.main(["--layout", world["path"], "--card", str(tmp_path), "--script",
                     str(lines)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("attila sim: %s/attila.tbl: No such file or directory (write it with "
                          "attila card LAYOUT FOLDER)" % tmp_path), err


def _load(world):
    from attila.game.layoutfile import load

    return load(world["path"])


def test_the_card_is_for_the_layout(world):
    from attila.opponent.card import CardError
    from attila.game.geometry import from_rows

    with pytest.raises(CardError, match="the tables are for another layout"):
        app.open_card(world["folder"], from_rows(["......", "......"]))
    assert isinstance(app.open_card(world["folder"], _load(world)[0]), Card)
