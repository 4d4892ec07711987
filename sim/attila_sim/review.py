"""The replay's analysis, for the simulator's panel (attila_tools.analyse.analysis).

While a game is replayed, the panel says for the last step done the value
of the side that acted before and after it (perfect play from there), the
win it threw away with a winning action instead, and after the last step
the summary of `attila analyse`. The tables are used when they are cached
(`attila analyse` or `attila solve --from-setup --keep-tables` made them)
or small enough to solve on the spot; otherwise the panel says analysis is
off and why. The work runs in a thread, so the window keeps drawing; text
mode waits for each step's line.
"""

import os
import threading

from attila.errors import AttilaError
from attila.game.rules import SIDE_NAMES

from attila_tools.analyse import analysis
from attila_tools.solve import retro
from attila_tools.analyse.analyse_cmd import reach
from attila_tools.files import size_text

SOLVE_BYTES = 200 * 1000 * 1000  # tables up to this size (18 squares) are solved on the spot


class ReplayReview:
    """The analysis of a replayed game, worked out in the background, a step at a time."""

    def __init__(self, layout, first, items, tiles=None, enabled=True):
        self.count = len(items)
        self.rows = []  # analysis.Row of each step, in order, as they are done
        self.summary = None
        self.failed = None
        self.doing = "loading the tables"
        self.off = self._why_off(layout, tiles, enabled)
        self._thread = None
        if self.off is None:
            self._thread = threading.Thread(target=self._work, args=(layout, first, items),
                                            daemon=True)
            self._thread.start()

    @staticmethod
    def _why_off(layout, tiles, enabled):
        if not enabled:
            return "Analysis off (--no-analysis)"
        try:
            reach(layout, tiles)
        except AttilaError as e:
            return "Analysis off: %s" % e
        nbytes = retro.Index(layout).nbytes
        if not os.path.exists(retro.cache_path(layout)) and nbytes > SOLVE_BYTES:
            return ("Analysis off: the tables of %s are not solved yet (%s, %s: "
                    "attila analyse GAME solves and keeps them)"
                    % (layout.name or "this layout", size_text(nbytes),
                       retro.estimate_text(retro.estimate(layout)[0])))
        return None

    def _work(self, layout, first, items):
        try:
            if not os.path.exists(retro.cache_path(layout)):
                self.doing = "solving the tables of %s" % (layout.name or "the layout")
            tables = retro.Tables.load(layout)
            self.doing = "working"
            review = analysis.Review(tables, first, items)
            for k in range(len(items)):
                self.rows.append(review.row(k))
            self.summary = review.short_summary()
        except (AttilaError, retro.RetroError, MemoryError, OSError) as e:
            self.failed = "Analysis stopped: %s" % e

    def wait(self, done):
        """Block until the first `done` steps are analysed (or the work has stopped)."""
        while self._thread is not None and self._thread.is_alive() and len(self.rows) < done:
            self._thread.join(0.05)

    def lines(self, done):
        """What the panel says after `done` steps of the replay."""
        if self.off:
            return [self.off]
        if self.failed:
            return [self.failed]
        if done <= 0:
            return []
        if len(self.rows) < done:
            return ["Analysis: %s ..." % self.doing]
        row = self.rows[done - 1]
        out = ["Analysis: %d. %s %s: %s -> %s" % (
            row.number, SIDE_NAMES[row.side], row.action, row.before.text(), row.after.text())]
        if row.threw:
            out.append("Mistake: " + row.note())
        if done == self.count and self.summary:
            out.append("Summary: " + self.summary)
        return out
