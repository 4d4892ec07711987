"""What the board's plan asks of an opponent, with defaults that answer nothing.

attila.opponent.planner.Planner is the real one; a test's opponent inherits
what it has no use for, and attila.play.plan.Answer turns a plain function
fn(game) -> text into one that answers at once.

    start(game, now_ms, level)  begin a decision for the side to act (level
                                None: the chooser's own); True when it is
                                decided already and result() holds it
    step(now_ms) -> bool        one slice of the decision: True once decided
    result() -> text            '@b1' or 'b1-c3,d4'; '' when there is none
    cancel()                    drop a decision under way
    book                        a setup book a hint may place from, or None
    note                        why the card was given up: the plan shows it
                                once and sets it back to ''
    who                         how the status line names the side it plays
                                ('%s': the side's name)
    words() -> text             what it adds to the status line ('': nothing)
    kept(game) -> int           history entries UNDO may not take back (0: any);
                                online, the actions both boards have
    refused()                   UNDO was refused for kept(): say why (words())
"""


class Chooser:
    book = None
    note = ""
    who = "The board plays the %s"

    def words(self):
        return ""

    def kept(self, game):
        return 0

    def refused(self):
        pass

    def start(self, game, now_ms, level=None):
        return True

    def step(self, now_ms):
        return True

    def result(self):
        return ""

    def cancel(self):
        pass
