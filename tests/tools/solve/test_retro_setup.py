"""Setup on top of the tables, the certificate and `attila verify`."""

import gzip
import io
import json
import os

import pytest
from retrokit import layout, rng_of

from attila.game.rules import MOVE, Game
from attila_tools import cli
from attila_tools.solve import retro, retro_cert, verify
from attila_tools.solve.retro_setup import SetupValues
from attila_tools.solve.solver import Solver

# 12 squares: the search solver settles a setup position with 2 knights placed in seconds.
BOARD = ["....", "....", "...."]


@pytest.fixture(scope="module")
def values():
    return SetupValues(retro.solve(layout(BOARD)))


def _game(lay, first, second):
    game = Game(lay)
    fs = [i for i in range(lay.size) if first >> i & 1]
    ss = [i for i in range(lay.size) if second >> i & 1]
    while fs or ss:
        game.place((fs if game.side == game.first else ss).pop(0))
    return game


def test_setup_values_agree_with_the_search_solver(values):
    lay = values.layout
    rng = rng_of(11)
    seen = set()
    checked = 0
    while checked < 12:
        game = Game(lay)
        for _ in range(rng.choice((2, 3, 4, 5))):
            legal = [i for i in range(lay.size) if game.placements() >> i & 1]
            game.place(rng.choice(legal))
        first, second = game.knights[game.first], game.knights[game.first ^ 1]
        want = Solver(lay).solve(game.knights[game.side], game.knights[game.side ^ 1],
                                 game.free(), 0, resist=False)[0]
        assert values.wins(first, second) == want
        seen.add(want)
        checked += 1
    assert seen == {True, False}


def test_completed_setups_are_those_where_every_knight_can_move(values):
    lay = values.layout
    legal, won = values.counts()
    brute = 0
    from attila_tools.solve.retro_index import placements
    for mover, other in placements(values.tables.index):
        free = lay.all & ~(mover | other)
        if all(lay.knight[i] & free for i in range(lay.size) if (mover | other) >> i & 1):
            brute += 1
    assert legal == brute
    assert 0 < won < legal


def test_the_4x5_count_of_completed_setups():
    # The figure of the issue: 702,120 legal completed setups on the 4x5 board.
    from attila_tools.solve.retro_index import Index, placements

    lay = layout(["....."] * 4)
    count = 0
    full = lay.all
    knight = lay.knight
    for mover, other in placements(Index(lay)):
        k = mover | other
        free = full & ~k
        if all(knight[i] & free for i in range(20) if k >> i & 1):
            count += 1
    assert count == 702120


def test_certificate_of_a_small_layout_verifies_in_full(values, tmp_path):
    cert = retro_cert.build(values)
    path = str(tmp_path / "small.cert.json.gz")
    retro_cert.write(cert, path)
    out = io.StringIO()
    assert _verify([path, "--quiet"], out) == 0, out.getvalue()
    leaves = len(cert["strategy"])
    assert "complete and legal" in out.getvalue()
    assert "%d of %d completed setups re-solved by the search solver: all agree" % (
        leaves, leaves) in out.getvalue()
    assert cert["first_placer_wins"] == values.wins(0, 0)


def test_certificate_files_are_the_same_for_the_same_content(values, tmp_path):
    cert = retro_cert.build(values)
    a, b = str(tmp_path / "a.gz"), str(tmp_path / "b.gz")
    retro_cert.write(cert, a)
    retro_cert.write(cert, b)
    assert open(a, "rb").read() == open(b, "rb").read()
    assert retro_cert.read(a) == cert


def _verify(argv, out):
    import sys

    saved = sys.stdout
    sys.stdout = out
    try:
        return cli.main(["verify"] + list(argv))
    finally:
        sys.stdout = saved


