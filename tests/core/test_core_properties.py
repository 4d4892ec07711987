"""Property tests: the bitboard core against the brute-force model in bruteforce.py.

Random layouts (mostly real boards of 8 squares or more, one in eight any
set of squares up to 5x5; random module sets), random reachable positions
(random legal lines from the empty board) and random piece placements
(mostly three knights a side, in play) are checked for move generation, the
no-trap rule, trapped knights, the end of the game, perft at small depths
and undo. Each test reports what its examples reached (board size, play
phase, parsed or refused):

    CI=1 .venv/bin/python -m pytest tests/core/test_core_properties.py \
        --hypothesis-show-statistics
"""

from bruteforce import State, name, squares_of_rows
from hypothesis import HealthCheck, event, given, settings, target
from hypothesis import strategies as st

from attila.errors import LayoutError, NotationError
from attila.game.modules import compose, place_module
from attila.game.notation import format_position, parse_position, play
from attila.game.perft import perft, turns
from attila.game.rules import MOVE, OVER, SCORCH, SETUP, SIDES

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def _trimmed(width, height, cells):
    """Rows of the squares in cells (row by row, top first), empty edges left out."""
    rows = ["".join("." if cells[k * width + f] else "-" for f in range(width))
            for k in range(height)]
    rows = [r for r in rows if "." in r]
    if not rows:
        rows = ["."]
    cols = [f for f in range(len(rows[0])) if any(r[f] == "." for r in rows)]
    return ["".join(r[f] for f in range(cols[0], cols[-1] + 1)) for r in rows]


