"""Smoke tests: the core imports and the check helper works, on every interpreter."""

import check
from attila.errors import AttilaError, IllegalAction, LayoutError, NotationError


def test_the_core_imports_and_its_basics_work_together():
    from attila.game.geometry import from_rows
    from attila.game.notation import format_position, parse_position
    from attila.game.rules import Game

    game = Game(from_rows(["....."] * 4))
    assert format_position(game) == "...../...../...../..... R"
    assert format_position(parse_position("R.x.H/.x.../H.x.R/..HR. R")) == (
        "R.x.H/.x.../H.x.R/..HR. R")


def test_error_hierarchy():
    for cls in (NotationError, LayoutError, IllegalAction):
        assert issubclass(cls, AttilaError)
    assert issubclass(AttilaError, ValueError)


def _boom(text, code=0):
    raise IllegalAction(text + str(code))


def test_raises_returns_message():
    assert check.raises(IllegalAction, _boom, "bad", code=7) == "bad7"
    # a base class catches a subclass
    assert check.raises(ValueError, _boom, "x") == "x0"


def test_raises_fails_when_nothing_raised():
    try:
        check.raises(ValueError, len, "abc")
    except AssertionError as e:
        assert "nothing was raised" in str(e), str(e)
    else:
        raise AssertionError("check.raises accepted a call that did not raise")


def test_raises_fails_on_other_type():
    try:
        check.raises(KeyError, _boom, "y")
    except AssertionError as e:
        assert "IllegalAction" in str(e), str(e)
    else:
        raise AssertionError("check.raises accepted the wrong exception type")