def _broken(values, tmp_path, change):
    cert = json.loads(json.dumps(retro_cert.build(values)))
    change(cert)
    path = str(tmp_path / "broken.cert.json.gz")
    retro_cert.write(cert, path)
    out = io.StringIO()
    code = _verify([path, "--sample", "3", "--quiet"], out)
    return code, out.getvalue()


def test_a_missing_reply_is_found(values, tmp_path):
    def drop(cert):
        first = cert["strategy"][0].split()
        # Drop every line through the loser's first listed reply at its first turn.
        turn = 0 if not cert["first_placer_wins"] else 1
        cert["strategy"] = [l for l in cert["strategy"]
                            if l.split()[:turn + 1] != first[:turn + 1]]
    code, text = _broken(values, tmp_path, drop)
    assert code == 1
    assert "REFUTED" in text and "missing @" in text, text


def test_a_wrong_value_is_found(values, tmp_path):
    def flip(cert):
        words = cert["strategy"][5].split()
        words[-1] = "win" if words[-1] == "loss" else "loss"
        cert["strategy"][5] = " ".join(words)
    code, text = _broken(values, tmp_path, flip)
    assert code == 1 and "the winner does not win there" in text, text


def test_a_second_choice_of_the_winner_is_found(values, tmp_path):
    def twice(cert):
        turn = 0 if cert["first_placer_wins"] else 1
        words = cert["strategy"][0].split()
        lay = retro_cert.layout_of(cert)
        game = Game(lay)
        for w in words[:turn]:
            game.place(lay.index(w[1:]))
        other = [lay.names[i] for i in range(lay.size)
                 if game.placements() >> i & 1 and "@" + lay.names[i] != words[turn]][0]
        cert["strategy"].append(" ".join(words[:turn] + ["@" + other] + words[turn + 1:]))
    code, text = _broken(values, tmp_path, twice)
    assert code == 1 and "the winner has 2 placements in the tree, not one" in text, text


def test_an_illegal_placement_is_found(values, tmp_path):
    def illegal(cert):
        words = cert["strategy"][0].split()
        words[1] = words[0]  # the same square twice
        cert["strategy"][0] = " ".join(words)
    code, text = _broken(values, tmp_path, illegal)
    assert code == 1, text
    assert "REFUTED: after @a1 the tree lists 12; the legal placements are 11 (not legal @a1)" \
        in text, text


def test_claiming_the_other_side_wins_is_found_by_the_trees_shape(values, tmp_path):
    # Claim the other side wins everywhere: the tree's structure is then the
    # other side's, so the structure check names it first (a wrong leaf
    # value in a tree of the right shape: the test of the tampered leaf).
    def claim(cert):
        cert["first_placer_wins"] = not cert["first_placer_wins"]
    code, text = _broken(values, tmp_path, claim)
    assert code == 1, text
    assert "REFUTED: after the empty board the tree lists 1; the legal placements are 12" \
        in text, text


def test_unreadable_certificates_get_one_line(tmp_path, capsys):
    path = tmp_path / "x.gz"
    path.write_bytes(b"not gzip")
    assert cli.main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a certificate (gzip JSON)" in err
    with gzip.open(str(path), "wb") as f:
        f.write(b'{"format": "other"}')
    assert cli.main(["verify", str(path)]) == 2
    assert "format must be 'attila-certificate/1'" in capsys.readouterr().err
    assert cli.main(["verify", str(tmp_path / "missing.gz")]) == 2
    assert "cannot read the certificate" in capsys.readouterr().err


STORED = os.path.join(retro.ROOT, "boards", "solved")


def test_the_stored_4x5_certificate_verifies_on_a_sample():
    path = os.path.join(STORED, "4x5.cert.json.gz")
    out = io.StringIO()
    assert _verify([path, "--sample", "1", "--seed", "3"], out) == 0, out.getvalue()
    text = out.getvalue()
    assert "the second placer wins all 5,116 completed setups it reaches" in text, text
    assert "1 of 5,116 completed setups re-solved by the search solver: all agree" in text