@st.composite
def layouts(draw, max_side=5):
    """Rows of a random layout, trimmed to its bounding box.

    Mostly a real board: a rectangle of 3 to max_side files and ranks with
    at most a fifth of its places left out (8 squares or more, so a game
    gets past setup). One draw in eight: any set of squares down to a single
    one, the edge cases. Hypothesis shrinks towards a real board.
    """
    if draw(st.integers(0, 7)) == 7:
        width = draw(st.integers(1, max_side))
        height = draw(st.integers(1, max_side))
        cells = draw(st.lists(st.booleans(), min_size=width * height,
                              max_size=width * height))
        return _trimmed(width, height, cells)
    width = draw(st.integers(3, max_side))
    height = draw(st.integers(3, max_side))
    holes = draw(st.sets(st.integers(0, width * height - 1), max_size=width * height // 5))
    return _trimmed(width, height, [k not in holes for k in range(width * height)])


def size_event(count):
    """Report the board size (pytest --hypothesis-show-statistics shows the spread)."""
    event("squares: %s" % ("1-3" if count <= 3 else "4-7" if count <= 7
                           else "8-12" if count <= 12 else "13+"))
    target(float(count), label="squares")


def names_of(layout, mask):
    return {layout.names[i] for i in range(layout.size) if mask >> i & 1}


def check_same(game, state):
    """The Game and the brute-force State agree on everything observable."""
    layout = game.layout
    assert format_position(game) == state.text()
    plies = state.plies()
    if state.in_setup():
        assert game.phase in (SETUP, OVER)
        assert names_of(layout, game.placements()) == {name(s) for s in state.placements()}
    else:
        assert game.phase in (MOVE, OVER)
        moves = set()
        for a in range(layout.size):
            for b in range(layout.size):
                if game.destinations(a) >> b & 1:
                    moves.add((layout.names[a], layout.names[b]))
        assert moves == {(name(a), name(b)) for a, b in state.moves()}
    assert names_of(layout, game.trapped()) == {name(s) for s in state.trapped()}
    assert (game.phase == OVER) == (not plies)
    if game.phase == OVER:
        assert SIDES[game.winner] != state.side
        assert game.winner == game.side ^ 1
    else:
        assert game.winner == -1
    assert SIDES[game.side] == state.side
    assert turns(game) == len(plies) == perft(game, 1)
    return plies


@SETTINGS
@given(rows=layouts(), data=st.data())
def test_random_lines_match_bruteforce(rows, data):
    text = "/".join(rows) + " " + data.draw(st.sampled_from("RH"))
    tiles = data.draw(st.one_of(st.none(), st.integers(0, 4)))
    game = parse_position(text, tiles)
    state = State.parse(text, tiles)
    size_event(len(state.squares))
    seen = []
    while True:
        plies = check_same(game, state)
        if len(state.squares) <= 12:
            assert perft(game, 2) == state.perft(2)
        if not plies:
            break
        ply, nxt = plies[data.draw(st.integers(0, len(plies) - 1))]
        seen.append((format_position(game), game.phase))
        play(game, ply)
        state = nxt
    event("the line reached the play phase" if any(p != SETUP for _, p in seen)
          else "the line ended in setup")
    # Undo walks back through every position, to the empty board.
    while seen:
        before, phase = seen.pop()
        entry = game.undo()
        assert entry >= 0
        if game.phase == SCORCH:
            # a full turn is two actions: move, then scorch; back to the scorch step
            assert game.describe(entry)[0] == ","
            assert game.lifted >= 0 and game.side_at(game.lifted) == game.side
            assert "-" in game.describe(game.undo())
        assert format_position(game) == before
        assert game.phase == phase
    assert game.undo() == -1
    assert game.history == []


@SETTINGS
@given(rows=layouts(max_side=4), data=st.data())
def test_perft_depth_3_on_small_boards(rows, data):
    text = "/".join(rows) + " R"
    size_event(len(squares_of_rows(rows)))
    assert perft(parse_position(text), 3) == State.parse(text).perft(3)


@st.composite
def piece_sets(draw):
    """A random position: up to 3 knights a side and some scorched squares.

    Mostly (when the board has room) a position in play: three knights a
    side and at most the supply of tiles scorched; else any counts, most of
    which the core must refuse.
    """
    rows = draw(layouts(max_side=5))
    squares = sorted(squares_of_rows(rows))
    chosen = draw(st.permutations(squares))
    if len(squares) >= 8 and draw(st.integers(0, 3)):
        r = h = 3
        x = draw(st.integers(0, len(squares) - 6))
    else:
        r = draw(st.integers(0, min(3, len(squares))))
        h = draw(st.integers(0, min(3, len(squares) - r)))
        x = draw(st.integers(0, len(squares) - r - h))
    state = State(
        squares,
        chosen[:r],
        chosen[r : r + h],
        chosen[r + h : r + h + x],
        draw(st.sampled_from("RH")),
    )
    return state


def acceptable(state):
    """Whether a position could arise in a game (the checks the core promises)."""
    r, h, x = len(state.romans), len(state.huns), len(state.scorched)
    if state.in_setup():
        if x or abs(r - h) > 1:
            return False
        if r != h and (state.side == "R") != (r < h):
            return False
    if x > max(state.supply, 0):
        return False
    if (state.in_setup() or not x) and state.trapped():
        return False
    return True


@SETTINGS
@given(state=piece_sets())
def test_parsed_positions_match_bruteforce(state):
    text = state.text()
    size_event(len(state.squares))
    try:
        game = parse_position(text)
    except NotationError:
        event("refused")
        assert not acceptable(state), text
        return
    event("parsed, in play" if game.phase != SETUP else "parsed, in setup")
    assert acceptable(state), text
    check_same(game, state)
    if len(state.squares) <= 12:
        assert perft(game, 2) == state.perft(2)


def module_squares(kind, at, turn):
    """Squares of a module, computed by rotating its rectangle's corners."""
    w, h = (2, 2) if kind == "2x2" else (2, 3)
    if turn in (90, 270):
        w, h = h, w
    return {(at[0] + f, at[1] + r) for f in range(w) for r in range(h)}


def valid_module_set(parts):
    """Overlap-free, all joined side to side (the kinds are always the game's set)."""
    cells = [module_squares(*p) for p in parts]
    union = set()
    for c in cells:
        if union & c:
            return False
        union |= c
    joined = {0}
    grew = True
    while grew:
        grew = False
        for k, c in enumerate(cells):
            if k in joined:
                continue
            edge = {(f + df, r + dr) for f, r in c for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))}
            if any(edge & cells[j] for j in joined):
                joined.add(k)
                grew = True
    return len(joined) == len(cells)


