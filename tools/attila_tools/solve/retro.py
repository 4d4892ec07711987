"""Exact values of every play position of a layout: the retrograde tables.

    tables = solve(layout)                 # the C kernel, minutes for 20 squares
    tables = Tables.load(layout)           # from the cache (build/retro/), or solve
    tables.won(mover, other, scorched)     # bitmasks -> bool (side to move wins)
    tables.value(game)                     # -> (won, None) for the side to act (Game or text)

The kernel (retro.c, built by `make` into _retro.so, called through
ctypes) solves the layers of free squares bottom-up; retro_ref.py is the
plain Python reference that must give the same bytes. Only the default
tile supply (one tile per free square) is covered.
"""

import ctypes
import hashlib
import mmap
import os
import sys
import threading
import time

from attila.game.rules import MOVE, OVER, SCORCH, SETUP
from attila_tools.errors import ToolError
from attila_tools.solve.retro_index import Index
from attila_tools.squares import bits as _bits

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))  # tools/attila_tools/solve
LIBRARY = os.path.join(HERE, "_retro.so")
CACHE = os.environ.get("ATTILA_RETRO_CACHE", os.path.join(ROOT, "build", "retro"))

# CPU time of the kernel per unit of work (a row and one word of its layer,
# in one pass), from make bench (bench_retro: the 4x5 board's 1.39 G units,
# its play tables in 58 s on 2 threads). Only for the estimate shown up front.
NS_PER_UNIT = 83.6


class RetroError(ToolError):
    """The tables cannot be made or read; the message is the one line to show."""


_lib = None


def library():
    """The compiled kernel (ctypes), or RetroError saying how to build it."""
    global _lib
    if _lib is None:
        if not os.path.exists(LIBRARY):
            raise RetroError("%s is missing: run `make` to build the retrograde kernel"
                             % os.path.relpath(LIBRARY))
        lib = ctypes.CDLL(LIBRARY)
        lib.retro_new.restype = ctypes.c_void_p
        lib.retro_new.argtypes = (ctypes.c_int, ctypes.POINTER(ctypes.c_uint32), ctypes.c_int)
        lib.retro_free.argtypes = (ctypes.c_void_p,)
        lib.retro_table.restype = ctypes.c_void_p
        lib.retro_table.argtypes = (ctypes.c_void_p,)
        lib.retro_words.restype = ctypes.c_longlong
        lib.retro_words.argtypes = (ctypes.c_void_p,)
        lib.retro_done.restype = ctypes.c_long
        lib.retro_done.argtypes = (ctypes.c_void_p,)
        lib.retro_pass.restype = ctypes.c_int
        lib.retro_pass.argtypes = (ctypes.c_void_p, ctypes.c_int)
        _lib = lib
    return _lib


def layer_words(ix, s):
    """Words of a row that hold entries with s scorched squares (what a pass touches)."""
    if ix.m <= 6:
        return 1
    return sum(1 for h in range(ix.words) if 0 <= s - bin(h).count("1") <= 6)


def work_units(ix):
    """Units of kernel work for the whole solve: rows x layer words, over all passes."""
    return sum(layer_words(ix, s) for s in range(ix.m)) * ix.rows


def estimate(layout, threads=2):
    """(seconds, bytes) expected for the solve of a layout, before starting it."""
    ix = Index(layout)
    return work_units(ix) * NS_PER_UNIT * 1e-9 / max(1, threads), ix.nbytes


def estimate_text(seconds):
    """An estimate's seconds as said up front: "about 58 s", "under a second"."""
    return "about %d s" % seconds if seconds >= 1 else "under a second"


class Progress:
    """A progress bar on stderr: fraction done, elapsed time and time left."""

    def __init__(self, total, stream=None, label="solving"):
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.label = label
        self.t0 = time.perf_counter()
        self.shown = ""

    def show(self, done, note=""):
        frac = min(1.0, done / self.total) if self.total else 1.0
        spent = time.perf_counter() - self.t0
        left = spent / frac - spent if frac > 0.01 else None
        bar = "#" * int(frac * 30)
        text = "%s [%-30s] %3d%% %s  %ds elapsed%s" % (
            self.label, bar, int(frac * 100), note, spent,
            ", ~%ds left" % left if left is not None else "")
        if text != self.shown:
            self.stream.write("\r" + text)
            self.stream.flush()
            self.shown = text

    def end(self):
        self.stream.write("\n")
        self.stream.flush()


