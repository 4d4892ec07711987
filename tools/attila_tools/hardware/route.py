"""The tracks of a module board, laid by the generator (placeholder)."""


def route(board, name, kind, parts, netmap):
    pass