@st.composite
def scattered_modules(draw):
    """The game's four modules anywhere in a small area (mostly invalid)."""
    kinds = draw(st.permutations(["2x2", "2x2", "2x3", "2x3"]))
    return tuple(
        (k, (draw(st.integers(0, 4)), draw(st.integers(0, 4))), draw(st.sampled_from(TURNS)))
        for k in kinds
    )


@st.composite
def grown_modules(draw):
    """Modules added one by one against the others' edges (valid unless they overlap)."""
    kinds = draw(st.permutations(["2x2", "2x2", "2x3", "2x3"]))
    parts = [(kinds[0], (0, 0), draw(st.sampled_from(TURNS)))]
    union = set(module_squares(*parts[0]))
    corner = draw(st.integers(0, 3)) == 3  # now and then: the last one at a corner
    for n, kind in enumerate(kinds[1:]):
        sides = {(f + df, r + dr) for f, r in union for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        border = sorted(sides - union)
        if corner and n == 2:
            diagonal = {(f + df, r + dr) for f, r in union for df, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1))}
            border = sorted(diagonal - union - sides)
        options = sorted(
            {
                ((p[0] - c[0], p[1] - c[1]), turn)
                for p in border
                for turn in TURNS
                for c in module_squares(kind, (0, 0), turn)
            }
        )
        if draw(st.integers(0, 9)) < 9:  # mostly: only places that do not overlap
            options = [o for o in options if not module_squares(kind, *o) & union]
        at, turn = draw(st.sampled_from(options))
        part = (kind, at, turn)
        parts.append(part)
        union |= module_squares(*part)
    # Move the whole board to a1 (or, now and then, one place off it).
    extra = draw(st.sampled_from([(0, 0)] * 8 + [(1, 0), (0, 2)]))
    minf = min(f for f, _ in union) - extra[0]
    minr = min(r for _, r in union) - extra[1]
    return tuple((k, (at[0] - minf, at[1] - minr), t) for k, at, t in parts)


TURNS = (0, 90, 180, 270)


@st.composite
def module_sets(draw):
    """Mostly modules grown side to side (most compose), one in four scattered."""
    if draw(st.integers(0, 3)) == 3:
        return draw(scattered_modules())
    return draw(grown_modules())


@SETTINGS
@given(parts=module_sets())
def test_random_module_sets(parts):
    modules = [place_module(n + 1, kind, at[0], at[1], turn) for n, (kind, at, turn) in enumerate(parts)]
    union = set()
    for p in parts:
        union |= module_squares(*p)
    starts_at_a1 = min(f for f, _ in union) == 0 and min(r for _, r in union) == 0
    try:
        layout, _ = compose(modules)
    except LayoutError as e:
        why = [w for w in ("overlaps", "touches", "starts at") if w in str(e)]
        event("refused: %s" % (why[0] if why else str(e)))
        assert not (valid_module_set(parts) and starts_at_a1)
        return
    event("composed")
    assert valid_module_set(parts) and starts_at_a1
    assert layout.size == 20
    got = {(layout.files[i], layout.ranks[i]) for i in range(layout.size)}
    assert got == union
    for m, p in zip(modules, parts):
        assert set(m.places) == module_squares(*p)


def test_full_random_games_on_every_board():
    """Whole games with fixed seeds on the shipped layouts, checked ply by ply."""
    import glob
    import os
    import random

    from attila.game.layoutfile import load
    from attila.game.rules import Game

    root = os.path.join(os.path.dirname(__file__), "..", "..", "boards")
    paths = sorted(glob.glob(os.path.join(root, "*.json")))
    assert len(paths) >= 8
    plays = 0
    for path in paths:
        layout, _, tiles = load(path)
        for seed in range(3):
            rng = random.Random(seed)
            if seed == 2:
                tiles = 3  # a short supply: the side without a tile loses
            game = Game(layout, tiles=tiles)
            state = State.parse(format_position(game), tiles)
            while True:
                plies = check_same(game, state)
                if not plies:
                    break
                if len(plies) < 120 and seed == 0 and layout.size <= 20:
                    assert perft(game, 2) == state.perft(2)
                ply, state = plies[rng.randrange(len(plies))]
                play(game, ply)
                plays += ply[0] != "@"
            assert game.phase == OVER
    assert plays > 100


