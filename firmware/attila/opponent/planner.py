"""The Planner: the opponent's decision for the side to act, a slice of nodes per loop step.

Why it is built this way: docs/pages/inside/design.md (attila/opponent/planner.py).
"""

from attila.compat import const
from attila.errors import IllegalAction
from attila.game.geometry import lowest, popcount
from attila.game.rules import KNIGHTS, OVER, SCORCH, SETUP
from attila.opponent.chooser import Chooser, action_text
from attila.opponent.levels import (BEGINNER, BUDGET_MS, DECIDED, DEPTH, EXACT, NODES, NOISE,
                                    NORMAL, PORTABLE_SLICE, ROOT_NODES, SLICE, STRONG, deepening,
                                    draw, pace, reseed, setup_share)
from attila.opponent.search import INF, Search
from attila.ticks import ticks_diff

try:
    from time import ticks_ms
except ImportError:  # CircuitPython: its ticks are an int, unlike time.monotonic()
    try:
        from supervisor import ticks_ms  # type: ignore[import-not-found,no-redef]
    except ImportError:  # CPython
        import time as _time

        def ticks_ms():
            return int(_time.monotonic() * 1000)  # type: ignore[attr-defined]


# The card's search for a winning turn, per loop step: at most this many
# lookups and block reads, so that a step with a block read (at 10 MHz, and
# its check) stays inside the 10 ms loop. start() reads nothing: the step
# that starts a decision also takes the input and repaints; the turn found
# is told, and a lost position's search set up, in the step after the one
# that read its block. Together in one step they would overrun the loop, and
# the next step would follow without a sleep (main.py collects boot's
# garbage before its loop, so no collection falls in such a step either).
CARD_LOOKUPS = const(4)
CARD_READS = const(1)
CARD_FAULTS = const(3)  # failing decisions in a row that drop the card (pulled out, dead)
_ASKING = const(1)  # the card is asked, a few lookups a step
_FOUND = const(2)  # its winning turn found: told in the next step
_LOST = const(3)  # the position is lost (or the card failed): the search next step
# Nodes between two readings of the clock in the blocking calls.
CHOOSE_SLICE = 64


_last = [0, False]  # nodes and stop of the last decision (stats())