def test_every_stored_certificate_is_complete_and_legal():
    names = sorted(f for f in os.listdir(STORED) if f.endswith(".cert.json.gz"))
    assert "4x5.cert.json.gz" in names
    for name in names:
        cert = retro_cert.read(os.path.join(STORED, name))
        lay = retro_cert.layout_of(cert)
        leaves, chosen = verify.check_tree(cert, lay)
        verify.check_book(cert, lay, chosen)
        assert leaves


def _mask(lay, names):
    m = 0
    for name in names.split():
        m |= 1 << lay.index(name)
    return m


def _losing_choice(values, cert):
    """A strategy tree of the right shape in which one winner's choice loses.

    At the winner's last placement before the loser completes the setup, the
    tree's choice is swapped for another legal placement after which every
    reply of the loser completes a setup where knights can move, but one of
    those setups is lost: the lines say "win" all the same. Only re-solving
    the leaves can tell.
    """
    lay = values.layout
    first_wins = cert["first_placer_wins"]
    assert first_wins, "this tamper is written for a first-placer win"
    for line in cert["strategy"]:
        words = line.split()
        if len(words) != 7:
            continue
        prefix, chosen = words[:4], words[4]
        game = Game(lay)
        for w in prefix:
            game.place(lay.index(w[1:]))
        for c in range(lay.size):
            if not game.placements() >> c & 1 or "@" + lay.names[c] == chosen:
                continue
            game.place(c)
            replies = [r for r in range(lay.size) if game.placements() >> r & 1]
            lost = []
            settled = True
            for r in replies:
                game.place(r)
                settled = settled and game.phase == MOVE
                if settled and not values.wins(game.knights[game.first],
                                               game.knights[game.first ^ 1]):
                    lost.append(r)
                game.undo()
            game.undo()
            if replies and settled and lost:
                # The book plays the tree's choice there: it follows the tamper.
                f, s = game.knights[game.first], game.knights[game.first ^ 1]
                for entry in cert["book"]:
                    if (_mask(lay, entry[0]), _mask(lay, entry[1])) == (f, s):
                        entry[2] = lay.names[c]
                head = " ".join(prefix)
                kept = [l for l in cert["strategy"]
                        if not l.startswith(head + " " + chosen + " ")]
                forged = ["%s @%s @%s win" % (head, lay.names[c], lay.names[r])
                          for r in replies]
                first_lost = min("@" + lay.names[r] for r in lost)  # the order verify walks
                return sorted(kept + forged), "%s @%s %s" % (head, lay.names[c], first_lost)
    raise AssertionError("no winner's choice to tamper with")


def test_a_tampered_leaf_value_is_refuted_by_re_solving_the_leaves(values, tmp_path):
    # The tree is complete and legal and every leaf says "win", but one
    # completed setup it reaches is a loss: the structure checks pass, the
    # search solver's re-solve of the leaves must refuse it.
    cert = json.loads(json.dumps(retro_cert.build(values)))
    cert["strategy"], bad = _losing_choice(values, cert)
    lay = retro_cert.layout_of(cert)
    leaves, chosen = verify.check_tree(cert, lay)  # the shape holds
    path = str(tmp_path / "tampered.cert.json.gz")
    retro_cert.write(cert, path)
    out = io.StringIO()
    assert _verify([path, "--quiet"], out) == 1, out.getvalue()
    text = out.getvalue()
    assert "complete and legal" in text, text
    assert ("REFUTED: after %s the search solver finds a loss, the certificate says win"
            % bad) in text, text


def _book_change(cert, pick):
    """Change the answer of the first book entry at the empty board's reply
    position: pick(game, answer) -> the new square name."""
    lay = retro_cert.layout_of(cert)
    for entry in cert["book"]:
        game = Game(lay)
        first = [lay.index(n) for n in entry[0].split()]
        second = [lay.index(n) for n in entry[1].split()]
        while first or second:
            game.place((first if game.side == game.first else second).pop(0))
        new = pick(lay, game, entry[2])
        if new:
            entry[2] = new
            return entry
    raise AssertionError("no book entry to change")