NOTATION_CHARACTERS = "RHx.-/ QRH\n7"


@st.composite
def position_texts(draw):
    """A position text: mostly one written from a random position (a quarter
    of them then with one character changed), else any text of the notation's
    characters (nearly always refused)."""
    pick = draw(st.integers(0, 3))
    if pick == 3:
        return draw(st.text(alphabet=NOTATION_CHARACTERS, max_size=40))
    text = draw(piece_sets()).text()
    if pick == 2:
        k = draw(st.integers(0, len(text) - 1))
        text = text[:k] + draw(st.sampled_from(NOTATION_CHARACTERS)) + text[k + 1:]
    return text


@SETTINGS
@given(text=position_texts())
def test_any_position_text_parses_or_says_why(text):
    try:
        game = parse_position(text)
    except NotationError as e:
        event("refused")
        assert "\n" not in str(e).strip()
        return
    event("parsed, in play" if game.phase != SETUP else "parsed, in setup")
    size_event(game.layout.size)
    assert format_position(game) == " ".join(text.split())


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 300) | st.sampled_from(["a1", "2x2", "2x3", "..", "-.", "c3", ""]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["kind", "at", "turn", "rows", "custom", "modules", "name", "tiles"]), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def layout_documents(draw):
    """(a layout file's JSON, the squares it must load as, or None when it must be refused
    or is unknown).

    Mostly a real layout: DIY rows (six in ten), or the game's four modules
    grown side to side (three in ten; some overlap or are off a1: refused),
    now and then with "tiles";
    one in five of those with a field changed to any JSON value (squares
    unknown); one in ten any JSON at all.
    """
    pick = draw(st.integers(0, 9))
    if pick == 9:
        return draw(JSON_VALUES), None
    if pick < 6:
        rows = draw(layouts())
        doc = {"name": "mine", "custom": True, "rows": rows}
        squares = squares_of_rows(rows)
    else:
        parts = draw(grown_modules())
        doc = {"name": "mine", "modules": [{"kind": k, "at": name(at), "turn": t}
                                           for k, at, t in parts]}
        union = set()
        for p in parts:
            union |= module_squares(*p)
        at_a1 = min(f for f, _ in union) == 0 and min(r for _, r in union) == 0
        squares = union if valid_module_set(parts) and at_a1 else None
    if draw(st.booleans()):
        doc["tiles"] = draw(st.integers(0, 12))
        if squares is not None and doc["tiles"] > len(squares):
            squares = None
    if draw(st.integers(0, 4)) == 0:
        field = draw(st.sampled_from(sorted(doc) + ["kind", "at", "module"]))
        if field in ("kind", "at", "module") and "modules" in doc:
            doc["modules"][0][field] = draw(JSON_VALUES)
        else:
            doc[field] = draw(JSON_VALUES)
        squares = None
    return doc, squares


@SETTINGS
@given(document=layout_documents())
def test_any_json_layout_loads_or_says_why(document):
    from attila.game.layoutfile import parse

    data, squares = document
    try:
        layout, modules, tiles = parse(data, "f.json")
    except LayoutError as e:
        event("refused")
        assert str(e).startswith("f.json: ") and "\n" not in str(e)
        assert squares is None, (data, e)
        return
    event("loads")
    size_event(layout.size)
    assert layout.size >= 1 and modules
    if squares is not None:
        assert {(layout.files[i], layout.ranks[i]) for i in range(layout.size)} == squares
        assert sum(len(m.places) for m in modules) == layout.size
        assert tiles == data.get("tiles")


def test_known_perft_values_come_from_the_brute_force():
    """The numbers hard-coded in tests/portable/test_rules.py, recomputed slowly."""
    empty = State.parse("...../...../...../..... R")
    assert [empty.perft(d) for d in range(4)] == [1, 20, 380, 6816]
    mid = State.parse("R.x.H/.x.../H.x.R/..HR. R")
    assert [mid.perft(d) for d in range(3)] == [1, 77, 3100]
    assert State.parse("....../....../--..--/--..--/--..--/--..-- R").perft(2) == 368
    assert [State.parse(".../.../... R").perft(d) for d in range(7)] == [1, 8, 56, 288, 912, 960, 0]