class Planner(Chooser):
    """One decision at a time for a Controller: start, a slice per step, result.

    budget_ms counts the now_ms values handed to start() and step() (the
    board's loop clock); the level's node budget (or `node_budget`) caps it
    too. The strong level's hard stage (DEEP_FREE) has DEEP times both,
    but for budget_ms in the blocking calls (decide(), choose()): one call
    never outlasts it, so a watchdog fed around it holds (attila.profile).
    slice_nodes: nodes per step; None takes the kernel's (SLICE with viper,
    PORTABLE_SLICE without: attila.opponent.levels; setup_share() of it in
    setup), and CHOOSE_SLICE between clock readings in the blocking calls.
    root_nodes: what one root action counts in a slice; node_budget: None
    for the level's (a port may pace the Planner: levels.pace()).
    native=False keeps to the portable kernel (tests, benches). book: an
    open attila.opponent.book.Book, played in setup at NORMAL and STRONG.
    """

    def __init__(self, level=STRONG, budget_ms=BUDGET_MS, slice_nodes=None, native=True,
                 book=None, card=None):
        self.level = level
        self.budget_ms = budget_ms
        self.slice_nodes = None if slice_nodes is None else max(1, slice_nodes)
        self.root_nodes = ROOT_NODES  # what a root action counts in a slice
        self.native = native
        self.node_budget = None  # None: the level's
        self.busy = False
        self.nodes = 0  # nodes searched in the decision so far
        self._search = None
        self._asked = native  # what the search was made for
        self._layout = None
        self._action = -1  # the decision, packed as in the search's rows; -1 none
        self.book = book
        self.card = card  # an attila.opponent.card.Card: NORMAL and STRONG play its winning turns
        self._note = ""  # why the card failed (or was given up): take_note() hands it on once
        self._faults = 0  # decisions in a row the card failed
        self._failed = False  # this decision's lookup failed: the search decides, in full
        self._carding = 0  # _ASKING, _FOUND, _LOST while the card has the decision; 0 not
        self._card_game = None
        self._level = level  # the decision's level (start()'s: a hint's is STRONG)
        self._blocking = False  # decide(): CHOOSE_SLICE nodes between clock readings
        self._cap_ms = budget_ms  # this decision's budget_ms (DEEP times in the hard stage)

    def __call__(self, game):
        """The action for the side to act, blocking (read from the board's ticks)."""
        return self.decide(game, ticks_ms)

    def decide(self, game, clock):
        """Blocking: start, step until decided with `clock()` as the time; the
        action as text ('@b1', 'b1-c3,d4'). IllegalAction if none."""
        if game.phase == OVER:
            raise IllegalAction("the game is over: nothing to choose")
        self._blocking = True
        try:
            self.start(game, clock())
            while not self.step(clock()):
                pass
        finally:
            self._blocking = False
        action = self.result()
        if action < 0:
            raise IllegalAction("no legal action for %s" % "RH"[game.side])
        return action_text(game.layout, action)

    def start(self, game, now_ms, level=None):
        """Begin a decision for the side to act at `level` (None: the Planner's
        own; a hint asks at STRONG); the game may change afterwards (with a
        card, cancel() the decision first: the Controller's plan does).
        True when decided at once (from the setup book); else result() is
        read once a step() says so."""
        self.busy = False
        self._carding = 0
        self._card_game = None
        self._action = -1
        self.nodes = 0
        if game.phase == OVER:
            return False
        level = self.level if level is None else level
        level = BEGINNER if level < BEGINNER else STRONG if level > STRONG else level
        self._level = level
        layout = game.layout
        if level >= NORMAL and game.phase == SETUP and self.book is not None:
            square = self.book.placement(game)  # -1: not in it, or unreadable
            if square >= 0:
                self._layout = layout
                self._action = square  # a placement's action is its square
                _last[0] = 0
                _last[1] = False
                return True
        if level >= NORMAL and self.card is not None and game.phase != SETUP \
                and self.card.ask(game):
            # The card's winning turn, found in step() a few lookups a loop
            # step, the position's own lookup first: start() reads nothing
            # (the step that starts a decision may paint the LEDs too). Lost,
            # or a card that fails: the search holds out, set up a step later.
            self._layout = layout
            self._carding = _ASKING
            self._card_game = game  # searched if lost
            self.busy = True
            self._t0 = now_ms
            _last[0] = 0
            _last[1] = False
            return False
        self._begin_search(game, level, now_ms)
        return False

    def _begin_search(self, game, level, now_ms, deep=True):
        """The search's tables, root and first iteration (start(), or the step
        after the card found the position lost: it holds out within the level's
        budgets, never the hard stage's, deep=False)."""
        layout = game.layout
        srch = self._search
        if srch is None or (srch.layout is not layout and srch.layout != layout) \
                or self._asked != self.native:
            self._search = None  # the old tables go before the new ones are made
            self._asked = self.native
            srch = self._search = Search(layout, self.native)
        count = self._root(game, srch)
        if not count:
            return
        horizon = self._horizon
        self._budget(game, level, self._nfree, deep)
        self._noise = NOISE[level]
        self._top = DEPTH[level]
        self._exact_at = EXACT[level]
        self._count = count
        self._layout = layout
        self._t0 = now_ms
        self._depth = horizon if horizon <= 4 and horizon <= self._exact_at else 1
        pace = self.slice_nodes
        if pace is None:
            pace = SLICE if srch.native else PORTABLE_SLICE
        self._slice = setup_share(pace) if game.phase == SETUP else pace
        if self._blocking and self.slice_nodes is None:
            self._slice = CHOOSE_SLICE  # a blocking call: only the clock's readings
        self._iteration()
        self.busy = True

    def _root(self, game, srch):
        """The search's root for the side to act; its root actions (their
        number), the horizon and the free squares kept (a tuple returned
        would allocate). In the scorch step the whole turn is the answer: back
        to before the move, that move only."""
        layout = game.layout
        side = game.side
        me = game.knights[side]
        opp = game.knights[side ^ 1]
        free = game.free()
        starts = me
        ends = -1
        if game.phase == SCORCH:
            entry = game.history[-1]
            starts = 1 << (entry >> 8 & 0xFF)
            ends = 1 << (entry & 0xFF)
            me = me ^ starts ^ ends
            free = (free | ends) ^ starts
        tiles = game.tiles()
        left = 2 * KNIGHTS - popcount(me | opp)
        # Plies until the end can come at the latest: the search is exact beyond.
        nfree = popcount(free)
        if game.phase == SETUP:
            turns = nfree - left
            horizon = left + (turns if turns < tiles else tiles)
            srch.ensure(horizon + 2, nfree)
            srch.root(me, opp, free, tiles)
            self._horizon = horizon
            self._nfree = nfree
            return _placements(game, srch.acts)
        horizon = nfree if nfree < tiles else tiles
        most = 0
        m = starts
        while m:
            a = m & -m
            m ^= a
            most += popcount(layout.knight[lowest(a)] & free & ends)
        srch.ensure(horizon + 2, most * nfree)
        srch.root(me, opp, free, tiles)
        self._horizon = horizon
        self._nfree = nfree
        return srch.turns(starts, ends)

    def _budget(self, game, level, nfree, deep):
        """The decision's node budget and time (the level's, its hard stage's
        DEEP times both where `deep`, or the node_budget a port gave)."""
        cap = self.node_budget
        self._cap_ms = self.budget_ms
        if cap is None:
            cap = NODES[level]
            if game.phase == SETUP:
                cap = setup_share(cap)  # as many loop steps as in play: within budget_ms
            else:
                deep = deepening(level, nfree) if deep else 1
                cap *= deep
                if not self._blocking:  # (a blocking call keeps to budget_ms: a watchdog's)
                    self._cap_ms = self.budget_ms * deep
        self._limit = max(8, (cap + 7) & ~7)  # the node budget is read every 8 nodes

    def _card_failed(self, e):
        """A lookup failed: the search decides this turn; the card is dropped
        only when it fails CARD_FAULTS decisions in a row."""
        self._failed = True
        self._faults += 1
        if self._faults < CARD_FAULTS:
            self._note = "%s: %s: the board searches this turn" % (self.card.what, e)
            return
        self._note = "%s not used (%s): the board searches" % (self.card.what, e)
        self.card = None

    def _card_step(self, now_ms):
        """The card's part of a decision, one loop step: a few lookups (at most
        CARD_READS blocks), the turn found told a step after its block was read,
        the search set up a step after the position was found lost. True when
        decided."""
        state = self._carding
        if state == _ASKING:
            card = self.card
            before = card.reads
            self._failed = False
            try:
                turn = card.step(CARD_LOOKUPS, CARD_READS)
            except Exception as e:  # CardError, OSError: the search decides, never a crash
                self._card_failed(e)
                turn = -1
            if turn == -2:
                return False
            if not self._failed:
                self._faults = 0
            if turn == -1:
                self._carding = _LOST
                return False
            self._action = turn
            if card.reads != before:
                self._carding = _FOUND  # a block read this step: told in the next
                return False
        elif state == _LOST:
            game = self._card_game
            self._carding = 0
            self._card_game = None
            self.busy = False
            # A lost position: the search holds out at the level's budget; a
            # position the table lacks (not lost: card.lost False), in full.
            self._begin_search(game, self._level, self._t0,
                               self.card is None or self._failed or not self.card.lost)
            return not self.busy
        self._carding = 0
        self._card_game = None
        self.busy = False
        return True

    def _iteration(self):
        self._search.clear_cut()
        self._k = 0
        self._alpha = -INF
        self._best = -1
        self._score = -INF
        self._searching = False
        self._wide = False  # the action under way failed high on its scout: searched again

    def step(self, now_ms):
        """Search at most one slice of nodes; True once the decision is made (or none is due)."""
        if not self.busy:
            return True
        if self._carding:
            return self._card_step(now_ms)
        if ticks_diff(now_ms, self._t0) >= self._cap_ms:
            self._finish(True)
            return True
        srch = self._search
        limit = self._limit
        pause = srch.nodes + self._slice
        if pause > limit:
            pause = limit
        noise = self._noise
        while True:
            if not self._searching:
                if srch.nodes >= pause:
                    return False  # the slice is spent: the next root action next time
                # Without noise, an action after the first is scouted with a null
                # window: only whether it beats the best so far (far fewer nodes);
                # when it does, it is searched again for its score.
                alpha = self._alpha
                beta = INF if noise or self._wide or alpha <= -INF else alpha + 1
                srch.child(self._k, self._depth, alpha, beta)
                self._searching = True
            if not srch.run(pause):
                self.nodes = srch.nodes
                if srch.nodes >= limit:
                    self._finish(True)
                    return True
                return False
            self._searching = False
            self.nodes = srch.nodes
            pause -= self.root_nodes
            s = srch.score
            if not noise and not self._wide and -INF < self._alpha < s:
                self._wide = True  # it beats the best so far: its score, next
                continue
            self._wide = False
            if noise and -DECIDED < s < DECIDED:
                s += draw(2 * noise + 1) - noise
            if s > self._score:
                self._score = s
                self._best = self._k
                if s > self._alpha:
                    self._alpha = s
            self._k += 1
            if self._k < self._count:
                continue
            self._front()
            depth = self._depth
            horizon = self._horizon
            if not srch.cut or depth >= self._top or depth >= horizon:
                self._finish(False)  # exact, or as deep as the level goes
                return True
            self._depth = horizon if horizon <= self._exact_at else depth + 1
            self._iteration()

    def _front(self):
        """The best action of the iteration goes first: searched first next time."""
        k = self._best
        if k > 0:
            acts = self._search.acts
            v = acts[k]
            while k:
                acts[k] = acts[k - 1]
                k -= 1
            acts[0] = v
            self._best = 0

    def _finish(self, stopped):
        if stopped:
            if self._wide:
                self._best = self._k  # its scout beat the best so far
            self._front()  # the best of a part-searched iteration counts
        self._action = self._search.acts[0]
        self.busy = False
        self.nodes = self._search.nodes
        _last[0] = self.nodes
        _last[1] = stopped

    def result(self):
        """The decision, an action (attila.opponent.chooser); -1 when there is
        no legal action, while busy (not decided yet) and after cancel()."""
        if self.busy:
            return -1
        return self._action

    def take_note(self):
        """Why the card failed or was given up, once ("" when it did not)."""
        note = self._note
        self._note = ""
        return note

    def cancel(self):
        """Drop the decision under way."""
        self.busy = False
        self._carding = 0
        self._card_game = None
        self._action = -1