def test_a_book_answer_off_the_strategy_tree_is_found(values, tmp_path):
    # At a position of the winner's tree, the book plays another legal square.
    def other(cert):
        winner_first = cert["first_placer_wins"]

        def pick(lay, game, answer):
            if (game.side == game.first) != winner_first or not game.history:
                return None
            legal = [lay.names[i] for i in range(lay.size)
                     if game.placements() >> i & 1 and lay.names[i] != answer]
            return legal[0] if legal else None
        _book_change(cert, pick)
    code, text = _broken(values, tmp_path, other)
    assert code == 1, text
    assert "REFUTED: book entry" in text and ": the strategy tree plays " in text, text


def test_an_illegal_book_answer_is_found(values, tmp_path):
    def taken(cert):
        def pick(lay, game, answer):
            knights = game.knights[0] | game.knights[1]
            occupied = [lay.names[i] for i in range(lay.size) if knights >> i & 1]
            return occupied[0] if occupied else None
        _book_change(cert, pick)
    code, text = _broken(values, tmp_path, taken)
    assert code == 1, text
    assert "REFUTED: book entry" in text and "not a legal placement there" in text, text


def _first_line_words(cert):
    return cert["strategy"][0].split()


def _garbage(cert):
    cert["strategy"].insert(3, "@a1 @b2 maybe")


def _twice(cert):
    cert["strategy"].insert(1, cert["strategy"][0])


def _goes_on(cert):
    words = _first_line_words(cert)
    cert["strategy"].insert(1, " ".join(words[:-1] + ["@d3", "win"]))


def _no_at(cert):
    first = _first_line_words(cert)[0]
    cert["strategy"] = [l.replace(first, first[1:], 1) for l in cert["strategy"]]


def _stops_early(cert):
    # The winner's third placement is the line's last: its replies are dropped.
    head = " ".join(_first_line_words(cert)[:5])
    rest = [l for l in cert["strategy"] if not l.startswith(head + " ")]
    cert["strategy"] = [head + " win"] + rest


def _off_board(cert):
    first = _first_line_words(cert)[0]
    cert["strategy"] = [l.replace(first, "@z9", 1) for l in cert["strategy"]]


def _winner_on_a_taken_square(cert):
    # The winner's second placement, in every line, on its own first knight.
    w = _first_line_words(cert)
    head = " ".join(w[:3]) + " "
    cert["strategy"] = [l.replace(head, " ".join(w[:2] + [w[0]]) + " ", 1)
                        for l in cert["strategy"]]


def _after_setup(cert):
    words = _first_line_words(cert)
    cert["strategy"][0] = " ".join(words[:-1] + ["@d3", words[-1]])


@pytest.mark.parametrize("change, says", [
    (_garbage, "strategy line 4: '@a1 @b2 maybe' is not placements and a value"),
    (_twice, "strategy line 2: %s comes twice or goes on after it"),
    (_goes_on, "strategy line 2: goes on after a completed setup"),
    (_no_at, "is not a placement"),
    (_stops_early, "the line %s stops before the setup is complete"),
    (_after_setup, "the tree goes on after %s, where setup is over"),
    (_off_board, "after the empty board: z9 is not a square of this layout"),
    (_winner_on_a_taken_square, "after @a1 @b1: @a1: the square is taken"),
])
def test_each_malformed_tree_is_refuted_with_its_reason(values, tmp_path, change, says):
    words = " ".join(_first_line_words(retro_cert.build(values)))
    says = says.replace("%s", words[:words.rindex(" ")] if change is not _stops_early
                        else " ".join(words.split()[:5]))
    code, text = _broken(values, tmp_path, change)
    assert code == 1, text
    assert "REFUTED: " in text and says in text, (says, text)
