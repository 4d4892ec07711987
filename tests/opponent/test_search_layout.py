"""The stack row's layout is repeated as const() in the search and its two kernels: it agrees.

MicroPython folds only a module's own constants, so attila.opponent.search, the
portable kernel and the viper kernel each spell the row out; a field that
moved in one of them would make the kernels read each other's frames wrong.
"""

import os
import re

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "firmware", "attila", "opponent")
CONST = re.compile(r"^(_?[A-Z][A-Z0-9_]*) = const\((\w+)\)", re.M)
SHARED = ("_NODES", "_PAUSE", "_SP", "_CUT", "_RESULT", "_WIDTH", "_H", "_ME", "_OPP",
          "_FREE", "_TILES", "_DEPTH", "_ALPHA", "_BETA", "_BEST", "_STATE", "_N", "_I",
          "_OREACH", "_GROUPS", "_ME1", "_F1", "_ORR", "_MYR", "_QUIET", "_ISO", "_BAD",
          "_G", "_CS", "_FW", "_STARTS", "_ENDS", "_NEW_PLAY", "_NEW_SETUP", "_PLAY",
          "_SETUP", "_MOVES", "_SCORCHES", "_PLACES", "_ROOT", "_ROOT_WAIT")


def consts(name):
    with open(os.path.join(FIRMWARE, name)) as f:
        return dict(CONST.findall(f.read()))


def test_the_kernels_share_the_search_layout():
    search = consts("search.py")
    for name in ("kernel.py", "kernelv.py"):
        kernel = consts(name)
        for field in SHARED:
            assert kernel.get(field) == search[field], (name, field)
        for score in ("WIN", "INF", "BIAS"):
            assert kernel["_" + score] == search[score], (name, score)


def test_frames_fields_are_distinct():
    search = consts("search.py")
    fields = [f for f in SHARED[SHARED.index("_ME"):SHARED.index("_FW")]]
    values = sorted(int(search[f]) for f in fields)
    assert values == list(range(int(search["_FW"]))), values
