"""Whole games through the controller, played as sensor events; LED frames checked."""

from ctltable import AMBER, AMBER_DIM, BLUE, BLUE_DIM, DARK, RED, WHITE, Table

from attila.play.modes import CLEAR, CORRECT, GAME_OVER, PLAY
from attila.opponent.chooser import action_text
from attila.play.plan import first_action
from attila.game.geometry import from_rows
from attila.game.modules import compose, place_module
from attila.game.notation import format_position, log
from attila.game.rules import HUNS, MOVE, ROMANS, SCORCH, SETUP
from attila.saves.store import MemoryStore

RECT = from_rows(["....."] * 4)
GAME_4X5 = (
    "@a1 @b1 @c1 @d1 @e1 @a2 a1-c2,a1 b1-d2,b1 c1-e2,c1 d1-b2,d1 e1-d3,e1 "
    "a2-c3,a2 c2-a3,c2 b2-a4,b2 e2-d4,e2 d2-b3,d2 a3-c4,a3 c3-e4,c3 d3-b4,d3"
)


def l_layout():
    modules = [
        place_module(1, "2x3", 0, 0, 0),
        place_module(2, "2x3", 0, 3, 0),
        place_module(3, "2x2", 2, 0, 0),
        place_module(4, "2x2", 4, 0, 0),
    ]
    return compose(modules, "L")[0]


def test_setup_lights_legal_squares_in_the_placing_sides_colour():
    t = Table(RECT)
    assert t.c.mode == PLAY
    # Every square of the empty 4x5 board is a legal first placement: all blue.
    assert t.squares(BLUE) == list(RECT.names)
    t.put("a1")
    assert t.c.game.knights[ROMANS] == 1
    # Huns place next: amber everywhere legal, a1 (taken) dark.
    assert t.rgb("a1") == DARK
    assert t.rgb("b3") == (255, 112, 0)
    assert len(t.squares(AMBER)) == 19
    assert t.c.status() == "Huns: place a knight on a lit square (knight 1 of 3)"