def _placements(game, acts):
    """The legal placements into acts (kind 0: the square index); their number."""
    cs = game.placements()
    n = 0
    i = 0
    while cs:
        if cs & 1:
            acts[n] = i
            n += 1
        cs >>= 1
        i += 1
    return n


_planner = []  # type: list  # choose()'s Planner, made on first use


def choose(game, level=STRONG, budget_ms=BUDGET_MS, clock=None, seed=None, nodes=None, book=None,
           card=None):
    """The action the computer plays for the side to act, as text (blocking).

    level: BEGINNER..STRONG (0..3). budget_ms: time for the decision, read
    from `clock` (a function returning milliseconds; default the board's
    ticks). nodes: node budget (default per level). seed: reseeds the LCG
    behind the lower levels' noise. In the scorch step of a turn the answer
    is the whole turn, the move already made included. IllegalAction when
    the game is over. book: a setup book (attila.opponent.book) for NORMAL and STRONG;
    card: the solved game (attila.opponent.card.Card) for them too.
    """
    if seed is not None:
        reseed(seed)
    if not _planner:
        _planner.append(Planner())
    p = _planner[0]
    p.level = level
    p.budget_ms = budget_ms
    p.node_budget = nodes
    p.book = book
    p.card = card
    return p.decide(game, clock if clock is not None else ticks_ms)


def chooser(level=STRONG, budget_ms=BUDGET_MS, book=None, card=None, port="micropython"):
    """The Planner a Controller asks for the board's own turns and for hints
    (book: the layout's setup book, card: its attila.opponent.card.Card, or
    None), paced for a profile's `port` (attila.opponent.levels.pace)."""
    p = Planner(level, budget_ms, book=book, card=card)
    p.slice_nodes, p.root_nodes, p.node_budget = pace(port, level)
    return p


def stats():
    """(nodes searched, whether the last decision stopped on its budget)."""
    return _last[0], _last[1]
