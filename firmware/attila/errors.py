"""Errors of the core: each message says what is wrong and where."""


class AttilaError(ValueError):
    """Base of every error the core raises on bad input."""


class NotationError(AttilaError):
    """A position, turn or placement text that cannot be read."""


class LayoutError(AttilaError):
    """A layout that is not a valid Attila board."""


class IllegalAction(AttilaError):
    """A placement, move or scorch that the rules forbid."""