def test_full_game_on_4x5_with_frames_at_key_points():
    store = MemoryStore()
    t = Table(RECT, store=store)
    items = GAME_4X5.split()
    for item in items[:6]:
        t.act(item)
    g = t.c.game
    assert g.phase == MOVE and g.side == ROMANS
    assert format_position(g) == "...../...../H..../RHRHR R"
    # Romans to move: the three Roman knights that can move light blue.
    assert t.lit() == {"a1": BLUE, "c1": BLUE, "e1": BLUE}
    assert t.c.status() == "Romans: lift a knight that can move (a1 c1 e1)"
    # Lift a1: it glows dim blue, its jumps (c2, b3) light blue.
    t.lift("a1")
    assert t.c.mode == PLAY and t.c.lifted == 0
    assert t.lit() == {"a1": BLUE_DIM, "c2": BLUE, "b3": BLUE}
    assert t.c.status() == "Romans: put the knight on c2 or b3, or back on a1"
    # Put it back: cancelled, nothing changed.
    t.put("a1")
    assert t.lit() == {"a1": BLUE, "c1": BLUE, "e1": BLUE}
    assert len(g.history) == 6
    # Now the move a1-c2: scorch step, free squares white, c2 dim blue.
    t.carry("a1", "c2")
    assert g.phase == SCORCH
    lit = t.lit()
    assert lit.pop("c2") == BLUE_DIM
    assert set(lit.values()) == {WHITE} and len(lit) == 14
    assert "a1" in lit and t.rgb("b1") == DARK
    assert t.c.status() == "Romans: put a tile on a lit square to scorch it"
    t.put("a1")
    assert g.phase == MOVE and g.side == HUNS
    assert store.text.splitlines()[4] == "log @a1 @b1 @c1 @d1 @e1 @a2 a1-c2,a1"
    for item in items[7:]:
        t.act(item)
    assert g.phase == 3 and g.winner == ROMANS
    assert t.c.mode == GAME_OVER
    # Game over: the whole board breathes in the winner's colour.
    t.at(1600 * (t.t // 1600 + 1) + 800)  # the top of a breath: full colour
    assert t.squares(BLUE) == list(RECT.names)
    t.at(1600 * (t.t // 1600 + 1))  # the bottom: 3/16 of blue
    assert t.squares((0, 18, 47)) == list(RECT.names)
    assert t.c.status() == (
        "Game over: Romans win, Huns cannot move. MENU: new game, UNDO: take back"
    )
    assert log(g) == GAME_4X5
    # New game: occupied squares blink white until the board is empty.
    t.menu()
    assert t.c.mode == CLEAR
    t.at(1000 * (t.t // 1000 + 1))
    occupied = [n for n in RECT.names if t.mask & t.bit(n)]
    assert t.squares(WHITE) == occupied
    for name in occupied:
        t.lift(name)
    assert t.c.mode == PLAY and t.c.game.phase == SETUP and not t.c.game.history
    assert store.text is None
    assert t.squares(BLUE) == list(RECT.names)


def test_full_game_on_an_l_layout():
    layout = l_layout()
    assert layout.rows() == ["..----", "..----", "..----", "..----", "......", "......"]
    t = Table(layout)
    g = t.c.game
    # a6 ... the top of the L; f1 the foot. Outside squares do not exist.
    assert len(t.c.frame) == 60
    while g.phase != 3:
        text = action_text(g.layout, first_action(g))
        if g.phase == MOVE and text == "a3-b5,e2":
            # Mid-game check: lift a3, the jumps on the L light blue.
            # From a3 only b5 is left: b1 and c2 are scorched, c4 is no square.
            assert g.side == ROMANS
            t.lift("a3")
            assert t.lit() == {"a3": BLUE_DIM, "b5": BLUE}
            t.put("b5")
            t.put("e2")
            continue
        t.act(text)
        assert t.c.mode == (PLAY if g.phase != 3 else GAME_OVER), (text, t.c.status())
    assert g.winner == ROMANS
    assert format_position(g) == ".H----/HR----/xR----/xx----/xxxxxx/xxxxRH H"
    t.at(t.t // 1600 * 1600 + 2400)
    assert t.squares(BLUE) == list(layout.names)


def test_illegal_placement_is_corrected():
    t = Table(RECT)
    t.act("@a1")
    t.act("@b3")
    # a Roman knight on c2 would leave a1 without a move: refused.
    t.put("c2")
    c = t.c
    assert c.mode == CORRECT
    assert c.game.knights == [t.bit("a1"), t.bit("b3")]
    t.at(t.t // 400 * 400 + 400)  # fast blink, lit half
    assert t.lit() == {"c2": RED}
    t.at(t.t + 200)  # dark half
    assert t.lit() == {}
    assert c.status() == "a knight on c2 would trap the knight on a1: take the piece off c2"
    t.lift("c2")
    assert c.mode == PLAY
    assert "c2" not in t.squares(BLUE) and "d1" in t.squares(BLUE)
    t.put("d1")
    assert c.game.knights[ROMANS] == t.bit("a1") | t.bit("d1")


def test_wrong_square_then_lift_again_then_right_square():
    t = Table(RECT)
    for item in GAME_4X5.split()[:6]:
        t.act(item)
    c = t.c
    t.lift("a1")
    t.put("b2")  # not a knight's jump from a1
    assert c.mode == CORRECT
    t.at(t.t // 400 * 400 + 400)
    assert t.lit() == {"b2": RED}  # the piece to take away ...
    t.at(t.t + 200)
    assert t.lit() == {"a1": BLUE}  # ... and where it belongs, in between
    assert c.status() == "a1 to b2 is not a knight's jump: move the piece on b2 to a1 (Roman knight)"
    t.lift("b2")
    assert c.mode == PLAY and c.lifted == 0
    t.put("b3")
    assert c.game.phase == SCORCH and c.game.lifted == t.c.layout.index("b3")


def test_change_of_mind_after_the_move_before_the_scorch():
    t = Table(RECT)
    for item in GAME_4X5.split()[:6]:
        t.act(item)
    g = t.c.game
    t.carry("a1", "b3")
    assert g.phase == SCORCH
    t.lift("b3")  # the moved knight in the hand again: the move is taken back
    assert g.phase == MOVE and len(g.history) == 6 and t.c.lifted == 0
    assert t.lit() == {"a1": BLUE_DIM, "c2": BLUE, "b3": BLUE}
    t.put("c2")
    assert g.phase == SCORCH and g.lifted == RECT.index("c2")


def test_wrong_pieces_lifted_and_tile_before_move():
    t = Table(RECT)
    for item in GAME_4X5.split()[:6]:
        t.act(item)
    c = t.c
    # A Hun knight lifted while the Romans are to move.
    t.lift("b1")
    assert c.mode == CORRECT
    t.at(t.t // 400 * 400 + 600)
    assert t.lit() == {"b1": AMBER}
    assert c.status() == "Romans to move, not Huns: put the Hun knight back on b1"
    t.put("b1")
    assert c.mode == PLAY
    # Two Roman knights lifted at once.
    t.lift("a1")
    t.lift("c1")
    assert c.mode == CORRECT
    t.at(t.t // 400 * 400 + 600)
    assert t.lit() == {"a1": BLUE, "c1": BLUE}
    t.put("c1")
    assert c.mode == PLAY and c.lifted == 0
    t.put("a1")
    # A tile put down before the move.
    t.put("d4")
    assert c.mode == CORRECT
    assert c.status() == "move a knight first: take the piece off d4"
    t.lift("d4")
    assert c.mode == PLAY and len(c.game.history) == 6


def test_undo_guides_the_take_back():
    store = MemoryStore()
    t = Table(RECT, store=store)
    for item in GAME_4X5.split()[:7]:
        t.act(item)
    c = t.c
    g = c.game
    assert g.phase == MOVE and g.side == HUNS
    t.undo()  # takes back the scorch a1
    assert g.phase == SCORCH and c.mode == CORRECT
    t.at(t.t // 400 * 400 + 400)
    assert t.lit() == {"a1": RED}
    assert c.status() == "Undo the scorch of a1: take the tile off a1"
    t.lift("a1")
    assert c.mode == PLAY and g.phase == SCORCH
    assert store.text.splitlines()[4] == "log @a1 @b1 @c1 @d1 @e1 @a2 a1-c2"
    # Scorch phase again: a tile put on the just-emptied square would redo it,
    # but first undo further: the move.
    t.undo()
    assert g.phase == MOVE and c.mode == CORRECT
    t.at(t.t // 400 * 400 + 400)
    assert t.lit() == {"c2": RED}
    t.at(t.t + 200)
    assert t.lit() == {"a1": BLUE}
    assert c.status() == "Undo the move from a1 to c2: move the Roman knight on c2 back to a1"
    t.carry("c2", "a1")
    assert c.mode == PLAY and g.phase == MOVE and len(g.history) == 6
    # And a placement.
    t.undo()
    t.at(t.t // 400 * 400 + 400)
    assert t.lit() == {"a2": RED}
    t.lift("a2")
    assert c.mode == PLAY and g.phase == SETUP and g.side == HUNS
    assert len(t.squares(AMBER)) > 0
    # A tile put on while the undo guidance is showing is not a scorch.
    t.undo()
    t.put("d4")
    assert c.mode == CORRECT and len(g.history) == 4


def test_undo_from_game_over():
    t = Table(RECT)
    for item in GAME_4X5.split():
        t.act(item)
    assert t.c.mode == GAME_OVER
    t.undo()
    assert t.c.game.phase == SCORCH and t.c.mode == CORRECT
    t.lift("d3")
    assert t.c.mode == PLAY
    t.put("d3")
    assert t.c.mode == GAME_OVER


def test_pieces_on_the_board_at_boot_must_be_cleared():
    t = Table(RECT, mask=RECT.all & 0b111)
    assert t.c.mode == CLEAR
    assert t.c.status() == "New game: take every piece off the board (3 left: a1 b1 c1; UNDO: back)"
    t.lift("a1")
    t.lift("b1")
    t.lift("c1")
    assert t.c.mode == PLAY


def test_a_piece_slid_on_after_its_action_takes_the_action_back():
    t = Table(RECT)
    c = t.c
    g = c.game
    # Setup: a Roman knight slid over c3 (read as a placement) on to d3.
    t.put("c3")
    assert g.knights[ROMANS] == t.bit("c3")
    t.lift("c3")  # lifted again: the placement is taken back
    assert c.mode == PLAY and not g.history
    t.put("d3")
    assert g.knights[ROMANS] == t.bit("d3") and log(g) == "@d3"
    # The same in one reading (the debouncer saw both squares change at once).
    t.put("a1")
    t.mask ^= t.bit("a1") | t.bit("b1")
    t.sense()
    assert log(g) == "@d3 @b1" and c.mode == PLAY
    # A tile slid on after the scorch.
    for item in "@c1 @d1 @e1 @a2".split():
        t.act(item)
    t.carry("c1", "b3")
    assert g.phase == SCORCH
    t.put("c1")
    assert g.phase == MOVE and g.side == HUNS
    t.lift("c1")
    assert g.phase == SCORCH and c.mode == PLAY
    t.put("c2")
    assert log(g) == "@d3 @b1 @c1 @d1 @e1 @a2 c1-b3,c2" and g.side == HUNS


def test_a_layout_where_no_knight_can_move_is_over_from_the_start():
    """A single rank: no knight has a square to jump to, so the first side cannot
    place; the board says game over (as `attila moves` does), not 'lift a knight'."""
    t = Table(from_rows(["........"]))
    assert t.c.mode == GAME_OVER
    assert t.c.status() == ("Game over: Huns win, Romans cannot place a knight. "
                            "MENU: new game, UNDO: take back")


def test_the_simulator_says_game_over_on_such_a_layout():
    import io
    import json

    from attila.game import layoutfile
    from attila_sim import script
    from attila_sim.rig import Rig

    rig = Rig(*layoutfile.parse({"name": "rank", "custom": True, "rows": ["........"]}, "x"))
    out = io.StringIO()
    assert script.run(rig, ["@a1", "show"], out, "json", "x") == 1
    recs = [json.loads(line) for line in out.getvalue().splitlines()]
    assert recs[0]["error"] == "x line 1: no piece to take from beside the board: the game is over"
    assert [r["mode"] for r in recs] == ["over", "over"]
    assert recs[1]["status"].startswith("Game over: Huns win, Romans cannot place a knight.")