def solve(layout, threads=2, progress=None):
    """Solve every play position of a layout with the C kernel; returns Tables.

    progress: a Progress (or None); it is updated while the kernel runs.
    """
    lib = library()
    ix = Index(layout)
    knight = (ctypes.c_uint32 * ix.n)(*layout.knight)
    handle = lib.retro_new(ix.n, knight, threads)
    if not handle:
        raise RetroError("not enough memory for the table of %s (%.2f GB)"
                         % (layout.name or "the layout", ix.nbytes / 1e9))
    owner = _Handle(lib, handle)
    per_layer = [layer_words(ix, s) for s in range(ix.m)]
    total = sum(per_layer) * ix.ntrip
    if progress is not None:
        progress.total = total
    done_before = 0
    for s in range(ix.m - 1, -1, -1):
        result = []
        worker = threading.Thread(target=lambda: result.append(lib.retro_pass(handle, s)))
        worker.start()
        while worker.is_alive():
            worker.join(0.25)
            if progress is not None:
                progress.show(done_before + lib.retro_done(handle) * per_layer[s],
                              "layer %d/%d" % (ix.m - s, ix.m))
        if result != [0]:
            raise RetroError("the retrograde kernel failed in layer %d (out of memory?)" % s)
        done_before += per_layer[s] * ix.ntrip
    if progress is not None:
        progress.show(total, "layer %d/%d" % (ix.m, ix.m))
        progress.end()
    address = lib.retro_table(handle)
    data = (ctypes.c_char * ix.nbytes).from_address(address)
    return Tables(layout, memoryview(data).cast("B"), owner)


class _Handle:
    """Frees the kernel's memory once the tables that view it are gone."""

    def __init__(self, lib, handle):
        self.lib = lib
        self.handle = handle

    def release(self):
        if self.handle:
            self.lib.retro_free(self.handle)
            self.handle = None

    def __del__(self):
        self.release()


def layout_key(layout):
    """A short name for a layout's squares (the cache file's name)."""
    text = "/".join(layout.rows())
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cache_path(layout):
    name = (layout.name or "layout") + "-" + layout_key(layout) + ".bits"
    return os.path.join(CACHE, name)


class Tables:
    """Exact values of the play positions of one layout (default tile supply)."""

    def __init__(self, layout, data, owner=None):
        self.layout = layout
        self.index = Index(layout)
        if len(data) != self.index.nbytes:
            raise RetroError("table of %d bytes, expected %d" % (len(data), self.index.nbytes))
        self.data = data
        self._owner = owner  # keeps the memory the data views alive

    def close(self):
        """Give the table's memory back now (the tables cannot be used afterwards)."""
        self.data = None
        owner, self._owner = self._owner, None
        if isinstance(owner, _Handle):
            owner.release()
        elif owner is not None:
            owner.close()

    # -- storage -----------------------------------------------------------

    def save(self, path=None):
        """Write the table (raw bytes) to the cache, atomically; returns the path."""
        path = path or cache_path(self.layout)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = path + ".part"
        with open(tmp, "wb") as f:
            f.write(self.data)
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, layout, solve_missing=True, threads=2, progress=None):
        """The tables from the cache; solved (and cached) when missing and allowed."""
        path = cache_path(layout)
        if os.path.exists(path):
            with open(path, "rb") as f:
                data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            return cls(layout, memoryview(data), data)
        if not solve_missing:
            raise RetroError("no cached tables for %s (%s): run attila solve --from-setup "
                             "LAYOUT --keep-tables" % (layout.name or "the layout", path))
        tables = solve(layout, threads, progress)
        tables.save(path)
        return tables

    # -- values ----------------------------------------------------------------

    def won(self, mover, other, scorched):
        """True when the side to move (knights `mover`) wins with perfect play."""
        off, bit = self.index.bit(mover, other, scorched)
        return bool(self.data[off] >> bit & 1)

    def winning_turns(self, mover, other, scorched):
        """Number of whole turns (move, scorch) after which the other side is lost."""
        full = self.index.all
        free = full & ~(mover | other | scorched)
        count = 0
        for a in _bits(mover):
            for b in _bits(self.layout.knight[a] & free):
                mover1 = mover ^ (1 << a | 1 << b)
                free1 = (free | 1 << a) & ~(1 << b)
                for c in _bits(free1):
                    if not self.won(other, mover1, scorched | 1 << c):
                        count += 1
        return count

    def value(self, game):
        """(won, plies_to_end) for the side to act in a Game or a position text.

        plies_to_end is None (not kept), 0 when the game is over. The game
        must use the default tile supply. In setup the placements are
        searched (the tables give the completed setups).
        """
        if isinstance(game, str):
            from attila.game.notation import parse_position

            game = parse_position(game)
        if game.layout != self.layout:
            raise RetroError("the game is on another layout")
        if game.supply != self.index.m:
            raise RetroError("the tables hold the default supply of %d tiles, the game has %d"
                             % (self.index.m, game.supply))
        side = game.side
        me, opp = game.knights[side], game.knights[side ^ 1]
        if game.phase == OVER:
            return False, 0
        if game.phase == MOVE:
            return self.won(me, opp, game.scorched), None
        if game.phase == SCORCH:
            free = game.free()
            for c in _bits(free):
                if not self.won(opp, me, game.scorched | 1 << c):
                    return True, None
            return False, None
        if game.phase == SETUP:
            from attila_tools.solve.retro_setup import SetupValues

            first = game.knights[game.first]
            second = game.knights[game.first ^ 1]
            return SetupValues(self).wins(first, second), None
        raise RetroError("unknown phase")  # pragma: no cover
