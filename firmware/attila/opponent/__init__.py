"""The computer opponent: its levels, the Planner that searches a slice per
loop step, the search and its kernels, and what it knows by heart (the setup
book, the opening table, the solved game on a microSD card).

    from attila import opponent
    opponent.chooser(opponent.STRONG, 2000, book=book)

The names below are the opponent's face, loaded on first use (as
micropython-lib's asyncio does): importing the package costs nothing until
one is read, and reading one loads only the module that has it.
"""

_FACE = {
    "BEGINNER": "levels", "EASY": "levels", "NORMAL": "levels", "STRONG": "levels",
    "LEVEL_NAMES": "levels", "NODES": "levels", "DEEP": "levels", "DEEP_FREE": "levels",
    "deepening": "levels", "reseed": "levels",
    "Planner": "planner", "choose": "planner", "chooser": "planner", "stats": "planner",
    "CARD_READS": "planner", "CHOOSE_SLICE": "planner",
}


def __getattr__(name):
    if name[:2] == "__":
        raise AttributeError(name)
    module = _FACE.get(name)
    if module is None:
        # A submodule (from attila.opponent import book): MicroPython asks the
        # package first, and an ImportError (no viper here) must reach the caller.
        value = __import__("attila.opponent." + name, None, None, (name,))
    else:
        value = getattr(__import__("attila.opponent." + module, None, None, (name,)), name)
    globals()[name] = value
    return value
