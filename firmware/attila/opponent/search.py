"""The opponent's search: alpha-beta negamax on bitboards that can stop after any node.

Why it is built this way: docs/pages/inside/design.md (attila/opponent/search.py).
"""

from attila.compat import const

try:
    from attila.opponent import kernelv as _viper
except (ImportError, SyntaxError, MemoryError):
    # CPython; a port without the native emitter; no room to compile it.
    _viper = None  # type: ignore[assignment]
except ValueError as e:
    # kernelv.mpy of another MicroPython version or arch (after an upgrade or
    # a downgrade): the board plays on with the portable kernel, and says why.
    print("attila: attila/opponent/kernelv.mpy not loaded (%s): the portable kernel searches "
          "(slower); flash the board again (attila flash) to compile it for this "
          "MicroPython" % e)
    _viper = None  # type: ignore[assignment]

NATIVE = _viper is not None  # the viper kernel compiled on this port
WIN = const(10000)
INF = const(30000)
BIAS = const(32768)  # scores are kept biased, so that every stored value is >= 0

# Header of the stack row.
_NODES = const(0)  # nodes counted in this decision
_PAUSE = const(1)  # run() returns once this many nodes are counted
_SP = const(2)  # ply of the record at work
_CUT = const(3)  # 1 once some leaf was evaluated or a scorch group skipped
_RESULT = const(4)  # score of the root action just searched (biased)
_WIDTH = const(5)  # length of a row of moves
_H = const(6)
# Fields of a ply record (ply p starts at _H + p * _FW).
_ME = const(0)  # knights of the side to act
_OPP = const(1)
_FREE = const(2)
_TILES = const(3)
_DEPTH = const(4)
_ALPHA = const(5)  # biased, as _BETA and _BEST
_BETA = const(6)
_BEST = const(7)
_STATE = const(8)
_N = const(9)  # moves in the row
_I = const(10)  # next move of the row (at the root: the action to search)
_OREACH = const(11)  # squares the opponent's knights reach
_GROUPS = const(12)  # scorch groups to try: 4 exact, 2 inexact
_ME1 = const(13)  # after the move under way: my knights, free squares
_F1 = const(14)
_ORR = const(15)  # scorch groups of the move under way
_MYR = const(16)
_QUIET = const(17)
_ISO = const(18)
_BAD = const(19)  # scorches after which the opponent traps us at once
_G = const(20)  # next scorch group
_CS = const(21)  # scorches left in the group under way
_FW = const(22)
_STARTS = const(13)  # the root record: the knights and squares of root turns
_ENDS = const(14)
# Frame states.
_NEW_PLAY = const(0)  # not counted yet
_NEW_SETUP = const(1)
_PLAY = const(2)  # counted, to expand
_SETUP = const(3)
_MOVES = const(4)
_SCORCHES = const(5)
_PLACES = const(6)
_ROOT = const(7)  # the root: push the child of action _I
_ROOT_WAIT = const(8)


def kernel(layout, native=True):
    """The kernel module for a layout: viper where it compiled and fits, else portable."""
    if native and _viper is not None and layout.size <= _viper.MAX_SQUARES:
        return _viper
    from attila.opponent import kernel as portable

    return portable


class Search:
    """One layout's search: tables, stack and rows, made once and reused."""

    def __init__(self, layout, native=True):
        k = kernel(layout, native)
        self.layout = layout
        self.native = k is _viper
        self.width = max(3 * 8, layout.size)  # a row: every move, or every square
        self.plies = 0
        self.stack = self.acts = k.row(0)  # ensure() makes them
        self.rows = k.rows(0, 0)
        self.nodes = 0
        self.score = 0
        self.cut = False
        self.table = k.tables(layout)
        self._row = k.row
        self._rows = k.rows
        self._run = k.run
        self._turns = k.turns

    def ensure(self, plies, actions):
        """Room for `plies` ply records and `actions` root actions (grows, never shrinks)."""
        if plies > self.plies:
            self.plies = plies
            self.stack = self._row(_H + plies * _FW)
            self.stack[_WIDTH] = self.width
            self.rows = self._rows(plies, self.width)
        if len(self.acts) < actions:
            self.acts = self._row(actions)

    def root(self, me, opp, free, tiles):
        """A new decision from this position (the side `me` to act)."""
        s = self.stack
        s[_NODES] = 0
        s[_H + _ME] = me
        s[_H + _OPP] = opp
        s[_H + _FREE] = free
        s[_H + _TILES] = tiles
        s[_H + _BETA] = BIAS + INF
        self.nodes = 0

    def turns(self, starts, ends):
        """Every turn worth trying at the root, into self.acts; their number.

        Moves of the knights on `starts` to squares of `ends` (-1: any), each
        packed with a scorch as 1 << 18 | a << 12 | b << 6 | c (turn a-b,c).
        Scorch squares no knight can jump to are all alike, so the lowest
        stands for them; the opponent's exits come first.
        """
        s = self.stack
        s[_H + _STARTS] = starts
        s[_H + _ENDS] = ends
        return self._turns(s, self.acts, self.table)

    def child(self, k, depth, alpha, beta=INF):
        """Search root action k (self.acts[k]) at `depth` in the root's window (alpha, beta)."""
        s = self.stack
        s[_SP] = 0
        s[_H + _DEPTH] = depth
        s[_H + _ALPHA] = alpha + BIAS
        s[_H + _BETA] = beta + BIAS
        s[_H + _I] = k
        s[_H + _STATE] = _ROOT

    def clear_cut(self):
        self.stack[_CUT] = 0
        self.cut = False

    def run(self, pause):
        """Search on until `pause` nodes are counted (False) or the root action is scored (True).

        The score, for the side that took the root action, is then in self.score.
        """
        s = self.stack
        s[_PAUSE] = pause
        done = self._run(s, self.rows, self.acts, self.table)
        self.nodes = s[_NODES]
        self.cut = s[_CUT] != 0
        if done:
            self.score = BIAS - s[_RESULT]
        return done
